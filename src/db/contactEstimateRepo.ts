import { and, eq, min, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { ContactRecord } from '../engine/state/index.js';
import type { Database } from './client.js';
import { bound, perConnection, runUnanswered } from './prepared.js';
import type { contactEstimates as ce } from './schema.js';

/**
 * The estimates of closed contacts, by observer and target (the `contact_estimates` table): a
 * commander's map reads the newest estimate of each enemy their army met with two index walks over
 * small rows, whatever the number of contacts a long campaign has closed. The rows are written when
 * a contact closes and deleted when it is reopened (src/db/stateRepo.ts), so they mirror the closed
 * records; migration 0010 filled them from the records closed before it, with the same order number.
 */

type Estimate = typeof ce.$inferSelect['estimate'];

/**
 * A contact's place in the records' order (opened day, then half, then its number: `c12` after
 * `c9`), and an estimate's place inside it, as one number: larger is later. The same sum as
 * migration 0010's.
 */
export function contactOrd(c: Pick<ContactRecord, 'id' | 'openedAt'>, place: number): number {
  return ((c.openedAt.day * 4 + c.openedAt.half) * 1_048_576 + (Number.parseInt(c.id.slice(1), 10) || 0)) * 64 + place;
}

const p = sql.placeholder;
const insertEstimate = perConnection((q, { contactEstimates: ce }) => q.insert(ce).values({
  campaignId: p('cid'), armyId: p('armyId'), targetId: p('targetId'), contactId: p('contactId'), ord: p('ord'), estimate: bound(ce.estimate, 'estimate'),
}).prepare());
const deleteEstimates = perConnection((q, { contactEstimates: ce }) => q.delete(ce).where(and(eq(ce.campaignId, p('cid')), eq(ce.contactId, p('contactId')))).prepare());

/** A contact has closed: its observers' estimates (those still taking part) become rows. */
export function recordClosedContact(db: Database, campaignId: string, c: ContactRecord): void {
  const insert = insertEstimate(db);
  for (const [armyId, byTarget] of Object.entries(c.data.estimates ?? {})) {
    if (!c.armyIds.includes(armyId)) continue;
    Object.entries(byTarget).forEach(([targetId, estimate], place) => {
      const row: Required<Omit<typeof ce.$inferInsert, 'campaignId'>> & { cid: string } = { cid: campaignId, armyId, targetId, contactId: c.id, ord: contactOrd(c, place), estimate };
      runUnanswered(insert, row);
    });
  }
}

/** A contact is live (again): it has no closed estimates. */
export function forgetClosedContact(db: Database, campaignId: string, contactId: string): void {
  runUnanswered(deleteEstimates(db), { cid: campaignId, contactId });
}

/** For one target: the order number of its first and of its newest closed estimate, and that newest estimate. */
export interface ClosedEstimate {
  readonly targetId: string;
  readonly first: number;
  readonly last: number;
  readonly estimate: Estimate;
}

const byArmy = (e: typeof ce) => and(eq(e.campaignId, p('cid')), eq(e.armyId, p('armyId')));
// The row of each target with the largest order number (each is unique: it holds the contact's number).
const newest = perConnection((q, { contactEstimates: ce }) => {
  const later = alias(ce, 'later');
  return q.select({ targetId: ce.targetId, last: sql<number>`${ce.ord}`.mapWith(Number), estimate: ce.estimate }).from(ce)
    .where(and(byArmy(ce), sql`not exists (select 1 from ${ce} ${later} where ${later.campaignId} = ${ce.campaignId} and ${later.armyId} = ${ce.armyId}
      and ${later.targetId} = ${ce.targetId} and ${later.ord} > ${ce.ord})`)).orderBy(ce.targetId).prepare();
});
const firsts = perConnection((q, { contactEstimates: ce }) => q.select({ targetId: ce.targetId, first: min(ce.ord).mapWith(Number) }).from(ce).where(byArmy(ce)).groupBy(ce.targetId).prepare());

/** The army's closed estimates, one per target it met: the newest, with where the target first appeared. */
export function closedEstimates(db: Database, campaignId: string, armyId: string): ClosedEstimate[] {
  const first = new Map(firsts(db).all({ cid: campaignId, armyId }).map((r) => [r.targetId, r.first]));
  return newest(db).all({ cid: campaignId, armyId }).map((r) => ({ targetId: r.targetId, first: first.get(r.targetId) ?? r.last, last: r.last, estimate: r.estimate }));
}
