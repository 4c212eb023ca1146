import { and, asc, eq, gt, lte, max, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { idList, inIdList } from './dialectSql.js';
import { joinParts, packText, splitParts, storedText, type StoredRow, unpackText } from './packedText.js';
import { bound, LAST_INTEGER, perConnection, readSoon, runUnanswered, writeBackPacked } from './prepared.js';
import type { journal } from './schema.js';

/** One row of a campaign's journal, as written (docs/replay.md); its storage (`packed`) is the repository's. */
export type JournalRow = Omit<typeof journal.$inferSelect, 'packed'>;

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
    const values: Required<Omit<typeof journal.$inferInsert, 'packed'>> = row;
    runUnanswered(insert, values);
  }
}

/** A journal row without its campaign, its JSON columns as the stored text (JSON.stringify's). */
export interface JournalText extends Omit<JournalRow, 'campaignId' | 'input' | 'dice' | 'change'> {
  readonly input: string | null;
  readonly dice: string | null;
  readonly change: string;
}

/** Which rows of a journal: those after `afterSeq` and up to `upToSeq` (both optional). */
export interface JournalRange {
  readonly afterSeq?: number;
  readonly upToSeq?: number;
}

// The JSON columns read as text (a `sql` field has no JSON decoder): a long campaign's journal is tens of megabytes, never parsed to be written out again.
const journalText = perConnection((q, { journal }) => q.select({
  seq: journal.seq, kind: journal.kind, invocation: journal.invocation, at: journal.at, timeIndex: journal.timeIndex,
  input: sql<string | null>`${journal.input}`, dice: sql<string | null>`${journal.dice}`, change: sql<string | null>`${journal.change}`, stateVersion: journal.stateVersion,
  packed: journal.packed,
}).from(journal).where(and(eq(journal.campaignId, p('campaignId')), gt(journal.seq, p('afterSeq')), lte(journal.seq, p('upToSeq')))).orderBy(asc(journal.seq)).prepare());

type StoredJournalText = Omit<JournalText, 'change'> & { readonly change: string | null; readonly packed: Buffer | null };

/** A row as stored, plain or packed, as its text (the same text either way). */
function plainText(r: StoredJournalText): JournalText {
  const { packed, ...row } = r;
  if (packed !== null) {
    const { first: [input = null, dice = null], rest } = splitParts(unpackText('journal', packed), 2);
    return { ...row, input, dice, change: rest };
  }
  if (row.change === null) throw new Error(`broken data: journal entry ${row.seq} has neither its change nor a packed row`);
  return { ...row, change: row.change };
}

/** The whole journal of a campaign, in order, its JSON parsed. */
export function journalOf(db: Database, campaignId: string): JournalRow[] {
  return journalTextOf(db, campaignId).map((r) => ({
    ...r, campaignId, input: r.input === null ? null : JSON.parse(r.input), dice: r.dice === null ? null : JSON.parse(r.dice), change: JSON.parse(r.change),
  }));
}

/**
 * A campaign's journal (or the part `range` names), in order, as stored text (the export): the same
 * text whether a row is plain or packed (src/db/packedText.ts).
 */
export function journalTextOf(db: Database, campaignId: string, range: JournalRange = {}): JournalText[] {
  return journalText(db).all({ campaignId, afterSeq: range.afterSeq ?? -1, upToSeq: range.upToSeq ?? LAST_INTEGER }).map(plainText);
}

const plainRows = perConnection((q, { journal }) => q.select({
  campaignId: journal.campaignId, seq: journal.seq, kind: journal.kind, invocation: journal.invocation, at: journal.at, timeIndex: journal.timeIndex,
  input: sql<string | null>`${journal.input}`, dice: sql<string | null>`${journal.dice}`, change: sql<string | null>`${journal.change}`, stateVersion: journal.stateVersion,
}).from(journal).where(and(sql`${journal.packed} is null`, sql`${journal.at} < ${p('before')}`)).orderBy(asc(journal.at)).limit(p('limit')).prepare());

// Whether a run is waiting: the `journal_plain` index alone is read.
const coldRows = perConnection((q, { journal }) => q.select({ one: sql<number>`1` }).from(journal)
  .where(and(sql`${journal.packed} is null`, sql`${journal.at} < ${p('before')}`)).limit(p('limit')).prepare());
const packRow = perConnection((q, { journal }) => q.update(journal).set({ input: null, dice: null, change: null, packed: sql`${p('packed')}` })
  .where(and(eq(journal.campaignId, p('campaignId')), eq(journal.seq, p('seq')))).prepare());
const dropRow = perConnection((q, { journal }) => q.delete(journal).where(and(eq(journal.campaignId, p('campaignId')), eq(journal.seq, p('seq')))).prepare());
const insertPacked = perConnection((q, { journal: j }) => q.insert(j).values({
  campaignId: p('campaignId'), seq: p('seq'), kind: p('kind'), invocation: p('invocation'), at: p('at'), timeIndex: p('timeIndex'),
  input: null, dice: null, change: null, stateVersion: p('stateVersion'), packed: sql`${p('packed')}`,
}).prepare());

/**
 * Packs up to `limit` plain journal rows written before `before` (an ISO instant), oldest first
 * (the `journal_plain` index): their input, dice and change become one packed value. Answers how
 * many rows it packed; none while fewer than `minRun` are waiting (`packCold`).
 * They are written back by `writeBackPacked` (on SQLite into fresh pages).
 */
export function packJournal(db: Database, before: string, limit: number, minRun = 1): number {
  if (minRun > 1 && coldRows(db).all({ before, limit: minRun }).length < minRun) return 0;
  const rows = plainRows(db).all({ before, limit }).flatMap((r) => (r.change === null ? [] : [{ ...r, packed: packText('journal', joinParts([r.input, r.dice], r.change)) }]));
  return writeBackPacked(db, rows, (r) => ({ campaignId: r.campaignId, seq: r.seq }), { update: packRow, drop: dropRow, insert: insertPacked });
}

/** The campaign's journal rows `from` to `to` (inclusive), in order, as stored text (plain or packed alike): the export reads the journal by parts. */
export function journalTextBetween(db: Database, campaignId: string, from: number, to: number): JournalText[] {
  return journalTextOf(db, campaignId, { afterSeq: from - 1, upToSeq: to });
}

const rowsAt = perConnection((q, { journal }, db) => q.select({
  seq: journal.seq, kind: journal.kind, invocation: journal.invocation, at: journal.at, timeIndex: journal.timeIndex,
  input: sql<string | null>`${journal.input}`, dice: sql<string | null>`${journal.dice}`, change: sql<string | null>`${journal.change}`, stateVersion: journal.stateVersion,
  packed: journal.packed,
}).from(journal).where(and(eq(journal.campaignId, p('campaignId')), inIdList(db, journal.seq, p('seqs')))).orderBy(asc(journal.seq)).prepare());

/** The journal's rows numbered `seqs` (those it has), in order, as stored and as text: the export checks its kept parts' last rows in one query. */
export function journalTextAt(db: Database, campaignId: string, seqs: readonly number[]): (StoredRow<JournalText> & { readonly seq: number })[] {
  if (seqs.length === 0) return [];
  return rowsAt(db).all({ campaignId, seqs: idList(db, seqs) }).map((r) => ({
    seq: r.seq,
    stored: storedText([r.seq, r.kind, r.invocation, r.at, r.timeIndex, r.input, r.dice, r.change, r.stateVersion], r.packed),
    text: () => plainText(r),
  }));
}
