import { checkPeriod, type PeriodCheck, type RollRecord } from '../../engine/dice/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import type { StoredEvent } from '../../db/eventRepo.js';
import { UserError } from '../errors.js';
import { reply, type Reply } from '../messages.js';
import { readCampaign } from '../session.js';
import { commitmentOf } from './seeds.js';

const dataOf = (e: StoredEvent | undefined): Readonly<Record<string, unknown>> => (e?.data ?? {}) as Readonly<Record<string, unknown>>;

/** A logged roll as the check reads it (an event that is no roll is broken data). */
function rollOf(e: StoredEvent): RollRecord {
  const d = dataOf(e);
  const { purpose, sides, value, source, draw } = d;
  if (typeof purpose !== 'string' || typeof sides !== 'number' || typeof value !== 'number' || (source !== 'seeded' && source !== 'scripted' && source !== 'manual')) {
    throw new Error(`broken dice log: event ${e.id} is not a roll`);
  }
  return { purpose, sides, value, source, ...(typeof draw === 'number' ? { draw } : {}) };
}

/** The one line a check comes to. */
function verdict(period: number, check: PeriodCheck, committed: boolean): string {
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

/**
 * `/dice verify tick:` (anyone): recomputes every die of a dice period from its revealed seed and
 * compares it with the log, purpose by purpose; checks the seed against the commitment published
 * before the period began. Without `tick:`, the last period revealed. One line.
 * @see docs/dice.md
 */
export function verifyDice(app: App, actor: Actor, tick: number | undefined): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    const current = tx.state.rng.period;
    const period = tick ?? current - 1;
    if (period < 0) throw new UserError('dice.nothingRevealed', 'No dice period has ended yet: the first seed is revealed with the first tick\'s chronicle.');
    if (period >= current) throw new UserError('dice.notRevealed', `Dice period ${period} ${period === current ? 'is in play now' : 'has not begun'}: its seed is revealed when it ends (with the next tick's chronicle). The last one revealed is ${current - 1}.`);
    const events = tx.read.diceEvents(period);
    const reveal = events.find((e) => e.type === 'diceSeedRevealed');
    const seed = dataOf(reveal)['seed'];
    const draws = dataOf(reveal)['draws'];
    if (typeof seed !== 'string' || typeof draws !== 'number') throw new UserError('dice.noReveal', `The log holds no revealed seed for dice period ${period}.`);
    const promised = dataOf(events.find((e) => e.type === 'diceSeedCommitted'))['commitment'];
    if (typeof promised === 'string' && promised !== commitmentOf(seed)) {
      return [reply(`❌ Dice period ${period} does NOT check out: the revealed seed's SHA-256 is not the one published before the period began.`, { period, ok: false, problem: 'commitment' })];
    }
    const check = checkPeriod(seed, draws, events.filter((e) => e.type === 'diceRolled').map(rollOf));
    return [reply(verdict(period, check, typeof promised === 'string'), { period, seed, committed: typeof promised === 'string', ...check })];
  });
}
