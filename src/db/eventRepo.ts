import { and, count, desc, eq, gt, gte, inArray, lte, max, notInArray, type SQL, sql } from 'drizzle-orm';
import type { GameTime } from '../engine/clock/index.js';
import type { Audience, EngineEvent } from '../engine/events/index.js';
import type { Database, Tables } from './client.js';
import { idList, inIdList, jsonNumber } from './dialectSql.js';
import { joinParts, packText, splitParts, storedText, type StoredRow, unpackText } from './packedText.js';
import { bound, LAST_INTEGER, oneOff, perConnection, readSoon, runUnanswered } from './prepared.js';
import type { events } from './schema.js';

function audienceKey(a: Audience): string {
  return a.kind === 'army' ? `army:${a.armyId}` : a.kind;
}

export interface StoredEvent {
  readonly id: number;
  readonly time: GameTime;
  readonly type: string;
  readonly audience: string;
  readonly actorUserId: string | null;
  readonly text: string;
  readonly data: unknown;
  readonly createdAt: string;
  /** Withdrawn by `/turn undo` (kept for the audit). */
  readonly undone: boolean;
}

const p = sql.placeholder;
/** Events inserted by one statement: a tick of 800 armies appends about 1,300, one statement each cost a fifth of its writes. */
const BATCH = 32;
/** The placeholders of the `i`th row of a statement. */
const eventRow = (events: Tables['events'], i: number) => ({
  campaignId: p('campaignId'), gameDay: p('gameDay'), gameHalf: p('gameHalf'), type: p(`type${i}`), actorUserId: p('actorUserId'), audience: p(`audience${i}`),
  text: p(`text${i}`), data: bound(events.data, `data${i}`), createdAt: p('createdAt'),
});
const insertEvent = perConnection((q, { events }) => q.insert(events).values(eventRow(events, 0)).prepare());
const insertEvents = perConnection((q, { events }, db) => (db.dialect === 'postgres'
  ? q.insert(events).select(numberedRows(events)).prepare()
  : q.insert(events).values(Array.from({ length: BATCH }, (_, i) => eventRow(events, i))).prepare()));

/**
 * PostgreSQL's batch of BATCH events with ids that follow the events' order by construction. Its
 * documentation does not say in which order the rows of a multi-row VALUES take their identity
 * default (`nextval`), and the log's order (replay, the chronicle, the journal, the export) is the
 * ids' order. So the statement takes BATCH values from the sequence, sorts them (array_agg ...
 * order by, in a CTE evaluated once: it calls a volatile function) and gives the `n`th smallest
 * to the row numbered `n`. The rows are listed last first: no order can come from the list's
 * (tests/db/pg/eventOrder.test.ts reads back what was appended, in order).
 */
function numberedRows(events: Tables['events']): SQL {
  const rows = Array.from({ length: BATCH }, (_, k) => {
    const i = BATCH - 1 - k;
    return sql`(${sql.raw(String(i + 1))}, ${p(`type${i}`)}::text, ${p(`audience${i}`)}::text, ${p(`text${i}`)}::text, ${bound(events.data, `data${i}`)}::json)`;
  });
  return sql`with ids as materialized (select array_agg(n order by n) as ids from (select nextval(pg_get_serial_sequence('events', 'id')) as n from generate_series(1, ${sql.raw(String(BATCH))})) s)
select ids.ids[r.n], ${p('campaignId')}::text, ${p('gameDay')}::integer, ${p('gameHalf')}::integer, r.type, ${p('actorUserId')}::text, r.audience, r.text, r.data, ${p('createdAt')}::text, false, null::bytea
from ids, (values ${sql.join(rows, sql`, `)}) as r(n, type, audience, text, data)`;
}

type NewEvent = Required<Pick<typeof events.$inferInsert, 'campaignId' | 'gameDay' | 'gameHalf' | 'type' | 'actorUserId' | 'audience' | 'text' | 'data' | 'createdAt'>>;

export function appendEvents(db: Database, campaignId: string, time: GameTime, actorUserId: string | null, list: readonly EngineEvent[], now: string): void {
  // In their order (ids ascending): whole statements of BATCH rows, then the rest one by one.
  const shared: Omit<NewEvent, 'type' | 'audience' | 'text' | 'data'> = { campaignId, gameDay: time.day, gameHalf: time.half, actorUserId, createdAt: now };
  const whole = list.length - (list.length % BATCH);
  for (let start = 0; start < whole; start += BATCH) {
    const values: Record<string, unknown> = { ...shared };
    for (let i = 0; i < BATCH; i++) putEventValues(values, list[start + i], i);
    runUnanswered(insertEvents(db), values);
  }
  for (const e of list.slice(whole)) {
    const values: Record<string, unknown> = { ...shared };
    putEventValues(values, e, 0);
    runUnanswered(insertEvent(db), values);
  }
}

/** The names of row `i`'s own values in a statement, made once (not per event: a tick appends over a thousand). */
const ROW_NAMES = Array.from({ length: BATCH }, (_, i) => ({ type: `type${i}`, audience: `audience${i}`, text: `text${i}`, data: `data${i}` }));

/** One event's own values, named for row `i` of a statement, put into `values`. */
function putEventValues(values: Record<string, unknown>, e: EngineEvent | undefined, i: number): void {
  const names = ROW_NAMES[i];
  if (!e || !names) throw new Error(`no event for row ${i} of a statement`);
  values[names.type] = e.type;
  values[names.audience] = audienceKey(e.audience);
  values[names.text] = e.text;
  values[names.data] = e.data ?? null;
}

/** A packed event's data (its stored JSON text, or null) and text (src/db/packedText.ts). */
function unpackEvent(packed: Buffer): { data: string | null; text: string } {
  const { first: [data = null], rest } = splitParts(unpackText('event', packed), 1);
  return { data, text: rest };
}

/** A stored event's text and data (parsed), plain or packed. */
function textAndData(r: typeof events.$inferSelect): { text: string; data: unknown } {
  if (r.packed === null) return { text: r.text ?? '', data: r.data };
  const { text, data } = unpackEvent(r.packed);
  const parsed: unknown = data === null ? null : JSON.parse(data);
  return { text, data: parsed };
}

function toStored(r: typeof events.$inferSelect): StoredEvent {
  const { text, data } = textAndData(r);
  return { id: r.id, time: { day: r.gameDay, half: r.gameHalf }, type: r.type, audience: r.audience, actorUserId: r.actorUserId, text, data, createdAt: r.createdAt, undone: r.undone };
}

/** Events for the given audiences, newest last; events an undo withdrew are left out unless asked for. */
export function eventsFor(db: Database, campaignId: string, audiences: readonly string[], opts: { afterId?: number; types?: readonly string[]; limit?: number; withUndone?: boolean } = {}): StoredEvent[] {
  const rows = oneOff(db, (q, { events }) => {
    const conds = [eq(events.campaignId, campaignId), inArray(events.audience, [...audiences])];
    if (!opts.withUndone) conds.push(eq(events.undone, false));
    if (opts.afterId !== undefined) conds.push(gt(events.id, opts.afterId));
    if (opts.types) conds.push(inArray(events.type, [...opts.types]));
    return q.select().from(events).where(and(...conds)).orderBy(desc(events.id)).limit(opts.limit ?? 200).prepare();
  }).all();
  return rows.reverse().map(toStored);
}

const DICE_TYPES: readonly string[] = ['diceRolled', 'diceSeedRevealed', 'diceSeedCommitted'];

/** A plain event that may be packed: the `events_plain` index's condition, word for word (so the planner takes the index). */
const PLAIN = (e: typeof events): SQL => sql`(${e.packed} is null) and (${e.type} <> 'diceRolled') and (${e.type} <> 'diceSeedRevealed') and (${e.type} <> 'diceSeedCommitted')`;

const diceOfPeriod = perConnection((q, { events }, db) => q.select().from(events)
  .where(and(eq(events.campaignId, p('campaignId')), inArray(events.type, [...DICE_TYPES]), sql`${jsonNumber(db, events.data, 'period')} = ${p('period')}`))
  .orderBy(events.id).prepare());

/** Every dice event of one dice period (its rolls, its commitment and its reveal), undone ones included, in log order. */
export function diceEventsOf(db: Database, campaignId: string, period: number): StoredEvent[] {
  return diceOfPeriod(db).all({ campaignId, period }).map(toStored);
}

/** The last `limit` events of one type, newest last (undone ones included, marked). */
export function lastEventsOfType(db: Database, campaignId: string, type: string, limit: number): StoredEvent[] {
  return oneOff(db, (q, { events }) => q.select().from(events).where(and(eq(events.campaignId, campaignId), eq(events.type, type))).orderBy(desc(events.id)).limit(limit).prepare())
    .all().reverse().map(toStored);
}

/** Every event for these audiences not withdrawn by an undo, in log order, without the types named (the campaign book). */
export function chronicleEvents(db: Database, campaignId: string, audiences: readonly string[], without: readonly string[], opts: ChronicleWindow = {}): StoredEvent[] {
  return oneOff(db, (q, { events }) => {
    const conds = [eq(events.campaignId, campaignId), inArray(events.audience, [...audiences]), eq(events.undone, false)];
    if (without.length > 0) conds.push(notInArray(events.type, [...without]));
    if (opts.upToDay !== undefined) conds.push(lte(events.gameDay, opts.upToDay));
    if (opts.upToId !== undefined) conds.push(lte(events.id, opts.upToId));
    if (opts.last === undefined) return q.select().from(events).where(and(...conds)).orderBy(events.id).prepare().all();
    // Only the newest lines are read (the web page's: a long campaign's whole log is never parsed).
    return q.select().from(events).where(and(...conds)).orderBy(desc(events.id)).limit(opts.last).prepare().all().reverse();
  }).map(toStored);
}

/** Which part of the chronicle: up to a game day or an event id, and only the newest `last` lines. */
export interface ChronicleWindow {
  readonly upToDay?: number;
  readonly upToId?: number;
  readonly last?: number;
}

const everyEvent = perConnection((q, { events }) => q.select().from(events).where(eq(events.campaignId, p('campaignId'))).orderBy(events.id).prepare());

export function allEvents(db: Database, campaignId: string): StoredEvent[] {
  return everyEvent(db).all({ campaignId }).map(toStored);
}

const withdraw = perConnection((q, { events }) => q.update(events).set({ undone: true }).where(and(eq(events.campaignId, p('campaignId')), gt(events.id, p('afterId')))).prepare());

/** Marks the events after `afterId` as withdrawn by an undo; they stay in the log. */
export function markEventsUndone(db: Database, campaignId: string, afterId: number): void {
  runUnanswered(withdraw(db), { campaignId, afterId });
}

const maxEventId = perConnection((q, { events }) => q.select({ id: max(events.id) }).from(events).where(eq(events.campaignId, p('campaignId'))).prepare());

export function lastEventId(db: Database, campaignId: string): number {
  return maxEventId(db).get({ campaignId })?.id ?? 0;
}

/** `lastEventId` will be read soon, in this transaction, before it appends events (prepared.ts `readSoon`). */
export function lastEventIdSoon(db: Database, campaignId: string): void {
  readSoon(maxEventId(db), { campaignId });
}

/**
 * The whole log of a campaign as one JSON array, built by SQLite from the stored rows (each
 * event's data is stored JSON, never parsed and re-written in JavaScript), with its length: the
 * export of a season reads tens of thousands of events.
 */
export function allEventsJson(db: Database, campaignId: string): { json: string; count: number } {
  // SQLite builds the array from plain rows; a packed row (src/db/packedText.ts) is unpacked here.
  if (db.dialect !== 'sqlite' || anyPacked(db).get({ campaignId }) !== undefined) return logJsonWritten(db, campaignId);
  return logJson(db).get({ campaignId }) ?? { json: '[]', count: 0 };
}

// Packed events are the oldest: found at once walking the campaign's events in order.
const anyPacked = perConnection((q, { events: e }) => q.select({ one: sql<number>`1` }).from(e)
  .where(and(eq(e.campaignId, p('campaignId')), sql`${e.packed} is not null`)).orderBy(e.id).limit(1).prepare());

// PostgreSQL's own JSON output spaces its keys (`{"id" : 1}`), so there the array is written here in
// SQLite's compact form from the rows, each event's data as its stored text: the export's bytes are
// the same on both stores (tests/db/eventsJson.test.ts holds the two forms equal on SQLite).
const logRows = perConnection((q, { events: e }) => q.select({
  id: e.id, gameDay: e.gameDay, gameHalf: e.gameHalf, type: e.type, audience: e.audience, actorUserId: e.actorUserId, text: e.text,
  data: sql<string | null>`${e.data}`, createdAt: e.createdAt, undone: e.undone, packed: e.packed,
}).from(e).where(and(eq(e.campaignId, p('campaignId')), gt(e.id, p('afterId')), lte(e.id, p('upToId')))).orderBy(e.id).prepare());

/** An event of the log as the export writes it: `data` as its stored JSON text, plain or packed alike. */
export interface LogRow {
  readonly id: number;
  readonly gameDay: number;
  readonly gameHalf: GameTime['half'];
  readonly type: string;
  readonly audience: string;
  readonly actorUserId: string | null;
  readonly text: string;
  readonly data: string | null;
  readonly createdAt: string;
  readonly undone: boolean;
}

/** A campaign's events after `afterId` and up to `upToId` (both optional), in order, as LogRows. */
export function logRowsOf(db: Database, campaignId: string, range: { readonly afterId?: number; readonly upToId?: number } = {}): LogRow[] {
  return logRows(db).all({ campaignId, afterId: range.afterId ?? 0, upToId: range.upToId ?? LAST_INTEGER }).map(plainLogRow);
}

/** A log row as stored, plain or packed, as the export reads it. */
function plainLogRow({ packed, ...r }: Omit<LogRow, 'text'> & { text: string | null; packed: Buffer | null }): LogRow {
  return packed === null ? { ...r, text: r.text ?? '' } : { ...r, ...unpackEvent(packed) };
}

/** Log rows as the export's JSON array of events (the same bytes SQLite's `logJson` builds). */
export function logJsonOf(rows: readonly LogRow[]): string {
  return `[${rows.map(eventJson).join(',')}]`;
}

export function logJsonWritten(db: Database, campaignId: string): { json: string; count: number } {
  const rows = logRowsOf(db, campaignId);
  return { json: logJsonOf(rows), count: rows.length };
}

const plainEvents = perConnection((q, { events: e }) => q.select({ id: e.id, text: e.text, data: sql<string | null>`${e.data}` }).from(e)
  .where(and(PLAIN(e), sql`${e.createdAt} < ${p('before')}`)).orderBy(e.createdAt).limit(p('limit')).prepare());
const packEvent = perConnection((q, { events: e }) => q.update(e).set({ text: null, data: null, packed: sql`${p('packed')}` }).where(eq(e.id, p('id'))).prepare());

// Whether a run is waiting: the `events_plain` index alone is read.
const coldEvents = perConnection((q, { events: e }) => q.select({ one: sql<number>`1` }).from(e)
  .where(and(PLAIN(e), sql`${e.createdAt} < ${p('before')}`)).limit(p('limit')).prepare());
// A run of the log as stored (data as its stored text), deleted and written back in id order (SQLite's `packEvents`).
const storedRun = perConnection((q, { events: e }) => q.select({
  id: e.id, campaignId: e.campaignId, gameDay: e.gameDay, gameHalf: e.gameHalf, type: e.type, actorUserId: e.actorUserId, audience: e.audience,
  text: e.text, data: sql<string | null>`${e.data}`, createdAt: e.createdAt, undone: e.undone, packed: e.packed,
}).from(e).where(and(gte(e.id, p('from')), lte(e.id, p('to')))).orderBy(e.id).prepare());
const dropRun = perConnection((q, { events: e }) => q.delete(e).where(and(gte(e.id, p('from')), lte(e.id, p('to')))).prepare());
const writeStored = perConnection((q, { events: e }) => q.insert(e).values({
  id: p('id'), campaignId: p('campaignId'), gameDay: p('gameDay'), gameHalf: p('gameHalf'), type: p('type'), actorUserId: p('actorUserId'), audience: p('audience'),
  text: p('text'), data: sql`${p('data')}`, createdAt: p('createdAt'), undone: bound(e.undone, 'undone'), packed: sql`${p('packed')}`,
}).prepare());

/**
 * Packs up to `limit` plain events logged before `before` (an ISO instant), oldest first (the
 * `events_plain` index; the dice events stay plain): data and text become one packed value.
 * Answers how many it packed; none while fewer than `minRun` are waiting (`packCold`).
 *
 * On SQLite the run of ids they span is deleted and written back in id order, every row in it
 * (dice events and rows not yet cold as they were): a packed row rewritten where it stood leaves
 * its page half empty (SQLite never merges a page that is a third full), so a long campaign's file
 * grew to twice what it holds; a run deleted whole frees its pages, and written back in order it
 * fills fresh ones (issue 25). PostgreSQL reuses a row's freed space itself (VACUUM): the rows are
 * updated where they are.
 */
export function packEvents(db: Database, before: string, limit: number, minRun = 1): number {
  if (minRun > 1 && coldEvents(db).all({ before, limit: minRun }).length < minRun) return 0;
  const cold = plainEvents(db).all({ before, limit });
  if (cold.length === 0) return 0;
  if (db.dialect !== 'sqlite') {
    const pack = packEvent(db);
    for (const r of cold) runUnanswered(pack, { id: r.id, packed: packText('event', joinParts([r.data], r.text ?? '')) });
    return cold.length;
  }
  // The run: from the oldest id to the newest, at most twice `limit` ids wide (a row logged out of
  // order far ahead waits for a run of its own).
  const from = Math.min(...cold.map((r) => r.id));
  const taken = cold.filter((r) => r.id < from + 2 * limit);
  const toPack = new Map(taken.map((r) => [r.id, packText('event', joinParts([r.data], r.text ?? ''))]));
  const to = Math.max(...toPack.keys());
  const rows = storedRun(db).all({ from, to });
  runUnanswered(dropRun(db), { from, to });
  const write = writeStored(db);
  for (const r of rows) {
    const packed = toPack.get(r.id);
    runUnanswered(write, packed === undefined ? r : { ...r, text: null, data: null, packed });
  }
  return toPack.size;
}

/** One event as the log's JSON text (SQLite's compact form), its data as its stored text. */
function eventJson(r: LogRow): string {
  const q = JSON.stringify;
  return `{"id":${r.id},"time":{"day":${r.gameDay},"half":${r.gameHalf}},"type":${q(r.type)},`
    + `"audience":${q(r.audience)},"actorUserId":${q(r.actorUserId)},"text":${q(r.text)},"data":${r.data ?? 'null'},"createdAt":${q(r.createdAt)},"undone":${q(r.undone)}}`;
}

const logRowsAfter = perConnection((q, { events: e }) => q.select({
  id: e.id, gameDay: e.gameDay, gameHalf: e.gameHalf, type: e.type, audience: e.audience, actorUserId: e.actorUserId, text: e.text,
  data: sql<string | null>`${e.data}`, createdAt: e.createdAt, undone: e.undone, packed: e.packed,
}).from(e).where(and(eq(e.campaignId, p('campaignId')), gt(e.id, p('afterId')))).orderBy(e.id).limit(p('limit')).prepare());

/**
 * The campaign's events after event `afterId`, at most `limit`, in log order, each as its JSON
 * text (the bytes `allEventsJson` gives it, on both stores, plain or packed alike): the export reads the log by parts.
 */
export function eventsJsonAfter(db: Database, campaignId: string, afterId: number, limit: number): { id: number; json: string }[] {
  return logRowsAfter(db).all({ campaignId, afterId, limit }).map((r) => ({ id: r.id, json: eventJson(plainLogRow(r)) }));
}

const logRowsAt = perConnection((q, { events: e }, db) => q.select({
  id: e.id, gameDay: e.gameDay, gameHalf: e.gameHalf, type: e.type, audience: e.audience, actorUserId: e.actorUserId, text: e.text,
  data: sql<string | null>`${e.data}`, createdAt: e.createdAt, undone: e.undone, packed: e.packed,
}).from(e).where(and(eq(e.campaignId, p('campaignId')), inIdList(db, e.id, p('ids')))).orderBy(e.id).prepare());

/** The campaign's events with these ids (those it has), in log order, as stored and as their JSON text (`eventsJsonAfter`'s): the export checks its kept parts' last rows in one query. */
export function eventsJsonAt(db: Database, campaignId: string, ids: readonly number[]): (StoredRow<string> & { readonly id: number })[] {
  if (ids.length === 0) return [];
  return logRowsAt(db).all({ campaignId, ids: idList(db, ids) }).map((r) => ({
    id: r.id,
    stored: storedText([r.id, r.gameDay, r.gameHalf, r.type, r.audience, r.actorUserId, r.text, r.data, r.createdAt, r.undone], r.packed),
    text: () => eventJson(plainLogRow(r)),
  }));
}

const countUpTo = perConnection((q, { events: e }) => q.select({ n: count() }).from(e).where(and(eq(e.campaignId, p('campaignId')), lte(e.id, p('upToId')))).prepare());

const idAt = perConnection((q, { events: e }) => q.select({ id: e.id }).from(e).where(eq(e.campaignId, p('campaignId'))).orderBy(e.id).limit(1).offset(p('index')).prepare());

/** The id of the campaign's event at place `index` in its log (from 0; on the index), if it has that many. */
export function eventIdAt(db: Database, campaignId: string, index: number): number | undefined {
  return idAt(db).get({ campaignId, index })?.id;
}

/** How many of the campaign's events have an id up to `upToId` (on the index). */
export function eventCountUpTo(db: Database, campaignId: string, upToId: number): number {
  return countUpTo(db).get({ campaignId, upToId })?.n ?? 0;
}

const countBetween = perConnection((q, { events: e }) => q.select({ n: count() }).from(e)
  .where(and(eq(e.campaignId, p('campaignId')), gt(e.id, p('afterId')), lte(e.id, p('upToId')))).prepare());
const idAfter = perConnection((q, { events: e }) => q.select({ id: e.id }).from(e)
  .where(and(eq(e.campaignId, p('campaignId')), gt(e.id, p('afterId')))).orderBy(e.id).limit(1).offset(p('offset')).prepare());

/** How many of the campaign's events have an id after `afterId` and up to `upToId` (on the index: only those are counted). */
export function eventCountBetween(db: Database, campaignId: string, afterId: number, upToId: number): number {
  return countBetween(db).get({ campaignId, afterId, upToId })?.n ?? 0;
}

/** The id of the campaign's event `offset` places after event `afterId` (0: the next one), if it has that many. */
export function eventIdAfter(db: Database, campaignId: string, afterId: number, offset: number): number | undefined {
  return idAfter(db).get({ campaignId, afterId, offset })?.id;
}

const logJson = perConnection((q, { events }) => {
  const e = q.select().from(events).where(eq(events.campaignId, p('campaignId'))).orderBy(events.id).as('e');
  return q.select({
    json: sql<string>`json_group_array(json_object(
      'id', ${e.id}, 'time', json_object('day', ${e.gameDay}, 'half', ${e.gameHalf}), 'type', ${e.type}, 'audience', ${e.audience},
      'actorUserId', ${e.actorUserId}, 'text', ${e.text}, 'data', json(${e.data}), 'createdAt', ${e.createdAt}, 'undone', json(iif(${e.undone}, 'true', 'false'))
    ))`,
    count: sql<number>`count(*)`,
  }).from(e).prepare();
});
