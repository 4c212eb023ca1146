import { formatGameTime } from '../../engine/clock/index.js';
import { classifyRoll } from '../../engine/dice/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { armiesOf } from '../members.js';
import { readCampaign } from '../unitOfWork.js';

/** How many rolls one answer lists at most (the newest). */
const SHOWN = 25;
/** How far back in the log it looks for them. */
const SCANNED = 2000;

/**
 * A period's commitment as `/dice log` reads it later. Its logged line was written when it was
 * published, two periods ahead ("Dice: the next tick (period 12) will be rolled from ..."): read
 * once the period has begun, it says what was promised before it began. The late commitment of a
 * campaign older than secret dice says so itself and is read as logged.
 */
function committedLine(e: { text: string; data: unknown }, current: number): string {
  const d = (e.data ?? {}) as { period?: unknown; commitment?: unknown; secretCommitment?: unknown; late?: unknown };
  if (d.late === true || typeof d.period !== 'number' || typeof d.commitment !== 'string' || d.period > current) return e.text;
  const hashes = typeof d.secretCommitment === 'string'
    ? `a public seed whose SHA-256 is \`${d.commitment}\` and a secret seed whose SHA-256 is \`${d.secretCommitment}\``
    : `a seed whose SHA-256 is \`${d.commitment}\``;
  return `Dice: period ${d.period} draws its dice from ${hashes} (published before it began).`;
}

/**
 * `/dice log`: the dice that concerned the caller's own armies, newest last (a commander never
 * sees another army's rolls, nor the referee's estimate dice, which would tell how far off an
 * estimate is); the referee sees every roll, or one army's with `army:`. With `tick:`, one dice
 * period. Each line says where the value came from: seeded, entered by hand (by whom), scripted.
 * After `/campaign end`, the ended campaign of the channel (until a new one is created there).
 * @see docs/dice.md
 */
export function diceLog(app: App, actor: Actor, input: { tick?: number | undefined; army?: string | undefined }): Reply[] {
  return readCampaign(app, { actor, orEnded: true }, (tx) => {
    const mine = armiesOf(tx, actor.userId);
    const only = input.army !== undefined ? requireArmy(tx.state, input.army).id : undefined;
    if (!tx.isReferee && only !== undefined && !mine.includes(only)) throw new UserError('army.notYours', 'Only your own army\'s dice: leave out `army:`, or name one of yours.');
    if (!tx.isReferee && mine.length === 0 && input.tick === undefined) throw new UserError('dice.noArmy', 'You command no army here, so no dice of yours are logged. `/dice log tick:N` shows a period\'s seeds and weather dice; `/dice verify` checks a whole period\'s dice.');
    const armies = Object.values(tx.state.armies);
    const period = input.tick !== undefined ? tx.read.diceEvents(input.tick) : [];
    const events = input.tick !== undefined ? period.filter((e) => e.type === 'diceRolled') : tx.read.lastOfType('diceRolled', SCANNED);
    const shown = events.filter((e) => {
      const purpose = (e.data as { purpose?: unknown } | null)?.purpose;
      if (typeof purpose !== 'string') return false;
      const subject = classifyRoll(purpose, armies);
      if (only !== undefined) return subject.seenBy === only;
      // The weather's dice are the table's: everyone is told the weather they made.
      return tx.isReferee || subject.kind === 'weather' || (subject.seenBy !== undefined && mine.includes(subject.seenBy));
    }).slice(-SHOWN);
    // A period's seed lines (its commitment, published before it began, and its reveal): the
    // chronicle folds them into its footer, so they are read here. @see docs/dice.md
    const seeds = period.filter((e) => e.type === 'diceSeedCommitted' || e.type === 'diceSeedRevealed').map((e) => (e.type === 'diceSeedCommitted' ? committedLine(e, tx.state.rng.period) : e.text));
    const lines = shown.map((e) => {
      const p = (e.data as { period?: number }).period;
      return `${formatGameTime(e.time)} · period ${p ?? '?'} · ${e.text}${e.undone ? ' (undone)' : ''}`;
    });
    const whose = only !== undefined ? tx.state.armies[only]?.name ?? only : tx.isReferee ? 'the campaign' : mine.length > 0 ? `${mine.map((id) => tx.state.armies[id]?.name ?? id).join(', ')} and the weather` : 'the weather';
    const head = `Dice of ${whose}${input.tick !== undefined ? `, period ${input.tick}` : ''}: ${lines.length === 0 ? 'none logged.' : `the last ${lines.length}, oldest first.`}`;
    return [ephemeral([...seeds, head, ...lines].join('\n'), { rolls: shown.map((e) => e.data) })];
  });
}
