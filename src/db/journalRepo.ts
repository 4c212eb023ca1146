import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { perConnection } from './prepared.js';
import { journal } from './schema.js';

/** One row of a campaign's journal, as stored (docs/replay.md). */
export type JournalRow = typeof journal.$inferSelect;

/** The number of the campaign's last journal row; -1 when it has none (a campaign from before the journal). */
export function lastJournalSeq(db: Database, campaignId: string): number {
  const r = db.select({ seq: journal.seq }).from(journal).where(eq(journal.campaignId, campaignId)).orderBy(desc(journal.seq)).limit(1).get();
  return r ? r.seq : -1;
}

/** Appends rows to the journal (inside the transaction they record). */
export function appendJournal(db: Database, rows: readonly JournalRow[]): void {
  if (rows.length > 0) db.insert(journal).values([...rows]).run();
}

/** A journal row without its campaign, its JSON columns as the stored text (JSON.stringify's). */
export interface JournalText extends Omit<JournalRow, 'campaignId' | 'input' | 'dice' | 'change'> {
  readonly input: string | null;
  readonly dice: string | null;
  readonly change: string;
}

// The JSON columns read as text (a `sql` field has no JSON decoder): a long campaign's journal is tens of megabytes, never parsed to be written out again.
const journalText = perConnection((db) => db.select({
  seq: journal.seq, kind: journal.kind, invocation: journal.invocation, at: journal.at, timeIndex: journal.timeIndex,
  input: sql<string | null>`${journal.input}`, dice: sql<string | null>`${journal.dice}`, change: sql<string>`${journal.change}`, stateVersion: journal.stateVersion,
}).from(journal).where(eq(journal.campaignId, sql.placeholder('campaignId'))).orderBy(asc(journal.seq)).prepare());

/** The whole journal of a campaign, in order. */
export function journalOf(db: Database, campaignId: string): JournalRow[] {
  return db.select().from(journal).where(eq(journal.campaignId, campaignId)).orderBy(asc(journal.seq)).all();
}

/** The whole journal of a campaign, in order, as stored text (the export). */
export function journalTextOf(db: Database, campaignId: string): JournalText[] {
  return journalText(db).all({ campaignId });
}
