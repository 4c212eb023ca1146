import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { type EngineEvent, PUBLIC, toArmy } from '../../engine/events/index.js';
import { hexEquals } from '../../engine/hex/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { hasSecretStream, startDicePeriod } from '../dice/seeds.js';
import { UserError } from '../errors.js';
import { reply, type Reply } from '../messages.js';
import type { CampaignState } from '../../engine/state/index.js';
import { reminderTime } from '../schedule.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import { snapshotState } from '../undoSnapshots.js';
import type { CampaignTx } from '../campaignTx.js';
import { routeEvents } from '../deliveries/routeEvents.js';
import { reminderSettings } from '../notices.js';

/**
 * The dice after an undo. Kept (the default): the dice state goes back with the rest, so the half
 * period played again starts the same dice period with the same committed seeds, and every roll
 * it makes again (the same purpose, the same time in the period) gives the same die. Re-rolled
 * (`reroll`, or a period of a campaign from before secret dice, whose dice were drawn in order):
 * the undone period closes (its public seed is revealed), the undo opens the next period and the
 * replay the one after: both committed before.
 */
function diceAfterUndo(tx: CampaignTx, before: CampaignState, reroll: boolean): { rng: CampaignState['rng']; lines: EngineEvent[]; kept: boolean } {
  const now = tx.state.rng;
  if (reroll || !hasSecretStream(now, now.period)) {
    return { rng: now, lines: startDicePeriod(tx.dice, tx.fixedSeed, 'the next tick'), kept: false };
  }
  // A campaign that got its secret master with the undone tick keeps it (the replay makes the same secret dice).
  const secret = before.rng.secret ?? (now.secret ? { master: now.secret.master, since: now.secret.since, draws: 0 } : undefined);
  return { rng: { ...before.rng, ...(secret ? { secret } : {}) }, lines: [], kept: true };
}

/**
 * Referee: undoes the last played half period. The state goes back to the snapshot taken before
 * it; its events stay in the log marked undone; each commander whose army it moved is told where
 * their army is again (nothing new is revealed: only their own army's restored position). Works
 * within the undo window (setting `undo-depth`, the last 10 half periods by default), one half
 * period at a time. Its dice are kept unless `reroll` (see diceAfterUndo); either way the
 * announcement says which.
 */
export function undoTurn(app: App, actor: Actor, reroll = false): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'undo a turn');
    const last = tx.read.lastUndoableTick();
    if (!last) {
      const why = tx.read.tickPlayed(timeIndex(tx.state.clock) - 1)
        ? `Only the last ${tx.state.settings.undoDepth} half periods can be undone (setting \`undo-depth\`), and they have been.`
        : 'No half period has been played yet, so there is nothing to undo.';
      throw new UserError('turn.nothingToUndo', why);
    }
    const before = snapshotState(last, tx.scenario);
    const dice = diceAfterUndo(tx, before, reroll);
    const restored = { ...before, status: tx.state.status, settings: tx.state.settings, rng: dice.rng };
    const when = formatGameTime(fromIndex(last.timeIndex));
    const moved = Object.values(restored.armies).filter((a) => {
      const now = tx.state.armies[a.id];
      return !now || !hexEquals(now.hex, a.hex) || now.bank !== a.bank;
    });
    const left = tx.read.undoableTicks() - 1;
    const diceSay = dice.kept
      ? 'Its dice are kept: it will be played again from the same committed seeds, so every roll it makes again gives the same die (the same weather, the same contact dice).'
      : reroll ? 'The referee chose to re-roll its dice: it will be played again from new dice periods, whose seeds were committed before, so its dice will differ.'
        : 'Its dice will differ when it is played again: this campaign\'s dice of that period predate kept dice, so it is played again from new dice periods, whose seeds were committed before.';
    const events: EngineEvent[] = [
      { type: 'turnUndone', audience: PUBLIC, text: `The referee undid ${when}. Its results are withdrawn; orders stand as they were before it. It will be played again. ${diceSay}`, data: { timeIndex: last.timeIndex, dice: dice.kept ? 'kept' : 'rerolled', ...(reroll ? { reroll: true } : {}) } },
      ...moved.map((a) => ({ type: 'positionRestored', audience: toArmy(a.id), text: `Correction: the results of ${when} were withdrawn. ${a.name} is back at ${tx.map.format(a.hex)}.` })),
      ...dice.lines,
    ];
    return {
      state: restored,
      events,
      outbox: routeEvents({ ...tx, state: restored }, events),
      undo: { timeIndex: last.timeIndex, lastEventId: last.lastEventId },
      // The half period is played again: nobody is ready for it yet, and an early tick goes back to its time.
      control: { ready: [], reminded: [], ...(tx.meta.earlyFrom !== null ? { nextTickAt: tx.meta.earlyFrom, earlyFrom: null, remindAt: reminderTime(tx.meta.earlyFrom, reminderSettings(tx, tx.state.settings)), reminderSentFor: null } : {}) },
      result: [reply(`Undid ${when}. The clock is back at ${formatGameTime(restored.clock)}. ${dice.kept ? 'Its dice are kept.' : 'Its dice will be re-rolled.'} ${left > 0 ? `${left} more half period(s) can be undone.` : 'That was the last one that can be undone.'}`, { clock: restored.clock, undoableLeft: left, dice: dice.kept ? 'kept' : 'rerolled' })],
    };
  });
}
