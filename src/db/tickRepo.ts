import { and, desc, eq } from 'drizzle-orm';
import type { CampaignState } from '../engine/state/campaign.js';
import type { Database } from './client.js';
import { events, ticks } from './schema.js';

/** Records that a half period was played. Returns false when it was already played (idempotence). */
export function recordTick(db: Database, campaignId: string, timeIndex: number, before: CampaignState, lastEventId: number, now: string): boolean {
  const r = db.insert(ticks).values({ campaignId, timeIndex, ranAt: now, snapshot: before, lastEventId }).onConflictDoNothing().run();
  return r.changes > 0;
}

export function lastTick(db: Database, campaignId: string): { timeIndex: number; snapshot: CampaignState; lastEventId: number } | undefined {
  const r = db.select().from(ticks).where(eq(ticks.campaignId, campaignId)).orderBy(desc(ticks.timeIndex)).limit(1).get();
  return r ? { timeIndex: r.timeIndex, snapshot: r.snapshot as CampaignState, lastEventId: r.lastEventId } : undefined;
}

export function deleteTick(db: Database, campaignId: string, timeIndex: number): void {
  db.delete(ticks).where(and(eq(ticks.campaignId, campaignId), eq(ticks.timeIndex, timeIndex))).run();
}

/** Event ids after `afterId` belong to the undone tick; they stay in the log but are marked undone. */
export function markEventsUndone(db: Database, campaignId: string, afterId: number): void {
  const rows = db.select({ id: events.id, type: events.type }).from(events).where(eq(events.campaignId, campaignId)).all();
  for (const r of rows) {
    if (r.id > afterId && !r.type.endsWith(':undone')) db.update(events).set({ type: `${r.type}:undone` }).where(eq(events.id, r.id)).run();
  }
}
