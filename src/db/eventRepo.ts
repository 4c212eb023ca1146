import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { GameTime } from '../engine/clock/gameTime.js';
import type { Audience, EngineEvent } from '../engine/events/events.js';
import type { Database } from './client.js';
import { events } from './schema.js';

export function audienceKey(a: Audience): string {
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
}

export function appendEvents(db: Database, campaignId: string, time: GameTime, actorUserId: string | null, list: readonly EngineEvent[], now: string): void {
  for (const e of list) {
    db.insert(events).values({
      campaignId,
      gameDay: time.day,
      gameHalf: time.half,
      type: e.type,
      actorUserId,
      audience: audienceKey(e.audience),
      text: e.text,
      data: e.data ?? null,
      createdAt: now,
    }).run();
  }
}

function toStored(r: typeof events.$inferSelect): StoredEvent {
  return { id: r.id, time: { day: r.gameDay, half: r.gameHalf as GameTime['half'] }, type: r.type, audience: r.audience, actorUserId: r.actorUserId, text: r.text, data: r.data, createdAt: r.createdAt };
}

/** Events for the given audiences, newest last. */
export function eventsFor(db: Database, campaignId: string, audiences: readonly string[], opts: { afterId?: number; types?: readonly string[]; limit?: number } = {}): StoredEvent[] {
  const conds = [eq(events.campaignId, campaignId), inArray(events.audience, [...audiences])];
  if (opts.afterId !== undefined) conds.push(gt(events.id, opts.afterId));
  if (opts.types) conds.push(inArray(events.type, [...opts.types]));
  const rows = db.select().from(events).where(and(...conds)).orderBy(desc(events.id)).limit(opts.limit ?? 200).all();
  return rows.reverse().map(toStored);
}

export function allEvents(db: Database, campaignId: string): StoredEvent[] {
  return db.select().from(events).where(eq(events.campaignId, campaignId)).orderBy(events.id).all().map(toStored);
}

export function lastEventId(db: Database, campaignId: string): number {
  const r = db.select({ id: events.id }).from(events).where(eq(events.campaignId, campaignId)).orderBy(desc(events.id)).limit(1).get();
  return r?.id ?? 0;
}
