import type { Database } from '../db/client.js';
import { closedContactIds, closedContacts, closedContactBytes, closedContactsJson } from '../db/campaignRepo.js';
import { closedEstimates } from '../db/contactEstimateRepo.js';
import { allEventsJson, chronicleEvents, diceEventsOf, eventCountBetween, eventCountUpTo, eventIdAfter, eventIdAt, eventsFor, eventsJsonAfter, eventsJsonAt, lastEventsOfType } from '../db/eventRepo.js';
import { journalTextAt, journalTextBetween, journalTextOf, lastJournalSeq } from '../db/journalRepo.js';
import { listNotices } from '../db/noticeRepo.js';
import { claimedMessage, keptMessages, undeliveredMessages } from '../db/outboxRepo.js';
import { finalEventsUpTo, lastUndoableTick, playedTickAt, playedTicks, tickIndex, tickPlayed, tickSpan, undoableTicks } from '../db/tickRepo.js';
import type { CampaignReads } from './campaignTx.js';

/** More rows than any campaign has (a PostgreSQL integer's largest value). */
const ALL = 2_147_483_647;

/** The read-only queries a use-case may make of its campaign (`tx.read`), inside its transaction. */
export function campaignReads(db: Database, campaignId: string): CampaignReads {
  // Read once a transaction: a use-case's notices change only with its own change, written after it decides.
  let notices: ReturnType<typeof listNotices> | undefined;
  return {
    events: (audiences, opts = {}) => eventsFor(db, campaignId, audiences, opts),
    allEventsJson: () => allEventsJson(db, campaignId),
    tickPlayed: (timeIndex) => tickPlayed(db, campaignId, timeIndex),
    lastUndoableTick: () => lastUndoableTick(db, campaignId),
    undoableTicks: () => undoableTicks(db, campaignId),
    keptMessages: (userId) => keptMessages(db, campaignId, userId),
    closedContacts: (armyId) => closedContacts(db, campaignId, armyId),
    closedContactsJson: () => closedContactsJson(db, campaignId),
    closedContactBytes: () => closedContactBytes(db, campaignId),
    closedContactIds: (armyId) => closedContactIds(db, campaignId, armyId),
    closedEstimates: (armyId) => closedEstimates(db, campaignId, armyId),
    claimedMessage: (id, owner) => claimedMessage(db, id, owner),
    undelivered: () => undeliveredMessages(db, campaignId),
    diceEvents: (period) => diceEventsOf(db, campaignId, period),
    lastOfType: (type, limit) => lastEventsOfType(db, campaignId, type, limit),
    playedTicks: () => playedTicks(db, campaignId),
    tickIndex: () => tickIndex(db, campaignId),
    tickSpan: () => tickSpan(db, campaignId),
    playedTickAt: (timeIndex) => playedTickAt(db, campaignId, timeIndex),
    chronicle: (audiences, without, window) => chronicleEvents(db, campaignId, audiences, without, window),
    notices: () => [...(notices ??= listNotices(db, campaignId))],
    journal: () => journalTextOf(db, campaignId),
    journalBetween: (from, to) => journalTextBetween(db, campaignId, from, to),
    journalLength: () => lastJournalSeq(db, campaignId) + 1,
    journalAt: (seqs) => journalTextAt(db, campaignId, seqs),
    eventsAt: (ids) => eventsJsonAt(db, campaignId, ids),
    eventCountBetween: (afterId, upToId) => eventCountBetween(db, campaignId, afterId, upToId ?? ALL),
    eventIdAfter: (afterId, offset) => eventIdAfter(db, campaignId, afterId, offset),
    eventsAfter: (afterId, limit) => eventsJsonAfter(db, campaignId, afterId, limit),
    eventCount: (upToId) => eventCountUpTo(db, campaignId, upToId ?? ALL),
    eventIdAt: (index) => eventIdAt(db, campaignId, index),
    finalEventsUpTo: () => finalEventsUpTo(db, campaignId),
  };
}
