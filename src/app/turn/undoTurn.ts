import { formatGameTime, fromIndex } from '../../engine/clock/gameTime.js';
import { PUBLIC, toArmy, type EngineEvent } from '../../engine/events/events.js';
import { deleteTick, lastTick, markEventsUndone } from '../../db/tickRepo.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { reply, type Message } from '../messages.js';
import { inCampaign, requireReferee, routeEvents } from '../session.js';

/**
 * Referee: undoes the last played half period. The state goes back to the snapshot taken before
 * it; its events stay in the log marked undone; each commander is told where their army is again
 * (nothing new is revealed: only their own army's restored position).
 */
export function undoTurn(app: App, actor: Actor): Message[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'undo a turn');
    const last = lastTick(tx.db, tx.meta.id);
    if (!last) throw new UserError('turn.nothingToUndo', 'No half period has been played yet, so there is nothing to undo.');
    const restored = { ...last.snapshot, status: tx.state.status, settings: tx.state.settings };
    markEventsUndone(tx.db, tx.meta.id, last.lastEventId);
    deleteTick(tx.db, tx.meta.id, last.timeIndex);
    const when = formatGameTime(fromIndex(last.timeIndex));
    const events: EngineEvent[] = [
      { type: 'turnUndone', audience: PUBLIC, text: `The referee undid ${when}. Its results are withdrawn; orders stand as they were before it. It will be played again.`, data: { timeIndex: last.timeIndex } },
      ...Object.values(restored.armies).map((a) => ({ type: 'positionRestored', audience: toArmy(a.id), text: `Correction: the results of ${when} were withdrawn. ${a.name} is back at ${tx.map.format(a.hex)}.` })),
    ];
    return { state: restored, events, outbox: routeEvents({ ...tx, state: restored }, events), result: [reply(`Undid ${when}. The clock is back at ${formatGameTime(restored.clock)}.`, { clock: restored.clock })] };
  });
}
