import { and, desc, eq, sql } from 'drizzle-orm';
import type { StateJson } from '../engine/campaign/index.js';
import type { Database } from './client.js';
import { prepared } from './prepared.js';
import { ticks } from './schema.js';

/** Whether a half period (by time index) was already played: makes a tick idempotent across triggers and processes. */
export function tickPlayed(db: Database, campaignId: string, timeIndex: number): boolean {
  return prepared(db, 'select 1 from ticks where campaign_id = ? and time_index = ?').get(campaignId, timeIndex) !== undefined;
}

/**
 * Records that a half period was played, with the state before it (in shape `version`) for undo,
 * and drops the snapshots of ticks that have left the undo window (the last `keep` ticks keep
 * theirs; the rows stay, so an old half period can never be played twice).
 */
export function recordTick(db: Database, campaignId: string, timeIndex: number, before: StateJson, version: number, lastEventId: number, now: string, keep: number, frame?: unknown): void {
  prepared(db, 'insert into ticks (campaign_id, time_index, ran_at, snapshot, state_version, last_event_id, frame) values (?, ?, ?, ?, ?, ?, ?)')
    .run(campaignId, timeIndex, now, JSON.stringify(before), version, lastEventId, frame === undefined ? null : JSON.stringify(frame));
  prepared(db, 'update ticks set snapshot = null where campaign_id = ? and time_index <= ? and snapshot is not null').run(campaignId, timeIndex - keep);
}

/** A played tick that can still be undone: the state before it, as stored. */
export interface UndoableTick {
  readonly timeIndex: number;
  readonly snapshot: StateJson;
  readonly version: number;
  readonly lastEventId: number;
}

/** The last played tick, if it can still be undone (it has its snapshot). */
export function lastUndoableTick(db: Database, campaignId: string): UndoableTick | undefined {
  const r = db.select().from(ticks).where(eq(ticks.campaignId, campaignId)).orderBy(desc(ticks.timeIndex)).limit(1).get();
  if (!r || r.snapshot === null) return undefined;
  return { timeIndex: r.timeIndex, snapshot: r.snapshot as StateJson, version: r.stateVersion, lastEventId: r.lastEventId };
}

/** How many of the last ticks in a row can be undone (they still have their snapshots). */
export function undoableTicks(db: Database, campaignId: string): number {
  const rows = db.select({ has: sql<number>`${ticks.snapshot} is not null` }).from(ticks).where(eq(ticks.campaignId, campaignId)).orderBy(desc(ticks.timeIndex)).limit(64).all();
  let n = 0;
  for (const r of rows) {
    if (r.has !== 1) break;
    n++;
  }
  return n;
}

export function deleteTick(db: Database, campaignId: string, timeIndex: number): void {
  db.delete(ticks).where(and(eq(ticks.campaignId, campaignId), eq(ticks.timeIndex, timeIndex))).run();
}

/** A played half period as the campaign book and the time-lapse read it. */
export interface PlayedTick {
  readonly timeIndex: number;
  /** The last event logged before the tick: its own events, and the commands after it, follow. */
  readonly lastEventId: number;
  /** Where every army stood after it (stored JSON), if recorded. */
  readonly frame: unknown;
}

/** Every played half period, in order. */
export function playedTicks(db: Database, campaignId: string): PlayedTick[] {
  return (prepared(db, 'select time_index as timeIndex, last_event_id as lastEventId, frame from ticks where campaign_id = ? order by time_index').all(campaignId) as { timeIndex: number; lastEventId: number; frame: string | null }[])
    .map((r) => ({ timeIndex: r.timeIndex, lastEventId: r.lastEventId, frame: r.frame === null ? null : JSON.parse(r.frame) as unknown }));
}

/** A played half period without its frame: the web page's day index (no frame is read or parsed). */
export interface TickIndexRow {
  readonly timeIndex: number;
  readonly lastEventId: number;
  /** Whether a frame was kept with it. */
  readonly framed: boolean;
}

/** Every played half period, in order, without reading the frames (cheap on a long campaign). */
export function tickIndex(db: Database, campaignId: string): TickIndexRow[] {
  return db.select({ timeIndex: ticks.timeIndex, lastEventId: ticks.lastEventId, framed: sql<number>`${ticks.frame} is not null` })
    .from(ticks).where(eq(ticks.campaignId, campaignId)).orderBy(ticks.timeIndex).all()
    .map((r) => ({ timeIndex: r.timeIndex, lastEventId: r.lastEventId, framed: r.framed === 1 }));
}

/** One played half period with its frame (parsed), if played. */
export function playedTickAt(db: Database, campaignId: string, timeIndex: number): PlayedTick | undefined {
  const r = db.select({ timeIndex: ticks.timeIndex, lastEventId: ticks.lastEventId, frame: ticks.frame })
    .from(ticks).where(and(eq(ticks.campaignId, campaignId), eq(ticks.timeIndex, timeIndex))).get();
  return r ? { timeIndex: r.timeIndex, lastEventId: r.lastEventId, frame: r.frame } : undefined;
}
