import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { perConnection, readSoon, runUnanswered } from './prepared.js';
import type * as schema from './schema.js';

export interface Member {
  readonly userId: string;
  readonly armyId: string;
  readonly role: 'commander' | 'referee';
  readonly displayName: string;
}

const membersOf = perConnection((q, { members }) => q.select({ userId: members.userId, armyId: members.armyId, role: members.role, displayName: members.displayName })
  .from(members).where(eq(members.campaignId, sql.placeholder('campaignId')))
  // SQLite's own order (it walks members_army), written out so PostgreSQL gives the same.
  .orderBy(asc(members.armyId), asc(members.userId), asc(members.role)).prepare());

/** The campaign's members, by army id (referees, with no army, first), then user id. */
export function listMembers(db: Database, campaignId: string): Member[] {
  return membersOf(db).all({ campaignId });
}

/** `listMembers` will be read soon (prepared.ts `readSoon`). */
export function listMembersSoon(db: Database, campaignId: string): void {
  readSoon(membersOf(db), { campaignId });
}

const unassign = perConnection((q, { members }) => q.delete(members)
  .where(and(eq(members.campaignId, sql.placeholder('campaignId')), eq(members.armyId, sql.placeholder('armyId')), eq(members.role, 'commander'))).prepare());
const insertCommander = perConnection((q, { members }) => q.insert(members).values({
  campaignId: sql.placeholder('campaignId'), userId: sql.placeholder('userId'), armyId: sql.placeholder('armyId'), role: 'commander', displayName: sql.placeholder('displayName'),
}).prepare());

/** Makes `userId` the commander of `armyId`, replacing whoever held it. */
export function assignCommander(db: Database, campaignId: string, armyId: string, userId: string, displayName: string): void {
  runUnanswered(unassign(db), { campaignId, armyId });
  const row: typeof schema.members.$inferInsert = { campaignId, userId, armyId, role: 'commander', displayName };
  runUnanswered(insertCommander(db), row);
}

export function unassignArmy(db: Database, campaignId: string, armyId: string): void {
  runUnanswered(unassign(db), { campaignId, armyId });
}

const userCampaigns = perConnection((q, { campaigns, members }) => q.select({ id: campaigns.id, name: campaigns.name }).from(campaigns)
  .where(or(eq(campaigns.ownerUserId, sql.placeholder('userId')),
    inArray(campaigns.id, q.select({ id: members.campaignId }).from(members).where(eq(members.userId, sql.placeholder('userId'))))))
  .orderBy(asc(campaigns.createdAt), asc(campaigns.id)).prepare());

/** Campaigns a user owns or has a place in (commander or co-referee), with their names, oldest first. */
export function campaignsOfUser(db: Database, userId: string): { id: string; name: string }[] {
  return userCampaigns(db).all({ userId });
}
