import { and, count, desc, eq, gt, isNull, lte, ne, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { CampaignState, ContactRecord } from '../engine/state/index.js';
import type { Database, Orm, Tables } from './client.js';
import { jsonArrayHas } from './dialectSql.js';
import { bound, oneOff, perConnection, queryPlan, runUnanswered } from './prepared.js';
import type * as schema from './schema.js';

import { lastJournalSeqSoon } from './journalRepo.js';
import { listMembersSoon } from './memberRepo.js';
import { listNoticesSoon } from './noticeRepo.js';
import { undeliveredSoon } from './outboxRepo.js';
import { tickPlayedSoon } from './tickRepo.js';
import { lastEventIdSoon } from './eventRepo.js';
import { stateRevisionSoon } from './stateRepo.js';

export { campaignPulses, insertCampaign, loadState, saveState, stateRevision, type CampaignPulse } from './stateRepo.js';

/**
 * The reads that open a campaign for a use-case (src/app/unitOfWork.ts: its state's revision and
 * its members) will come soon: on PostgreSQL they go with the next statement, in one round trip
 * (prepared.ts `readSoon`); on SQLite nothing happens. Called under the campaign's hold, before
 * the transaction writes.
 */
export function openingReadsSoon(db: Database, id: string): void {
  stateRevisionSoon(db, id);
  listMembersSoon(db, id);
}

/**
 * What a write transaction on the campaign reads later, after its first writes (the journal's
 * last number, everyone's `/notify` choices): on PostgreSQL they go with the opening reads, and
 * their answers hold until the transaction writes the table they read (src/db/pg/bridge.ts).
 * Called under the campaign's hold.
 */
export function writeReadsSoon(db: Database, id: string): void {
  openingReadsSoon(db, id);
  lastJournalSeqSoon(db, id);
  listNoticesSoon(db, id);
}

/**
 * What a transaction that may play a tick reads after it opens (whether the half period was
 * played, `playedIndex`, when the caller can tell which; the undelivered messages the referee's
 * waiting line counts; the last event id the tick's record keeps): on PostgreSQL they go with the
 * hold and the opening reads, so a tick's transaction is two round trips. Called under the hold.
 */
export function tickReadsSoon(db: Database, id: string, playedIndex: number | undefined): void {
  if (playedIndex !== undefined) tickPlayedSoon(db, id, playedIndex);
  undeliveredSoon(db, id);
  lastEventIdSoon(db, id);
}

/**
 * What the scheduler and the delivery decide from, kept in columns (never read back from the event
 * log): when the next tick is due, reminders, a tick held by a battle, deadline extensions.
 */
export interface CampaignControl {
  readonly nextTickAt: string | null;
  readonly reminderSentFor: string | null;
  /** When the reminders for the current deadline are due; null when there are none to send. */
  readonly remindAt: string | null;
  /** The due instant a pending battle holds. */
  readonly heldDue: string | null;
  readonly deadlineExtensions: number;
  readonly deadlineExtensionMinutes: number;
  /** Wall-clock time of the last tick played: nothing is ever scheduled before it. */
  readonly lastTickAt: string | null;
  /** Missed ticks the referee allowed to be played after a catch-up pause. */
  readonly catchUpAllowance: number;
  /** Commanders (user ids) who said they are ready for the current half period. */
  readonly ready: readonly string[];
  /** When an early tick is due (everyone ready): the scheduled due time it replaced. */
  readonly earlyFrom: string | null;
  /** When a referee's pause ends by itself (null: until resumed). */
  readonly resumeAt: string | null;
  /** Why the referee paused the campaign. */
  readonly pauseReason: string | null;
  /** Commanders (user ids) already reminded for the current half period (each at their own `/notify` lead). */
  readonly reminded: readonly string[];
}

/** Where a campaign lives on Discord (or the console), who owns it, and its control columns. */
export interface CampaignMeta extends CampaignControl {
  readonly id: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly ownerUserId: string;
  readonly status: CampaignState['status'];
  readonly createdAt: string;
}

type Campaigns = typeof schema.campaigns;

/** The columns of `campaigns` that make a CampaignMeta (never the scenario document). */
const metaOf = (c: Campaigns) => ({
  id: c.id, guildId: c.guildId, channelId: c.channelId, ownerUserId: c.ownerUserId, status: c.status, createdAt: c.createdAt,
  nextTickAt: c.nextTickAt, reminderSentFor: c.reminderSentFor, remindAt: c.remindAt, heldDue: c.heldDue,
  deadlineExtensions: c.deadlineExtensions, deadlineExtensionMinutes: c.deadlineExtensionMinutes, lastTickAt: c.lastTickAt,
  catchUpAllowance: c.catchUpAllowance, ready: c.ready, earlyFrom: c.earlyFrom, resumeAt: c.resumeAt, pauseReason: c.pauseReason, reminded: c.reminded,
});

const inChannel = perConnection((q, { campaigns: c }) => q.select(metaOf(c)).from(c)
  .where(and(eq(c.guildId, sql.placeholder('guildId')), eq(c.channelId, sql.placeholder('channelId')), ne(c.status, 'ended'))).prepare());

export function findCampaignInChannel(conn: Database, guildId: string, channelId: string): CampaignMeta | undefined {
  return inChannel(conn).get({ guildId, channelId });
}

/**
 * The campaign that ended last in a channel (the newest created of its ended ones): what an export
 * after `/campaign end` reads while no new campaign holds the channel. Rare, so not kept prepared.
 */
export function findEndedCampaignInChannel(conn: Database, guildId: string, channelId: string): CampaignMeta | undefined {
  return oneOff(conn, (q, { campaigns: c }) => q.select(metaOf(c)).from(c)
    .where(and(eq(c.guildId, sql.placeholder('guildId')), eq(c.channelId, sql.placeholder('channelId')), eq(c.status, 'ended')))
    .orderBy(desc(c.createdAt)).limit(1).prepare()).get({ guildId, channelId });
}

const metaById = perConnection((q, { campaigns: c }) => q.select(metaOf(c)).from(c).where(eq(c.id, sql.placeholder('id'))).prepare());

export function getCampaignMeta(conn: Database, id: string): CampaignMeta | undefined {
  return metaById(conn).get({ id });
}

/** The id and guild of every campaign the database holds (the export's background builder: src/app/campaign/exportKeep.ts). */
export function allCampaignIds(db: Database): { id: string; guildId: string }[] {
  return oneOff(db, (q, { campaigns: c }) => q.select({ id: c.id, guildId: c.guildId }).from(c).prepare()).all();
}

/** How many campaigns the database holds, by status (logged at start). */
export function countCampaigns(db: Database): Record<string, number> {
  const rows = oneOff(db, (q, { campaigns: c }) => q.select({ status: c.status, n: count() }).from(c).groupBy(c.status).prepare()).all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** A running campaign the scheduler may have to act on. */
export interface ScheduledCampaign {
  readonly id: string;
  readonly guildId: string;
  readonly nextTickAt: string | null;
}

const scheduledOf = (c: Campaigns) => ({ id: c.id, guildId: c.guildId, nextTickAt: c.nextTickAt });

// Two index searches (campaigns_due), not one `or`, which SQLite answers by walking every running
// campaign: 41 ms a minute at 10,000 idle campaigns, against 0.08 ms this way.
const dueScan = (q: Orm, c: Campaigns, now: string | Placeholder) => q.select(scheduledOf(c)).from(c).where(and(eq(c.status, 'running'), isNull(c.nextTickAt)))
  .unionAll(q.select(scheduledOf(c)).from(c).where(and(eq(c.status, 'running'), lte(c.nextTickAt, now))))
  .orderBy(c.nextTickAt);
const due = perConnection((q, t) => dueScan(q, t.campaigns, sql.placeholder('now')).prepare());

/** Running campaigns whose next tick is due at `nowIso` (or was never scheduled), never scheduled first, then oldest due first. */
export function dueCampaigns(conn: Database, nowIso: string): ScheduledCampaign[] {
  return due(conn).all({ now: nowIso });
}

/** How SQLite runs the due scan (EXPLAIN QUERY PLAN, one line a step): which indexes it walks. */
export function dueCampaignsPlan(conn: Database): string[] {
  return queryPlan(conn, dueScan(conn.orm, conn.tables.campaigns, ''));
}

const dueBetween = perConnection((q, { campaigns: c }) => q.select(scheduledOf(c)).from(c)
  .where(and(eq(c.status, 'running'), gt(c.nextTickAt, sql.placeholder('from')), lte(c.nextTickAt, sql.placeholder('to')))).orderBy(c.nextTickAt).prepare());

/** Running campaigns whose next tick is due after `fromIso` and at or before `toIso`, soonest first. */
export function campaignsDueBetween(conn: Database, fromIso: string, toIso: string): ScheduledCampaign[] {
  return dueBetween(conn).all({ from: fromIso, to: toIso });
}

const remindable = perConnection((q, { campaigns: c }) => q.select(scheduledOf(c)).from(c)
  .where(and(eq(c.status, 'running'), lte(c.remindAt, sql.placeholder('now')), or(isNull(c.reminderSentFor), ne(c.reminderSentFor, c.nextTickAt)))).prepare());

/** Running campaigns whose reminders are due at `nowIso` and not yet sent for the current deadline. */
export function remindableCampaigns(conn: Database, nowIso: string): ScheduledCampaign[] {
  return remindable(conn).all({ now: nowIso });
}

const resumable = perConnection((q, { campaigns: c }) => q.select(scheduledOf(c)).from(c)
  .where(and(eq(c.status, 'paused'), lte(c.resumeAt, sql.placeholder('now')))).orderBy(c.resumeAt).prepare());

/** Campaigns paused by the referee until a time that has come (`nowIso`): they resume by themselves. */
export function resumableCampaigns(conn: Database, nowIso: string): ScheduledCampaign[] {
  return resumable(conn).all({ now: nowIso });
}

const CONTROL_KEYS: readonly (keyof CampaignControl)[] = [
  'catchUpAllowance', 'deadlineExtensionMinutes', 'deadlineExtensions', 'earlyFrom', 'heldDue', 'lastTickAt', 'nextTickAt',
  'pauseReason', 'ready', 'remindAt', 'reminded', 'reminderSentFor', 'resumeAt',
];

/** One update statement per set of control columns written together (a handful in all), prepared once each. */
const controlUpdates = perConnection(() => new Map<string, ReturnType<typeof buildControlUpdate>>());

function buildControlUpdate(db: Database, keys: readonly (keyof CampaignControl)[]) {
  return oneOff(db, (q, { campaigns: c }) => {
    const set = Object.fromEntries(keys.map((k) => [k, bound(c[k], k)]));
    return q.update(c).set(set).where(eq(c.id, sql.placeholder('id'))).prepare();
  });
}

export function setControl(conn: Database, id: string, patch: Partial<CampaignControl>): void {
  const keys = CONTROL_KEYS.filter((k) => patch[k] !== undefined);
  if (keys.length === 0) return;
  const cache = controlUpdates(conn);
  const name = keys.join(',');
  let update = cache.get(name);
  if (!update) {
    update = buildControlUpdate(conn, keys);
    cache.set(name, update);
  }
  runUnanswered(update, { ...patch, id });
}

const scenarioTextOf = perConnection((q, { campaigns: c }) => q.select({ text: sql<string>`${c.scenario}` }).from(c).where(eq(c.id, sql.placeholder('id'))).prepare());

/** The campaign's scenario document as stored (its JSON text, not parsed): hashing it finds a copy already parsed. */
export function scenarioText(db: Database, id: string): string | undefined {
  return scenarioTextOf(db).get({ id })?.text;
}

/**
 * Contact records that have left the live state (closed), oldest first; with `armyId`, only those
 * the army took part in. The live ones are in the state.
 */
const closedOf = (q: Orm, t: Tables, mine?: SQL) => q.select({ data: t.contacts.data }).from(t.contacts)
  .where(and(eq(t.contacts.campaignId, sql.placeholder('campaignId')), eq(t.contacts.live, false), mine)).prepare();
const closedAll = perConnection((q, t) => closedOf(q, t));
// The army filter runs in the database, so only that army's records are parsed (a season holds hundreds).
const closedMine = perConnection((q, t, db) => closedOf(q, t, jsonArrayHas(db, t.contacts.armyIds, sql.placeholder('armyId'))));

export function closedContacts(db: Database, campaignId: string, armyId?: string): ContactRecord[] {
  const rows = armyId === undefined ? closedAll(db).all({ campaignId }) : closedMine(db).all({ campaignId, armyId });
  return rows.map((r) => r.data);
}

// Each closed record's stored text as its UTF-8 bytes: no JS string made of megabytes and encoded again (the export).
const closedBytes = perConnection((q, t, db) => q.select({ id: t.contacts.id, data: db.dialect === 'sqlite' ? sql<Uint8Array>`cast(${t.contacts.data} as blob)` : sql<Uint8Array>`convert_to(${t.contacts.data}::text, 'UTF8')` }).from(t.contacts)
  .where(and(eq(t.contacts.campaignId, sql.placeholder('campaignId')), eq(t.contacts.live, false))).prepare());

/** The closed contacts' ids and stored texts as UTF-8 bytes, in `closedContactsJson`'s order (the export keeps runs of them compressed). */
export function closedContactBytes(db: Database, campaignId: string): { id: string; data: Buffer }[] {
  return closedBytes(db).all({ campaignId }).map((r) => ({ id: r.id, data: Buffer.isBuffer(r.data) ? r.data : Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength) }));
}

/** `closedContacts` as one JSON array written from the stored text, no record parsed (the export: a season holds megabytes of them). */
export function closedContactsJson(db: Database, campaignId: string): string {
  return `[${closedContactBytes(db, campaignId).map((r) => r.data.toString('utf8')).join(',')}]`;
}

// Only the ids: a closed record never changes (it is added or taken away), so its id stands for it.
const closedIdsMine = perConnection((q, t, db) => q.select({ id: t.contacts.id }).from(t.contacts)
  .where(and(eq(t.contacts.campaignId, sql.placeholder('campaignId')), eq(t.contacts.live, false), jsonArrayHas(db, t.contacts.armyIds, sql.placeholder('armyId')))).prepare());

/**
 * The ids of the closed contacts an army took part in, sorted, without parsing a record (the web
 * page's reader key, worked out on every request: parsing the records was 60 % of it on a long campaign).
 */
export function closedContactIds(db: Database, campaignId: string, armyId: string): string[] {
  return closedIdsMine(db).all({ campaignId, armyId }).map((r) => r.id).sort();
}

const deleteRows = perConnection((q, t) => [t.regiments, t.individuals, t.events, t.outboxMessages, t.campaigns]
  .map((table) => q.delete(table).where(eq('campaignId' in table ? table.campaignId : table.id, sql.placeholder('id'))).prepare()));

export function deleteCampaign(db: Database, id: string): void {
  for (const statement of deleteRows(db)) statement.run({ id });
}
