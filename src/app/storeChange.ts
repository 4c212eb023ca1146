import type { CampaignState } from '../engine/state/index.js';
import { STATE_VERSION } from '../engine/campaign/index.js';
import type { Database } from '../db/client.js';
import { saveState, setControl } from '../db/campaignRepo.js';
import { appendEvents, lastEventId, markEventsUndone } from '../db/eventRepo.js';
import { assignCommander, unassignArmy } from '../db/memberRepo.js';
import { saveNotice } from '../db/noticeRepo.js';
import { markRead, markUndeliverable } from '../db/outboxRepo.js';
import { deleteTick, recordTick } from '../db/tickRepo.js';
import { withDice } from './campaignDice.js';
import type { CampaignTx, Change } from './campaignTx.js';
import { diceAsks } from './deliveries/diceAsks.js';
import { fogged } from './deliveries/fog.js';
import { orderConfirmations } from './deliveries/orderConfirm.js';
import { rollEvent } from './dice/rollLog.js';
import { journalChange } from './journal/record.js';
import { queueOutgoing } from './queueOutgoing.js';
import { markPresence } from './table/absence.js';
import { shownName } from './members.js';

/** What a write transaction stored of the state: the state after it, and its new revision when it was saved. */
export interface StoredState {
  readonly state: CampaignState;
  readonly revision: number | undefined;
}

/**
 * Writes everything `change` holds, in the unit of work's transaction (src/app/unitOfWork.ts):
 * the state diff, the tick record, the journal, the events (and every die rolled), members,
 * notices, the outbox, control columns and message marks. Nothing here decides; it stores.
 */
export function storeChange(db: Database, tx: CampaignTx, opened: OpenedAt, change: Change<unknown>): StoredState {
  const nowIso = tx.now.toISOString();
  const after = stateAfter(tx, change);
  const revision = saveStateAndTick(db, tx, opened, change, after, nowIso);
  storeLog(db, tx, change, after, nowIso);
  storeMembersAndNotices(db, tx.meta.id, change);
  storeOutbox(db, tx, change, after, nowIso);
  storeMarks(db, tx.meta.id, change, nowIso);
  return { state: after, revision };
}

/** The shape and the revision the transaction found the state at (read under the campaign's hold). */
export interface OpenedAt {
  readonly storedVersion: number;
  readonly revision: number;
}

/** The state the change leaves, with the dice's progress; a commander's command that changed their army's orders or contacts counts as present (absence, src/app/table/absence.ts). */
function stateAfter(tx: CampaignTx, change: Change<unknown>): CampaignState {
  const next = change.state ?? tx.state;
  return withDice(change.tick ? next : markPresence(tx, tx.state, next), tx.dice, tx.state);
}

/** Saves a changed state (a state stored in an older shape is rewritten whole in the current one), records a played half period, and journals the change. */
function saveStateAndTick(db: Database, tx: CampaignTx, opened: OpenedAt, change: Change<unknown>, after: CampaignState, nowIso: string): number | undefined {
  const id = tx.meta.id;
  const { storedVersion } = opened;
  const revision = after !== tx.state || storedVersion !== STATE_VERSION
    ? saveState(db, tx.state, after, nowIso, STATE_VERSION, storedVersion !== STATE_VERSION, opened.revision)
    : undefined;
  if (change.tick) {
    recordTick(db, id, change.tick.timeIndex, change.tick.before, STATE_VERSION, lastEventId(db, id), nowIso, after.settings.undoDepth, change.tick.frame);
  }
  // What replays this transaction (docs/replay.md).
  journalChange(db, { before: tx.state, after, storedVersion, at: nowIso, rolls: tx.dice.rolls, other: Boolean(change.tick ?? change.undo ?? change.control ?? change.members?.length) });
  return revision;
}

/** An undone half period marked in the log; the change's events (fog kept out of the public part) and every die rolled appended. */
function storeLog(db: Database, tx: CampaignTx, change: Change<unknown>, after: CampaignState, nowIso: string): void {
  const id = tx.meta.id;
  if (change.undo) {
    markEventsUndone(db, id, change.undo.lastEventId);
    deleteTick(db, id, change.undo.timeIndex);
  }
  const nameOf = (userId: string): string => shownName(tx, userId, userId === tx.meta.ownerUserId ? 'the referee' : userId);
  const rollEvents = tx.dice.rolls.map((r) => rollEvent(r, nameOf));
  appendEvents(db, id, after.clock, tx.actor?.userId ?? null, [...fogged(after, change.events ?? []), ...rollEvents], nowIso);
}

function storeMembersAndNotices(db: Database, id: string, change: Change<unknown>): void {
  for (const m of change.members ?? []) {
    if (m.kind === 'assign') assignCommander(db, id, m.armyId, m.userId, m.displayName);
    else unassignArmy(db, id, m.armyId);
  }
  for (const n of change.notices ?? []) saveNotice(db, id, n);
}

/**
 * The change's deliveries, plus what the stores themselves owe: manual rolls asked for by this
 * change go to the people who roll them; a commander who asked for it is told by DM that their
 * orders are stored.
 */
function storeOutbox(db: Database, tx: CampaignTx, change: Change<unknown>, after: CampaignState, nowIso: string): void {
  const confirmations = change.tick ? [] : orderConfirmations(tx, tx.state, after, change.result);
  const asks = diceAsks({ ...tx, state: after }, tx.state.manualDice, after.manualDice);
  for (const o of [...(change.outbox ?? []), ...asks, ...confirmations]) queueOutgoing(db, tx.meta, o, nowIso);
}

function storeMarks(db: Database, id: string, change: Change<unknown>, nowIso: string): void {
  if (change.control) setControl(db, id, change.control);
  if (change.readMessages) markRead(db, change.readMessages, nowIso);
  const u = change.undeliverable;
  if (u) markUndeliverable(db, u.id, u.owner, u.status, u.attempts, u.reason);
}
