import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { type EngineEvent, PUBLIC, toArmy } from '../../engine/events/index.js';
import { hexEquals } from '../../engine/hex/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { startDicePeriod } from '../dice/seeds.js';
import { UserError } from '../errors.js';
import { reply, type Reply } from '../messages.js';
import { reminderTime } from '../schedule.js';
import { inCampaign, requireReferee, snapshotState } from '../session.js';
import { routeEvents } from '../deliveries/routeEvents.js';

/**
 * Referee: undoes the last played half period. The state goes back to the snapshot taken before
 * it; its events stay in the log marked undone; each commander whose army it moved is told where
 * their army is again (nothing new is revealed: only their own army's restored position). Works
 * within the undo window (setting `undo-depth`, the last 10 half periods by default), one half
 * period at a time.
 */
export function undoTurn(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'undo a turn');
    const last = tx.read.lastUndoableTick();
    if (!last) {
      const why = tx.read.tickPlayed(timeIndex(tx.state.clock) - 1)
        ? `Only the last ${tx.state.settings.undoDepth} half periods can be undone (setting \`undo-depth\`), and they have been.`
        : 'No half period has been played yet, so there is nothing to undo.';
      throw new UserError('turn.nothingToUndo', why);
    }
    const before = snapshotState(last);
    const restored = { ...before, status: tx.state.status, settings: tx.state.settings };
    const when = formatGameTime(fromIndex(last.timeIndex));
    const moved = Object.values(restored.armies).filter((a) => {
      const now = tx.state.armies[a.id];
      return !now || !hexEquals(now.hex, a.hex) || now.bank !== a.bank;
    });
    const left = tx.read.undoableTicks() - 1;
    // The undone half period's dice period closes (its seed is revealed: its dice can be checked).
    const diceLines = startDicePeriod(tx.dice, tx.fixedSeed, 'the next tick');
    const events: EngineEvent[] = [
      { type: 'turnUndone', audience: PUBLIC, text: `The referee undid ${when}. Its results are withdrawn; orders stand as they were before it. It will be played again.`, data: { timeIndex: last.timeIndex } },
      ...moved.map((a) => ({ type: 'positionRestored', audience: toArmy(a.id), text: `Correction: the results of ${when} were withdrawn. ${a.name} is back at ${tx.map.format(a.hex)}.` })),
      ...diceLines,
    ];
    return {
      state: restored,
      events,
      outbox: routeEvents({ ...tx, state: restored }, events),
      undo: { timeIndex: last.timeIndex, lastEventId: last.lastEventId },
      // The half period is played again: nobody is ready for it yet, and an early tick goes back to its time.
      control: { ready: [], ...(tx.meta.earlyFrom !== null ? { nextTickAt: tx.meta.earlyFrom, earlyFrom: null, remindAt: reminderTime(tx.meta.earlyFrom, tx.state.settings), reminderSentFor: null } : {}) },
      result: [reply(`Undid ${when}. The clock is back at ${formatGameTime(restored.clock)}. ${left > 0 ? `${left} more half period(s) can be undone.` : 'That was the last one that can be undone.'}`, { clock: restored.clock, undoableLeft: left })],
    };
  });
}
