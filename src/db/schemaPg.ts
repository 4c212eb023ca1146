import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, pgTable, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GameTime } from '../engine/clock/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { ContactRecord } from '../engine/state/index.js';
import type { LegacyFile, OutboxButton } from './schema.js';

/**
 * The PostgreSQL twin of schema.ts: the same tables, exported names, column keys and SQL names,
 * keys, foreign keys and indexes, and the same JS value in every column, so one set of repositories
 * runs on either store (tests/db/schemaParity.test.ts holds the two files equal). What each table
 * and column means is written in schema.ts; a change there is made here in the same commit, then
 * `npm run db:generate` writes both dialects' migrations.
 *
 * Two column types keep the stores byte-for-byte alike:
 * - every text column is `text COLLATE "C"`: ORDER BY and comparisons of ISO instants sort by
 *   bytes, as in SQLite, whatever locale the database was created with;
 * - a JSON column is that same text, written with JSON.stringify and read with JSON.parse exactly
 *   like sqlite-core's `text({ mode: 'json' })`: never `json`/`jsonb`, which would re-space or
 *   re-order keys and so change the journal's hash chain and the export.
 * SQLite's `integer({ mode: 'boolean' })` is a `boolean`, an autoincrement id an identity column, an
 * integer an `integer`, except `contact_estimates.ord`: a `bigint` (read as a JS number), because
 * its order numbers pass 2^31 by day 8 (SQLite's integers are 64-bit).
 */
const text = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

const json = customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value): unknown => JSON.parse(value),
});

/** A packed row's bytes (src/db/packedText.ts): SQLite's `blob({ mode: 'buffer' })`, a Buffer on both stores. */
const bytes = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value): Buffer => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

type Fields = object;

export const campaigns = pgTable('campaigns', {
  id: text('id').primaryKey(),
  guildId: text('guild_id').notNull(),
  channelId: text('channel_id').notNull(),
  name: text('name').notNull(),
  scenarioId: text('scenario_id').notNull(),
  scenario: json('scenario').$type<ScenarioDoc>().notNull(),
  ownerUserId: text('owner_user_id').notNull(),
  status: text('status').$type<'setup' | 'running' | 'paused' | 'ended'>().notNull(),
  season: text('season').notNull().default(''),
  settings: json('settings').notNull(),
  clockDay: integer('clock_day').notNull(),
  clockHalf: integer('clock_half').notNull(),
  rng: json('rng').notNull(),
  manualDice: json('manual_dice').notNull().default(sql`'{"nextId":1,"requests":[]}'`),
  nextId: integer('next_id').notNull().default(1),
  nextCourierId: integer('next_courier_id').notNull().default(1),
  nextTickAt: text('next_tick_at'),
  reminderSentFor: text('reminder_sent_for'),
  remindAt: text('remind_at'),
  stateVersion: integer('state_version').notNull().default(1),
  revision: integer('revision').notNull().default(0),
  heldDue: text('held_due'),
  deadlineExtensions: integer('deadline_extensions').notNull().default(0),
  deadlineExtensionMinutes: integer('deadline_extension_minutes').notNull().default(0),
  lastTickAt: text('last_tick_at'),
  catchUpAllowance: integer('catch_up_allowance').notNull().default(0),
  ready: json('ready').$type<readonly string[]>().notNull().default(sql`'[]'`),
  earlyFrom: text('early_from'),
  resumeAt: text('resume_at'),
  pauseReason: text('pause_reason'),
  reminded: json('reminded').$type<readonly string[]>().notNull().default(sql`'[]'`),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
}, (t) => [
  index('campaigns_channel').on(t.guildId, t.channelId),
  index('campaigns_due').on(t.status, t.nextTickAt),
  index('campaigns_remind').on(t.status, t.remindAt),
  index('campaigns_resume').on(t.status, t.resumeAt),
]);

export const sides = pgTable('sides', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  hostileTo: json('hostile_to').notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] })]);

export const armies = pgTable('armies', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  name: text('name').notNull(),
  commander: text('commander').notNull(),
  sideId: text('side_id').notNull(),
  hex: text('hex').notNull(),
  formation: text('formation').notNull(),
  data: json('data').$type<Fields>().notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] })]);

export const regiments = pgTable('regiments', {
  campaignId: text('campaign_id').notNull(),
  armyId: text('army_id').notNull(),
  id: text('id').notNull(),
  ord: integer('ord').notNull(),
  name: text('name').notNull(),
  role: text('role').$type<'assault' | 'support' | 'reserve'>().notNull(),
  originalFigures: integer('original_figures').notNull(),
  currentFigures: integer('current_figures').notNull(),
  companies: json('companies').$type<readonly Fields[]>().notNull(),
  data: json('data').$type<Fields>().notNull().default(sql`'{}'`),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.id] }), index('regiments_army').on(t.campaignId, t.armyId)]);

export const individuals = pgTable('individuals', {
  campaignId: text('campaign_id').notNull(),
  armyId: text('army_id').notNull(),
  id: text('id').notNull(),
  ord: integer('ord').notNull(),
  name: text('name').notNull(),
  kind: text('kind').notNull(),
  data: json('data').$type<Fields>().notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.id] })]);

export const members = pgTable('members', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  armyId: text('army_id').notNull().default(''),
  role: text('role').$type<'commander' | 'referee'>().notNull(),
  displayName: text('display_name').notNull().default(''),
}, (t) => [primaryKey({ columns: [t.campaignId, t.userId, t.armyId, t.role] }), index('members_army').on(t.campaignId, t.armyId)]);

export const notices = pgTable('notices', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  reminderMinutes: integer('reminder_minutes'),
  tickReport: text('tick_report').$type<'always' | 'changes' | 'never'>().notNull().default('changes'),
  orderConfirm: boolean('order_confirm').notNull().default(false),
}, (t) => [primaryKey({ columns: [t.campaignId, t.userId] })]);

export const orders = pgTable('orders', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  armyId: text('army_id').notNull(),
  kind: text('kind').notNull(),
  givenBy: text('given_by').notNull(),
  data: json('data').notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId] })]);

export const weather = pgTable('weather', {
  campaignId: text('campaign_id').primaryKey().references(() => campaigns.id, { onDelete: 'cascade' }),
  sky: text('sky').notNull(),
  fog: boolean('fog').notNull(),
  wind: text('wind').notNull(),
  rainLevel: integer('rain_level').notNull(),
  data: json('data').$type<Fields>().notNull(),
});

export const contacts = pgTable('contacts', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  step: text('step').notNull(),
  armyIds: json('army_ids').$type<readonly string[]>().notNull(),
  data: json('data').$type<ContactRecord>().notNull(),
  live: boolean('live').notNull().default(true),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] }), index('contacts_live').on(t.campaignId, t.live)]);

type ContactEstimate = NonNullable<ContactRecord['data']['estimates']>[string][string];

export const contactEstimates = pgTable('contact_estimates', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  armyId: text('army_id').notNull(),
  targetId: text('target_id').notNull(),
  contactId: text('contact_id').notNull(),
  ord: bigint('ord', { mode: 'number' }).notNull(),
  estimate: json('estimate').$type<ContactEstimate>().notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.targetId, t.contactId] }), index('contact_estimates_contact').on(t.campaignId, t.contactId)]);

export const couriers = pgTable('couriers', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  status: text('status').notNull(),
  data: json('data').notNull(),
  live: boolean('live').notNull().default(true),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] }), index('couriers_live').on(t.campaignId, t.live)]);

export const events = pgTable('events', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  campaignId: text('campaign_id').notNull(),
  gameDay: integer('game_day').notNull(),
  gameHalf: integer('game_half').$type<GameTime['half']>().notNull(),
  type: text('type').notNull(),
  actorUserId: text('actor_user_id'),
  audience: text('audience').notNull(),
  text: text('text'),
  data: json('data'),
  createdAt: text('created_at').notNull(),
  undone: boolean('undone').notNull().default(false),
  packed: bytes('packed'),
}, (t) => [
  index('events_campaign').on(t.campaignId, t.id), index('events_audience').on(t.campaignId, t.audience), index('events_type').on(t.campaignId, t.type),
  index('events_plain').on(t.createdAt).where(sql`(${t.packed} is null) and (${t.type} <> 'diceRolled') and (${t.type} <> 'diceSeedRevealed') and (${t.type} <> 'diceSeedCommitted')`),
]);

export const outboxMessages = pgTable('outbox_messages', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  campaignId: text('campaign_id').notNull(),
  to: text('to').$type<'dm' | 'channel'>().notNull(),
  userId: text('user_id'),
  channelId: text('channel_id'),
  content: text('content').notNull(),
  data: json('data'),
  files: json('files').$type<LegacyFile[]>(),
  pictures: json('pictures'),
  buttons: json('buttons').$type<OutboxButton[]>(),
  cards: json('cards'),
  mentions: json('mentions').$type<string[]>(),
  status: text('status').$type<'pending' | 'sent' | 'dmClosed' | 'failed'>().notNull(),
  partsSent: integer('parts_sent').notNull().default(0),
  nonce: text('nonce'),
  claimedBy: text('claimed_by'),
  leaseUntil: text('lease_until'),
  readAt: text('read_at'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: text('next_attempt_at').notNull(),
  lastError: text('last_error'),
  dedupeKey: text('dedupe_key'),
  createdAt: text('created_at').notNull(),
  deliveredAt: text('delivered_at'),
}, (t) => [
  index('outbox_due').on(t.status, t.nextAttemptAt),
  uniqueIndex('outbox_dedupe').on(t.dedupeKey),
  index('outbox_campaign').on(t.campaignId, t.status),
  index('outbox_pending').on(t.id).where(sql`${t.status} = 'pending'`),
  index('outbox_lane').on(t.to, sql`coalesce(${t.userId}, '')`, sql`coalesce(${t.channelId}, '')`, t.id).where(sql`${t.status} = 'pending'`),
]);

export const ticks = pgTable('ticks', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  timeIndex: integer('time_index').notNull(),
  ranAt: text('ran_at').notNull(),
  snapshot: json('snapshot').$type<object>(),
  stateVersion: integer('state_version').notNull().default(1),
  lastEventId: integer('last_event_id').notNull(),
  frame: json('frame'),
  framePacked: bytes('frame_packed'),
}, (t) => [primaryKey({ columns: [t.campaignId, t.timeIndex] }), index('ticks_plain_frame').on(t.ranAt).where(sql`${t.frame} is not null`)]);

export const knowledge = pgTable('knowledge', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  data: json('data').notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.key] })]);

export const interactionClaims = pgTable('interaction_claims', {
  id: text('id').primaryKey(),
  claimedAt: text('claimed_at').notNull(),
}, (t) => [index('interaction_claims_at').on(t.claimedAt)]);

export const journal = pgTable('journal', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  seq: integer('seq').notNull(),
  kind: text('kind').$type<'checkpoint' | 'entry'>().notNull(),
  invocation: integer('invocation').notNull(),
  at: text('at').notNull(),
  timeIndex: integer('time_index').notNull(),
  input: json('input'),
  dice: json('dice'),
  change: json('change'),
  stateVersion: integer('state_version').notNull(),
  packed: bytes('packed'),
}, (t) => [primaryKey({ columns: [t.campaignId, t.seq] }), index('journal_plain').on(t.at).where(sql`${t.packed} is null`)]);
