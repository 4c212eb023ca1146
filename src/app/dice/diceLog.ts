import { formatGameTime } from '../../engine/clock/index.js';
import { classifyRoll } from '../../engine/dice/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { armiesOf, readCampaign } from '../session.js';

/** How many rolls one answer lists at most (the newest). */
const SHOWN = 25;
/** How far back in the log it looks for them. */
const SCANNED = 2000;

/**
 * `/dice log`: the dice that concerned the caller's own armies, newest last (a commander never
 * sees another army's rolls, nor the referee's estimate dice, which would tell how far off an
 * estimate is); the referee sees every roll, or one army's with `army:`. With `tick:`, one dice
 * period. Each line says where the value came from: seeded, entered by hand (by whom), scripted.
 * @see docs/dice.md
 */
export function diceLog(app: App, actor: Actor, input: { tick?: number | undefined; army?: string | undefined }): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    const mine = armiesOf(tx, actor.userId);
    const only = input.army !== undefined ? requireArmy(tx.state, input.army).id : undefined;
    if (!tx.isReferee && only !== undefined && !mine.includes(only)) throw new UserError('army.notYours', 'Only your own army\'s dice: leave out `army:`, or name one of yours.');
    if (!tx.isReferee && mine.length === 0) throw new UserError('dice.noArmy', 'You command no army here, so no dice of yours are logged. `/dice verify` checks a whole period\'s dice.');
    const armies = Object.values(tx.state.armies);
    const events = input.tick !== undefined ? tx.read.diceEvents(input.tick).filter((e) => e.type === 'diceRolled') : tx.read.lastOfType('diceRolled', SCANNED);
    const shown = events.filter((e) => {
      const purpose = (e.data as { purpose?: unknown } | null)?.purpose;
      if (typeof purpose !== 'string') return false;
      const seenBy = classifyRoll(purpose, armies).seenBy;
      if (only !== undefined) return seenBy === only;
      return tx.isReferee || (seenBy !== undefined && mine.includes(seenBy));
    }).slice(-SHOWN);
    const lines = shown.map((e) => {
      const p = (e.data as { period?: number }).period;
      return `${formatGameTime(e.time)} · period ${p ?? '?'} · ${e.text}${e.undone ? ' (undone)' : ''}`;
    });
    const whose = only !== undefined ? tx.state.armies[only]?.name ?? only : tx.isReferee ? 'the campaign' : mine.map((id) => tx.state.armies[id]?.name ?? id).join(', ');
    const head = `Dice of ${whose}${input.tick !== undefined ? `, period ${input.tick}` : ''}: ${lines.length === 0 ? 'none logged.' : `the last ${lines.length}, oldest first.`}`;
    return [ephemeral([head, ...lines].join('\n'), { rolls: shown.map((e) => e.data) })];
  });
}
