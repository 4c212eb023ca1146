import { and, count, desc, eq, isNotNull, lte, max, min, sql } from 'drizzle-orm';
import type { StateJson } from '../engine/campaign/index.js';
import type { Database } from './client.js';
import { packText, unpackText } from './packedText.js';
import { bound, isTrue, perConnection, readSoon, runUnanswered, writeBackPacked } from './prepared.js';
import type { ticks } from './schema.js';

/** Whether a half period (by time index) was already played: makes a tick idempotent across triggers and processes. */
const p = sql.placeholder;
const played = perConnection((q, { ticks }) => q.select({ one: sql<number>`1` }).from(ticks)
  .where(and(eq(ticks.campaignId, p('campaignId')), eq(ticks.timeIndex, p('timeIndex')))).prepare());

export function tickPlayed(db: Database, campaignId: string, timeIndex: number): boolean {
  return played(db).get({ campaignId, timeIndex }) !== undefined;
}

/** `tickPlayed` of `timeIndex` will be read soon, in this transaction (prepared.ts `readSoon`). */
export function tickPlayedSoon(db: Database, campaignId: string, timeIndex: number): void {
  readSoon(played(db), { campaignId, timeIndex });
}

const insertTick = perConnection((q, { ticks }) => q.insert(ticks).values({
  campaignId: p('campaignId'), timeIndex: p('timeIndex'), ranAt: p('ranAt'), snapshot: bound(ticks.snapshot, 'snapshot'), stateVersion: p('stateVersion'),
  lastEventId: p('lastEventId'), frame: bound(ticks.frame, 'frame'),
}).prepare());
const dropSnapshots = perConnection((q, { ticks }) => q.update(ticks).set({ snapshot: null })
  .where(and(eq(ticks.campaignId, p('campaignId')), lte(ticks.timeIndex, p('upTo')), isNotNull(ticks.snapshot))).prepare());

/**
 * Records that a half period was played, with the state before it (in shape `version`) for undo,
 * and drops the snapshots of ticks that have left the undo window (the last `keep` ticks keep
 * theirs; the rows stay, so an old half period can never be played twice).
 */
export function recordTick(db: Database, campaignId: string, timeIndex: number, before: StateJson, version: number, lastEventId: number, now: string, keep: number, frame?: unknown): void {
  const row: Required<Omit<typeof ticks.$inferInsert, 'framePacked'>> = { campaignId, timeIndex, ranAt: now, snapshot: before, stateVersion: version, lastEventId, frame: frame ?? null };
  runUnanswered(insertTick(db), row);
  runUnanswered(dropSnapshots(db), { campaignId, upTo: timeIndex - keep });
}

/** A played tick that can still be undone: the state before it, as stored. */
export interface UndoableTick {
  readonly timeIndex: number;
  readonly snapshot: StateJson;
  readonly version: number;
  readonly lastEventId: number;
}

const lastTick = perConnection((q, { ticks }) => q.select().from(ticks).where(eq(ticks.campaignId, p('campaignId'))).orderBy(desc(ticks.timeIndex)).limit(1).prepare());
const snapshotsKept = perConnection((q, { ticks }) => q.select({ has: sql<boolean>`${ticks.snapshot} is not null`.mapWith(isTrue) }).from(ticks)
  .where(eq(ticks.campaignId, p('campaignId'))).orderBy(desc(ticks.timeIndex)).limit(64).prepare());

/** The last played tick, if it can still be undone (it has its snapshot). */
export function lastUndoableTick(db: Database, campaignId: string): UndoableTick | undefined {
  const r = lastTick(db).get({ campaignId });
  if (!r || r.snapshot === null) return undefined;
  return { timeIndex: r.timeIndex, snapshot: r.snapshot, version: r.stateVersion, lastEventId: r.lastEventId };
}

/** How many of the last ticks in a row can be undone (they still have their snapshots). */
export function undoableTicks(db: Database, campaignId: string): number {
  const rows = snapshotsKept(db).all({ campaignId });
  let n = 0;
  for (const r of rows) {
    if (!r.has) break;
    n++;
  }
  return n;
}

const removeTick = perConnection((q, { ticks }) => q.delete(ticks).where(and(eq(ticks.campaignId, p('campaignId')), eq(ticks.timeIndex, p('timeIndex')))).prepare());

export function deleteTick(db: Database, campaignId: string, timeIndex: number): void {
  runUnanswered(removeTick(db), { campaignId, timeIndex });
}

/** A played half period as the campaign book and the time-lapse read it. */
export interface PlayedTick {
  readonly timeIndex: number;
  /** The last event logged before the tick: its own events, and the commands after it, follow. */
  readonly lastEventId: number;
  /** Where every army stood after it (stored JSON), if recorded. */
  readonly frame: unknown;
}

const playedList = perConnection((q, { ticks }) => q.select({ timeIndex: ticks.timeIndex, lastEventId: ticks.lastEventId, frame: ticks.frame, framePacked: ticks.framePacked })
  .from(ticks).where(eq(ticks.campaignId, p('campaignId'))).orderBy(ticks.timeIndex).prepare());

/** A tick's frame, plain or packed (src/db/packedText.ts). */
function withFrame(r: { timeIndex: number; lastEventId: number; frame: unknown; framePacked: Buffer | null }): PlayedTick {
  const frame: unknown = r.framePacked === null ? r.frame : JSON.parse(unpackText('frame', r.framePacked));
  return { timeIndex: r.timeIndex, lastEventId: r.lastEventId, frame };
}

/** Every played half period, in order. */
export function playedTicks(db: Database, campaignId: string): PlayedTick[] {
  return playedList(db).all({ campaignId }).map(withFrame);
}

/** A played half period without its frame: the web page's day index (no frame is read or parsed). */
export interface TickIndexRow {
  readonly timeIndex: number;
  readonly lastEventId: number;
  /** Whether a frame was kept with it. */
  readonly framed: boolean;
}

const tickRows = perConnection((q, { ticks }) => q.select({ timeIndex: ticks.timeIndex, lastEventId: ticks.lastEventId, framed: sql<boolean>`(${ticks.frame} is not null or ${ticks.framePacked} is not null)`.mapWith(isTrue) })
  .from(ticks).where(eq(ticks.campaignId, p('campaignId'))).orderBy(ticks.timeIndex).prepare());
const tickFrame = perConnection((q, { ticks }) => q.select({ timeIndex: ticks.timeIndex, lastEventId: ticks.lastEventId, frame: ticks.frame, framePacked: ticks.framePacked })
  .from(ticks).where(and(eq(ticks.campaignId, p('campaignId')), eq(ticks.timeIndex, p('timeIndex')))).prepare());

/** Every played half period, in order, without reading the frames (cheap on a long campaign). */
export function tickIndex(db: Database, campaignId: string): TickIndexRow[] {
  return tickRows(db).all({ campaignId });
}

const tickCount = perConnection((q, { ticks }) => q.select({ n: count(), last: max(ticks.timeIndex) }).from(ticks).where(eq(ticks.campaignId, p('campaignId'))).prepare());

/**
 * How many half periods a campaign has played, and the last one's index, from the ticks' key
 * alone (no row read): what moves when a tick is played or undone (the web page's keys).
 */
export function tickSpan(db: Database, campaignId: string): { count: number; last: number | null } {
  const r = tickCount(db).get({ campaignId });
  return { count: Number(r?.n ?? 0), last: r?.last ?? null };
}

/** One played half period with its frame (parsed), if played. */
export function playedTickAt(db: Database, campaignId: string, timeIndex: number): PlayedTick | undefined {
  const r = tickFrame(db).get({ campaignId, timeIndex });
  return r ? withFrame(r) : undefined;
}

const plainFrames = perConnection((q, { ticks }) => q.select({
  campaignId: ticks.campaignId, timeIndex: ticks.timeIndex, ranAt: ticks.ranAt, snapshot: sql<string | null>`${ticks.snapshot}`, stateVersion: ticks.stateVersion,
  lastEventId: ticks.lastEventId, frame: sql<string>`${ticks.frame}`,
}).from(ticks).where(and(isNotNull(ticks.frame), sql`${ticks.ranAt} < ${p('before')}`)).orderBy(ticks.ranAt).limit(p('limit')).prepare());
// Whether a run is waiting: the `ticks_plain_frame` index alone is read.
const coldFrames = perConnection((q, { ticks }) => q.select({ one: sql<number>`1` }).from(ticks)
  .where(and(isNotNull(ticks.frame), sql`${ticks.ranAt} < ${p('before')}`)).limit(p('limit')).prepare());
const packFrame = perConnection((q, { ticks }) => q.update(ticks).set({ frame: null, framePacked: sql`${p('packed')}` })
  .where(and(eq(ticks.campaignId, p('campaignId')), eq(ticks.timeIndex, p('timeIndex')))).prepare());
const insertPacked = perConnection((q, { ticks }) => q.insert(ticks).values({
  campaignId: p('campaignId'), timeIndex: p('timeIndex'), ranAt: p('ranAt'), snapshot: sql`${p('snapshot')}`, stateVersion: p('stateVersion'),
  lastEventId: p('lastEventId'), frame: null, framePacked: sql`${p('packed')}`,
}).prepare());

/**
 * Packs up to `limit` plain frames of ticks played before `before` (an ISO instant), oldest first
 * (the `ticks_plain_frame` index). Answers how many it packed; none while fewer than `minRun` are
 * waiting (`packCold`). They are written back by `writeBackPacked` (on SQLite into fresh pages).
 */
export function packFrames(db: Database, before: string, limit: number, minRun = 1): number {
  if (minRun > 1 && coldFrames(db).all({ before, limit: minRun }).length < minRun) return 0;
  const rows = plainFrames(db).all({ before, limit }).map((r) => ({ ...r, packed: packText('frame', r.frame) }));
  return writeBackPacked(db, rows, (r) => ({ campaignId: r.campaignId, timeIndex: r.timeIndex }), { update: packFrame, drop: removeTick, insert: insertPacked });
}

const undoFloor = perConnection((q, { ticks }) => q.select({ id: min(ticks.lastEventId) }).from(ticks)
  .where(and(eq(ticks.campaignId, p('campaignId')), isNotNull(ticks.snapshot))).prepare());

/**
 * The last event no `/turn undo` can withdraw any more: an undo withdraws the events after its
 * tick's `lastEventId`, and only a tick that keeps its snapshot can be undone (ticks to come log
 * after every event there is). Undefined when no tick can be undone now (every event is final).
 */
export function finalEventsUpTo(db: Database, campaignId: string): number | undefined {
  return undoFloor(db).get({ campaignId })?.id ?? undefined;
}
