import { checkPeriod, checkStream, secretSeedOf, type DiceStream, type PeriodCheck, type RollRecord, type StreamCheck } from '../../engine/dice/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import type { StoredEvent } from '../../db/eventRepo.js';
import { UserError } from '../errors.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { commitmentOf, hasSecretStream } from './seeds.js';

type Data = Readonly<Record<string, unknown>>;
const dataOf = (e: StoredEvent | undefined): Data => (e?.data ?? {}) as Data;

/** A logged roll as the check reads it (an event that is no roll is broken data). */
function rollOf(e: StoredEvent): RollRecord {
  const d = dataOf(e);
  const { purpose, sides, value, source, draw, stream, nth } = d;
  if (typeof purpose !== 'string' || typeof sides !== 'number' || typeof value !== 'number' || (source !== 'seeded' && source !== 'scripted' && source !== 'manual')) {
    throw new Error(`broken dice log: event ${e.id} is not a roll`);
  }
  return {
    purpose, sides, value, source, ...(typeof draw === 'number' ? { draw } : {}), ...(stream === 'public' || stream === 'secret' ? { stream } : {}),
    ...(typeof nth === 'number' ? { nth } : {}), ...(e.undone ? { undone: true } : {}),
  };
}

/** The last of some events that an undo did not withdraw (else the last withdrawn one). */
function lastOf(events: readonly StoredEvent[], type: string, has: string): StoredEvent | undefined {
  const all = events.filter((e) => e.type === type && dataOf(e)[has] !== undefined);
  return all.filter((e) => !e.undone).at(-1) ?? all.at(-1);
}

/** The one line a check of a period of one stream (a campaign from before secret dice) comes to. */
function legacyVerdict(period: number, check: PeriodCheck, committed: boolean): string {
  if (!check.ok) {
    const why = check.problem === 'value'
      ? `the die for "${check.purpose}" is logged as ${check.logged}, but the seed gives ${check.expected} (draw ${check.draw})`
      : check.problem === 'skipped'
        ? `the die for "${check.purpose}" is logged as draw ${check.loggedDraw}, but the seed's next draw is ${check.expectedDraw}: a die is missing from the log`
        : `the log accounts for ${check.logged} draws, but the period drew ${check.revealed}: dice were drawn that the log does not show`;
    return `❌ Dice period ${period} does NOT check out: ${why}.`;
  }
  const apart = [check.manual > 0 ? `${check.manual} entered by hand` : '', check.scripted > 0 ? `${check.scripted} scripted` : ''].filter(Boolean).join(' and ');
  const commitment = committed ? 'its seed matches the SHA-256 published before it began' : 'its seed was not committed in advance (the campaign predates committed dice), but';
  return `✅ Dice period ${period} checks out: ${commitment}, and reproduces all ${check.checked} seeded dice, in order, purpose by purpose${apart ? ` (${apart} not drawn from it)` : ''}.`;
}

/** What one stream's check says, in a sentence part. */
function streamWords(stream: DiceStream, check: StreamCheck): string {
  if (!check.ok) {
    return check.problem === 'value'
      ? `the ${stream} die "${check.label}" is logged as ${check.logged}, but its seed gives ${check.expected}`
      : check.problem === 'skipped'
        ? `the ${stream} die "${check.label}" comes where "${check.expectedLabel}" should: a die is missing from the log`
        : `the log holds ${check.logged} ${stream} dice, but the period rolled ${check.revealed}: dice were rolled that the log does not show`;
  }
  const apart = [check.manual > 0 ? `${check.manual} entered by hand` : '', check.scripted > 0 ? `${check.scripted} scripted` : ''].filter(Boolean).join(' and ');
  const undone = check.undone > 0 ? `; ${check.undone} withdrawn by an undo ${check.undone === 1 ? 'checks' : 'check'} out too` : '';
  const weather = stream === 'public' ? ' (the weather)' : '';
  const what = check.checked === 1 ? `the 1 ${stream} die${weather} reproduces` : check.checked === 0 ? `it rolled no ${stream} dice` : `all ${check.checked} ${stream} dice${weather} reproduce`;
  return `${what}${check.checked > 0 ? ', purpose by purpose' : ''}${apart ? ` (${apart} not drawn from it)` : ''}${undone}`;
}

interface Stream {
  readonly seed: string;
  readonly rolled: number;
  /** The SHA-256 published before the period began (absent: none was). */
  readonly promised: string | undefined;
  /** Published only as the period began (a campaign that got its secret dice then). */
  readonly late?: boolean;
}

/** The public seed of a period and how many public dice it rolled: from its reveal, or (the referee, a period in play) from the state. */
function publicStream(tx: CampaignTx, period: number, events: readonly StoredEvent[]): Stream {
  const promised = dataOf(lastOf(events, 'diceSeedCommitted', 'commitment'))['commitment'];
  const p = typeof promised === 'string' ? promised : undefined;
  if (period === tx.state.rng.period) return { seed: tx.state.rng.seed, rolled: tx.state.rng.draws, promised: p };
  const reveal = dataOf(lastOf(events, 'diceSeedRevealed', 'seed'));
  const { seed, draws } = reveal;
  if (typeof seed !== 'string' || typeof draws !== 'number') throw new UserError('dice.noReveal', `The log holds no revealed seed for dice period ${period}.`);
  return { seed, rolled: draws, promised: p };
}

/** The secret seed of a period, from the campaign's master (the referee; anyone once the campaign has ended). */
function secretStream(tx: CampaignTx, period: number, events: readonly StoredEvent[]): Stream | undefined {
  const secret = tx.state.rng.secret;
  if (!secret) return undefined;
  const commit = dataOf(lastOf(events, 'diceSeedCommitted', 'secretCommitment'));
  const promised = commit['secretCommitment'];
  const rolled = period === tx.state.rng.period ? secret.draws : secret.rolled?.[period] ?? 0;
  return { seed: secretSeedOf(secret.master, period), rolled, promised: typeof promised === 'string' ? promised : undefined, ...(commit['late'] === true ? { late: true } : {}) };
}

/** One stream checked: its seed against the commitment, then its dice. */
function checked(stream: DiceStream, s: Stream, rolls: readonly RollRecord[]): { ok: boolean; words: string } {
  if (s.promised !== undefined && s.promised !== commitmentOf(s.seed)) return { ok: false, words: `the ${stream} seed's SHA-256 is not the one published before the period began` };
  const check = checkStream(s.seed, stream, s.rolled, rolls);
  const commitment = s.promised === undefined ? `the ${stream} seed was not committed in advance (the campaign predates it)`
    : s.late ? `the ${stream} seed matches the SHA-256 published as the period began (not before: the campaign predates secret dice)` : `the ${stream} seed matches the SHA-256 published before the period began`;
  return { ok: check.ok, words: check.ok ? `${commitment}, and ${streamWords(stream, check)}` : streamWords(stream, check) };
}

/**
 * `/dice verify tick:` A period of two streams: anyone checks its public dice (the weather) once
 * it is over, against the public seed revealed then; its secret dice (everything else) are checked
 * by the referee at any time (the period in play too, privately) and by anyone once the campaign
 * has ended (its secret master is then revealed). The answer says which dice it checked and when
 * the rest can be. A period of one stream (a campaign from before secret dice) is checked whole
 * as before. Without `tick:`, the last period revealed. After `/campaign end` it still reads the
 * campaign in its channel (until a new one is created there), as docs/dice.md promises.
 * @see docs/dice.md
 */
export function verifyDice(app: App, actor: Actor, tick: number | undefined): Reply[] {
  return readCampaign(app, { actor, orEnded: true }, (tx) => {
    const { period, twoStreams } = periodToCheck(tx, tick);
    const events = tx.read.diceEvents(period);
    const rolls = events.filter((e) => e.type === 'diceRolled').map(rollOf);
    return twoStreams ? verifyStreams(tx, period, events, rolls) : verifyWhole(period, events, rolls);
  });
}

/** Step 1: the period asked for (the last revealed by default), refused while nobody may check it yet. */
function periodToCheck(tx: CampaignTx, tick: number | undefined): { period: number; twoStreams: boolean } {
  const current = tx.state.rng.period;
  const period = tick ?? current - 1;
  if (period < 0) throw new UserError('dice.nothingRevealed', 'No dice period has ended yet: the first public seed is revealed with the first tick\'s chronicle.');
  const twoStreams = hasSecretStream(tx.state.rng, period);
  const inPlayForReferee = tx.isReferee && period === current && twoStreams;
  if (period >= current && !inPlayForReferee) {
    throw new UserError('dice.notRevealed', `Dice period ${period} ${period === current ? 'is in play now' : 'has not begun'}: its public seed is revealed when it ends (with the next tick's chronicle). ${current > 0 ? `The last one revealed is ${current - 1}.` : 'No dice period has ended yet: the first is revealed with the first tick\'s chronicle.'}`);
  }
  return { period, twoStreams };
}

/** Step 2, a period of one stream (a campaign from before secret dice): its revealed seed against its commitment, then every roll. */
function verifyWhole(period: number, events: readonly StoredEvent[], rolls: readonly RollRecord[]): Reply[] {
  const { seed, draws } = dataOf(lastOf(events, 'diceSeedRevealed', 'seed'));
  if (typeof seed !== 'string' || typeof draws !== 'number') throw new UserError('dice.noReveal', `The log holds no revealed seed for dice period ${period}.`);
  const promised = dataOf(lastOf(events, 'diceSeedCommitted', 'commitment'))['commitment'];
  if (typeof promised === 'string' && promised !== commitmentOf(seed)) {
    return [reply(`❌ Dice period ${period} does NOT check out: the revealed seed's SHA-256 is not the one published before the period began.`, { period, ok: false, problem: 'commitment' })];
  }
  const check = checkPeriod(seed, draws, rolls);
  return [reply(legacyVerdict(period, check, typeof promised === 'string'), { period, seed, committed: typeof promised === 'string', ...check })];
}

/**
 * Step 2, a period of two streams: the public one always, the secret one for the referee or once
 * the campaign has ended. The referee's answer about the secret dice (how many, whether they
 * check out) is theirs alone until the campaign ends.
 */
function verifyStreams(tx: CampaignTx, period: number, events: readonly StoredEvent[], rolls: readonly RollRecord[]): Reply[] {
  const ended = tx.state.status === 'ended';
  const pub = checked('public', publicStream(tx, period, events), rolls);
  const secretOf = tx.isReferee || ended ? secretStream(tx, period, events) : undefined;
  const sec = secretOf ? checked('secret', secretOf, rolls) : undefined;
  const ok = pub.ok && (sec?.ok ?? true);
  const head = ok ? `✅ Dice period ${period}${period === tx.state.rng.period ? ' (in play: its rolls so far)' : ''} checks out: ` : `❌ Dice period ${period} does NOT check out: `;
  const parts = [pub, ...(sec ? [sec] : [])].filter((c) => ok || !c.ok).map((c) => c.words);
  const rest = sec ? '' : ' Its secret dice (contacts, scouts, estimates, battles, marches, couriers) can be checked by anyone when the campaign ends, and by the referee at any time.';
  const text = `${head}${parts.join('; ')}.${rest}`;
  const data = { period, ok, checked: sec ? ['public', 'secret'] : ['public'], ...(sec ? {} : { secretCheckedAt: 'the campaign\'s end' }) };
  return [sec && !ended ? ephemeral(text, data) : reply(text, data)];
}
