import { and, eq } from 'drizzle-orm';
import type { Database } from './client.js';
import { members } from './schema.js';

export interface Member {
  readonly userId: string;
  readonly armyId: string;
  readonly role: 'commander' | 'referee';
  readonly displayName: string;
}

export function listMembers(db: Database, campaignId: string): Member[] {
  return db.select().from(members).where(eq(members.campaignId, campaignId)).all()
    .map((m) => ({ userId: m.userId, armyId: m.armyId, role: m.role, displayName: m.displayName }));
}

/** Makes `userId` the commander of `armyId`, replacing whoever held it. */
export function assignCommander(db: Database, campaignId: string, armyId: string, userId: string, displayName: string): void {
  db.delete(members).where(and(eq(members.campaignId, campaignId), eq(members.armyId, armyId), eq(members.role, 'commander'))).run();
  db.insert(members).values({ campaignId, userId, armyId, role: 'commander', displayName }).run();
}

export function unassignArmy(db: Database, campaignId: string, armyId: string): void {
  db.delete(members).where(and(eq(members.campaignId, campaignId), eq(members.armyId, armyId), eq(members.role, 'commander'))).run();
}
