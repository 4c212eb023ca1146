import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { StateJson } from '../engine/state/upgrade.js';
import type { Db } from './client.js';
import { ticks } from './schema.js';

/** Whether a half period (by time index) was already played: makes a tick idempotent across triggers and processes. */
export function tickPlayed(db: Db, campaignId: string, timeIndex: number): boolean {
  return db.select({ t: ticks.timeIndex }).from(ticks).where(and(eq(ticks.campaignId, campaignId), eq(ticks.timeIndex, timeIndex))).get() !== undefined;
}

/**
 * Records that a half period was played, with the state before it (in shape `version`) for undo,
 * and drops the snapshots of ticks that have left the undo window (the last `keep` ticks keep
 * theirs; the rows stay, so an old half period can never be played twice).
 */
export function recordTick(db: Db, campaignId: string, timeIndex: number, before: StateJson, version: number, lastEventId: number, now: string, keep: number): void {
  db.insert(ticks).values({ campaignId, timeIndex, ranAt: now, snapshot: before, stateVersion: version, lastEventId }).run();
  db.update(ticks).set({ snapshot: null })
    .where(and(eq(ticks.campaignId, campaignId), lte(ticks.timeIndex, timeIndex - keep), isNotNull(ticks.snapshot))).run();
}

/** A played tick that can still be undone: the state before it, as stored. */
export interface UndoableTick {
  readonly timeIndex: number;
  readonly snapshot: StateJson;
  readonly version: number;
  readonly lastEventId: number;
}

/** The last played tick, if it can still be undone (it has its snapshot). */
export function lastUndoableTick(db: Db, campaignId: string): UndoableTick | undefined {
  const r = db.select().from(ticks).where(eq(ticks.campaignId, campaignId)).orderBy(desc(ticks.timeIndex)).limit(1).get();
  if (!r || r.snapshot === null) return undefined;
  return { timeIndex: r.timeIndex, snapshot: r.snapshot as StateJson, version: r.stateVersion, lastEventId: r.lastEventId };
}

/** How many of the last ticks in a row can be undone (they still have their snapshots). */
export function undoableTicks(db: Db, campaignId: string): number {
  const rows = db.select({ has: sql<number>`${ticks.snapshot} is not null` }).from(ticks).where(eq(ticks.campaignId, campaignId)).orderBy(desc(ticks.timeIndex)).limit(64).all();
  let n = 0;
  for (const r of rows) {
    if (r.has !== 1) break;
    n++;
  }
  return n;
}

export function deleteTick(db: Db, campaignId: string, timeIndex: number): void {
  db.delete(ticks).where(and(eq(ticks.campaignId, campaignId), eq(ticks.timeIndex, timeIndex))).run();
}
