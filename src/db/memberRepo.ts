import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { perConnection } from './prepared.js';
import { campaigns, members } from './schema.js';

export interface Member {
  readonly userId: string;
  readonly armyId: string;
  readonly role: 'commander' | 'referee';
  readonly displayName: string;
}

const membersOf = perConnection((db) => db.select({ userId: members.userId, armyId: members.armyId, role: members.role, displayName: members.displayName })
  .from(members).where(eq(members.campaignId, sql.placeholder('campaignId'))).prepare());

export function listMembers(db: Database, campaignId: string): Member[] {
  return membersOf(db).all({ campaignId });
}

/** Makes `userId` the commander of `armyId`, replacing whoever held it. */
export function assignCommander(db: Database, campaignId: string, armyId: string, userId: string, displayName: string): void {
  db.delete(members).where(and(eq(members.campaignId, campaignId), eq(members.armyId, armyId), eq(members.role, 'commander'))).run();
  db.insert(members).values({ campaignId, userId, armyId, role: 'commander', displayName }).run();
}

export function unassignArmy(db: Database, campaignId: string, armyId: string): void {
  db.delete(members).where(and(eq(members.campaignId, campaignId), eq(members.armyId, armyId), eq(members.role, 'commander'))).run();
}

const userCampaigns = perConnection((db) => db.select({ id: campaigns.id, name: campaigns.name }).from(campaigns)
  .where(or(eq(campaigns.ownerUserId, sql.placeholder('userId')),
    inArray(campaigns.id, db.select({ id: members.campaignId }).from(members).where(eq(members.userId, sql.placeholder('userId'))))))
  .orderBy(asc(campaigns.createdAt), asc(campaigns.id)).prepare());

/** Campaigns a user owns or has a place in (commander or co-referee), with their names, oldest first. */
export function campaignsOfUser(db: Database, userId: string): { id: string; name: string }[] {
  return userCampaigns(db).all({ userId });
}
