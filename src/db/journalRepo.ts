import { and, asc, eq, gte, lte, max, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { bound, perConnection, readSoon, runUnanswered } from './prepared.js';
import type { journal } from './schema.js';

/** One row of a campaign's journal, as stored (docs/replay.md). */
export type JournalRow = typeof journal.$inferSelect;

const p = sql.placeholder;

// Every write transaction reads and appends here (src/app/journal/record.ts): both prepared once per
// connection. The last number is `max(seq)` on the primary key's index (one lookup).
const lastSeq = perConnection((q, { journal: j }) => q.select({ seq: max(j.seq) }).from(j).where(eq(j.campaignId, p('campaignId'))).prepare());
const insertRow = perConnection((q, { journal: j }) => q.insert(j).values({
  campaignId: p('campaignId'), seq: p('seq'), kind: p('kind'), invocation: p('invocation'), at: p('at'), timeIndex: p('timeIndex'),
  input: bound(j.input, 'input'), dice: bound(j.dice, 'dice'), change: bound(j.change, 'change'), stateVersion: p('stateVersion'),
}).prepare());

/** The number of the campaign's last journal row; -1 when it has none (a campaign from before the journal). */
export function lastJournalSeq(db: Database, campaignId: string): number {
  return lastSeq(db).get({ campaignId })?.seq ?? -1;
}

/** `lastJournalSeq` will be read soon, in this write transaction (prepared.ts `readSoon`). */
export function lastJournalSeqSoon(db: Database, campaignId: string): void {
  readSoon(lastSeq(db), { campaignId });
}

/** Appends rows to the journal (inside the transaction they record). */
export function appendJournal(db: Database, rows: readonly JournalRow[]): void {
  const insert = insertRow(db);
  for (const row of rows) {
    const values: Required<typeof journal.$inferInsert> = row;
    runUnanswered(insert, values);
  }
}

/** A journal row without its campaign, its JSON columns as the stored text (JSON.stringify's). */
export interface JournalText extends Omit<JournalRow, 'campaignId' | 'input' | 'dice' | 'change'> {
  readonly input: string | null;
  readonly dice: string | null;
  readonly change: string;
}

// The JSON columns read as text (a `sql` field has no JSON decoder): a long campaign's journal is tens of megabytes, never parsed to be written out again.
const journalText = perConnection((q, { journal }) => q.select({
  seq: journal.seq, kind: journal.kind, invocation: journal.invocation, at: journal.at, timeIndex: journal.timeIndex,
  input: sql<string | null>`${journal.input}`, dice: sql<string | null>`${journal.dice}`, change: sql<string>`${journal.change}`, stateVersion: journal.stateVersion,
}).from(journal).where(eq(journal.campaignId, sql.placeholder('campaignId'))).orderBy(asc(journal.seq)).prepare());

/** The whole journal of a campaign, in order. */
export function journalOf(db: Database, campaignId: string): JournalRow[] {
  return journalRows(db).all({ campaignId });
}

const journalRows = perConnection((q, { journal }) => q.select().from(journal).where(eq(journal.campaignId, p('campaignId'))).orderBy(asc(journal.seq)).prepare());

/** The whole journal of a campaign, in order, as stored text (the export). */
export function journalTextOf(db: Database, campaignId: string): JournalText[] {
  return journalText(db).all({ campaignId });
}

const journalTextRange = perConnection((q, { journal }) => q.select({
  seq: journal.seq, kind: journal.kind, invocation: journal.invocation, at: journal.at, timeIndex: journal.timeIndex,
  input: sql<string | null>`${journal.input}`, dice: sql<string | null>`${journal.dice}`, change: sql<string>`${journal.change}`, stateVersion: journal.stateVersion,
}).from(journal).where(and(eq(journal.campaignId, p('campaignId')), gte(journal.seq, p('from')), lte(journal.seq, p('to')))).orderBy(asc(journal.seq)).prepare());

/** The campaign's journal rows `from` to `to` (inclusive), in order, as stored text: the export reads the journal by parts. */
export function journalTextBetween(db: Database, campaignId: string, from: number, to: number): JournalText[] {
  return journalTextRange(db).all({ campaignId, from, to });
}
