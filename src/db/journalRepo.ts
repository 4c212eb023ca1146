import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { bound, perConnection } from './prepared.js';
import { journal } from './schema.js';

/** One row of a campaign's journal, as stored (docs/replay.md). */
export type JournalRow = typeof journal.$inferSelect;

const j = journal;
const p = sql.placeholder;

// Every write transaction reads and appends here (src/app/journal/record.ts): both prepared once per
// connection. The last number is `max(seq)` on the primary key's index (one lookup).
const lastSeq = perConnection((db) => db.select({ seq: sql<number | null>`max(${j.seq})` }).from(j).where(eq(j.campaignId, p('campaignId'))).prepare());
const insertRow = perConnection((db) => db.insert(j).values({
  campaignId: p('campaignId'), seq: p('seq'), kind: p('kind'), invocation: p('invocation'), at: p('at'), timeIndex: p('timeIndex'),
  input: bound(j.input, 'input'), dice: bound(j.dice, 'dice'), change: bound(j.change, 'change'), stateVersion: p('stateVersion'),
}).prepare());

/** The number of the campaign's last journal row; -1 when it has none (a campaign from before the journal). */
export function lastJournalSeq(db: Database, campaignId: string): number {
  return lastSeq(db).get({ campaignId })?.seq ?? -1;
}

/** Appends rows to the journal (inside the transaction they record). */
export function appendJournal(db: Database, rows: readonly JournalRow[]): void {
  const insert = insertRow(db);
  for (const row of rows) {
    const values: Required<typeof j.$inferInsert> = row;
    insert.run(values);
  }
}

/** The whole journal of a campaign, in order (the export). */
export function journalOf(db: Database, campaignId: string): JournalRow[] {
  return db.select().from(journal).where(eq(journal.campaignId, campaignId)).orderBy(asc(journal.seq)).all();
}
