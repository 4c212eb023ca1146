import { and, eq } from 'drizzle-orm';
import type { Database } from './client.js';
import { prepared } from './prepared.js';
import { members } from './schema.js';

export interface Member {
  readonly userId: string;
  readonly armyId: string;
  readonly role: 'commander' | 'referee';
  readonly displayName: string;
}

export function listMembers(db: Database, campaignId: string): Member[] {
  return prepared(db, 'select user_id as userId, army_id as armyId, role, display_name as displayName from members where campaign_id = ?').all(campaignId) as Member[];
}

/** Makes `userId` the commander of `armyId`, replacing whoever held it. */
export function assignCommander(db: Database, campaignId: string, armyId: string, userId: string, displayName: string): void {
  db.delete(members).where(and(eq(members.campaignId, campaignId), eq(members.armyId, armyId), eq(members.role, 'commander'))).run();
  db.insert(members).values({ campaignId, userId, armyId, role: 'commander', displayName }).run();
}

export function unassignArmy(db: Database, campaignId: string, armyId: string): void {
  db.delete(members).where(and(eq(members.campaignId, campaignId), eq(members.armyId, armyId), eq(members.role, 'commander'))).run();
}

/** Campaigns a user owns or has a place in (commander or co-referee), with their names, oldest first. */
export function campaignsOfUser(db: Database, userId: string): { id: string; name: string }[] {
  return prepared(db, `select id, name from campaigns where owner_user_id = ?
    or id in (select campaign_id from members where user_id = ?) order by created_at, id`).all(userId, userId) as { id: string; name: string }[];
}
