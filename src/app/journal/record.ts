import type { JournalDie, LoggedRoll } from '../../engine/dice/index.js';
import { timeIndex } from '../../engine/clock/index.js';
import { diffJson } from '../../engine/replay/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { STATE_VERSION } from '../../engine/campaign/index.js';
import type { Database } from '../../db/client.js';
import { appendJournal, lastJournalSeq, type JournalRow } from '../../db/journalRepo.js';
import { currentInvocation } from './invocation.js';

/** Why the journal starts (again) from a whole state. */
export type CheckpointWhy = 'created' | 'beforeJournal' | 'upgraded';

/** A die as the journal keeps it. */
function journalDie(r: LoggedRoll): JournalDie {
  return { purpose: r.purpose, sides: r.sides, value: r.value, source: r.source, ...(r.draw !== undefined ? { draw: r.draw } : {}) };
}

function checkpoint(campaignId: string, seq: number, state: CampaignState, at: string, why: CheckpointWhy): JournalRow {
  return {
    campaignId, seq, kind: 'checkpoint', invocation: 0, at, timeIndex: timeIndex(state.clock), input: { why }, dice: null,
    change: JSON.parse(JSON.stringify(state)) as unknown, stateVersion: STATE_VERSION,
  };
}

/** A new campaign's journal: its state as created (insertNewCampaign's transaction). */
export function journalCreated(db: Database, state: CampaignState, at: string): void {
  appendJournal(db, [checkpoint(state.id, 0, state, at, 'created')]);
}

/**
 * The journal's part of a use-case's transaction (inCampaign): an entry with what replays it (the
 * invocation, the clock, the dice drawn) and the change to the state, when the transaction changed
 * the campaign. A campaign from before the journal (or whose stored shape was just upgraded)
 * first gets a checkpoint of the state it was loaded as: its replay starts there.
 */
export function journalChange(db: Database, input: {
  before: CampaignState; after: CampaignState; storedVersion: number; at: string; rolls: readonly LoggedRoll[]; other: boolean;
}): void {
  const { before, after } = input;
  const invocation = currentInvocation();
  // A transaction that changed nothing a replay needs (a read, a reminder's bookkeeping) is not an entry.
  if (before === after && !(invocation && input.other)) return;
  const id = before.id;
  const rows: JournalRow[] = [];
  let seq = lastJournalSeq(db, id);
  if (seq < 0 || input.storedVersion !== STATE_VERSION) {
    const why: CheckpointWhy = seq < 0 ? 'beforeJournal' : 'upgraded';
    seq += 1;
    rows.push(checkpoint(id, seq, before, input.at, why));
  }
  rows.push({
    campaignId: id, seq: seq + 1, kind: 'entry', invocation: invocation?.id ?? 0, at: input.at, timeIndex: timeIndex(before.clock),
    input: invocation?.input ?? null, dice: input.rolls.map(journalDie), change: diffJson(before, after), stateVersion: STATE_VERSION,
  });
  appendJournal(db, rows);
}
