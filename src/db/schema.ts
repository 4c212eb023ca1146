import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Persistence of campaigns. Identity, relations and the columns queries filter on are real
 * columns; the rules engine's nested bookkeeping for an entity (march state, contact procedure,
 * weather counters) is a JSON column of that entity's row, so the engine can evolve without a
 * migration per field. The event log and the outbox are append-mostly tables.
 */
export const campaigns = sqliteTable('campaigns', {
  id: text('id').primaryKey(),
  guildId: text('guild_id').notNull(),
  channelId: text('channel_id').notNull(),
  name: text('name').notNull(),
  scenarioId: text('scenario_id').notNull(),
  /** The scenario document the campaign was created from (map and armies), JSON. */
  scenario: text('scenario', { mode: 'json' }).notNull(),
  ownerUserId: text('owner_user_id').notNull(),
  status: text('status', { enum: ['setup', 'running', 'paused', 'ended'] }).notNull(),
  season: text('season').notNull().default(''),
  settings: text('settings', { mode: 'json' }).notNull(),
  /** Game clock: day number and half period (0 morning .. 3 night). */
  clockDay: integer('clock_day').notNull(),
  clockHalf: integer('clock_half').notNull(),
  rng: text('rng', { mode: 'json' }).notNull(),
  nextId: integer('next_id').notNull().default(1),
  /** When the scheduler should run the next tick (ISO instant), null when not scheduled. */
  nextTickAt: text('next_tick_at'),
  /** Reminder for the current deadline already sent. */
  reminderSentFor: text('reminder_sent_for'),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
}, (t) => [index('campaigns_channel').on(t.guildId, t.channelId)]);

export const sides = sqliteTable('sides', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  hostileTo: text('hostile_to', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] })]);

export const armies = sqliteTable('armies', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  name: text('name').notNull(),
  commander: text('commander').notNull(),
  sideId: text('side_id').notNull(),
  /** Current hex as a CCRR id. */
  hex: text('hex').notNull(),
  formation: text('formation').notNull(),
  /** Army fields that are not rows of their own (movement class, sight, status, march state...). */
  data: text('data', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] })]);

export const regiments = sqliteTable('regiments', {
  campaignId: text('campaign_id').notNull(),
  armyId: text('army_id').notNull(),
  id: text('id').notNull(),
  ord: integer('ord').notNull(),
  name: text('name').notNull(),
  role: text('role', { enum: ['assault', 'support', 'reserve'] }).notNull(),
  originalFigures: integer('original_figures').notNull(),
  currentFigures: integer('current_figures').notNull(),
  /** Companies by troop type: [{troopType, basic, figures}]. */
  companies: text('companies', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.id] }), index('regiments_army').on(t.campaignId, t.armyId)]);

export const individuals = sqliteTable('individuals', {
  campaignId: text('campaign_id').notNull(),
  armyId: text('army_id').notNull(),
  id: text('id').notNull(),
  ord: integer('ord').notNull(),
  name: text('name').notNull(),
  kind: text('kind').notNull(),
  data: text('data', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.id] })]);

/** Who plays what: a user commanding an army, or a named co-referee. */
export const members = sqliteTable('members', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  armyId: text('army_id').notNull().default(''),
  role: text('role', { enum: ['commander', 'referee'] }).notNull(),
  displayName: text('display_name').notNull().default(''),
}, (t) => [primaryKey({ columns: [t.campaignId, t.userId, t.armyId, t.role] }), index('members_army').on(t.campaignId, t.armyId)]);

export const orders = sqliteTable('orders', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  armyId: text('army_id').notNull(),
  kind: text('kind').notNull(),
  givenBy: text('given_by').notNull(),
  data: text('data', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId] })]);

export const weather = sqliteTable('weather', {
  campaignId: text('campaign_id').primaryKey().references(() => campaigns.id, { onDelete: 'cascade' }),
  sky: text('sky').notNull(),
  fog: integer('fog', { mode: 'boolean' }).notNull(),
  wind: text('wind').notNull(),
  rainLevel: integer('rain_level').notNull(),
  data: text('data', { mode: 'json' }).notNull(),
});

export const contacts = sqliteTable('contacts', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  step: text('step').notNull(),
  armyIds: text('army_ids', { mode: 'json' }).notNull(),
  data: text('data', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] })]);

export const couriers = sqliteTable('couriers', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  status: text('status').notNull(),
  data: text('data', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] })]);

/**
 * Append-only event log: every state change, every die rolled, who did it and at what game time.
 * The audit trail, the chronicle's source, /intel's source (audience = an army) and undo's anchor.
 */
export const events = sqliteTable('events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  campaignId: text('campaign_id').notNull(),
  gameDay: integer('game_day').notNull(),
  gameHalf: integer('game_half').notNull(),
  type: text('type').notNull(),
  actorUserId: text('actor_user_id'),
  /** 'public' | 'referee' | 'army:<id>' */
  audience: text('audience').notNull(),
  text: text('text').notNull(),
  data: text('data', { mode: 'json' }),
  createdAt: text('created_at').notNull(),
}, (t) => [index('events_campaign').on(t.campaignId, t.id), index('events_audience').on(t.campaignId, t.audience)]);

/** Messages to deliver after commit (DMs and channel posts), with delivery status and retry. */
export const outboxMessages = sqliteTable('outbox_messages', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  campaignId: text('campaign_id').notNull(),
  to: text('to', { enum: ['dm', 'channel'] }).notNull(),
  userId: text('user_id'),
  channelId: text('channel_id'),
  content: text('content').notNull(),
  data: text('data', { mode: 'json' }),
  /** Files as [{name, path}] written under the data folder, or inline base64 for small ones. */
  files: text('files', { mode: 'json' }),
  buttons: text('buttons', { mode: 'json' }),
  status: text('status', { enum: ['pending', 'sent', 'dmClosed', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: text('next_attempt_at').notNull(),
  lastError: text('last_error'),
  /** Makes a message idempotent (a reminder sent once per deadline). */
  dedupeKey: text('dedupe_key'),
  createdAt: text('created_at').notNull(),
  deliveredAt: text('delivered_at'),
}, (t) => [index('outbox_due').on(t.status, t.nextAttemptAt), uniqueIndex('outbox_dedupe').on(t.dedupeKey)]);

/** One row per played half period: makes a tick idempotent across triggers and processes. */
export const ticks = sqliteTable('ticks', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  timeIndex: integer('time_index').notNull(),
  ranAt: text('ran_at').notNull(),
  /** The campaign state before the tick, for /turn undo. */
  snapshot: text('snapshot', { mode: 'json' }).notNull(),
  lastEventId: integer('last_event_id').notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.timeIndex] })]);

export const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
