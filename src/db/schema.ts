import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { GameTime } from '../engine/clock/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { ContactRecord } from '../engine/state/index.js';

/**
 * JSON columns carry the type of what is stored in them (`$type`), so every read and write is
 * checked by the compiler against this file: no row is typed by hand and nothing is cast in
 * src/db. An entity's `data` column holds its other fields as a plain object.
 */
type Fields = object;

/** A file as versions before pictures stored it (base64 inline). Read for old pending rows only. */
export interface LegacyFile {
  readonly name: string;
  readonly base64: string;
}

/** A button under a message, as the app queued it. */
export interface OutboxButton {
  id: string;
  label: string;
  style?: string;
  command?: string;
}

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
  scenario: text('scenario', { mode: 'json' }).$type<ScenarioDoc>().notNull(),
  ownerUserId: text('owner_user_id').notNull(),
  status: text('status', { enum: ['setup', 'running', 'paused', 'ended'] }).notNull(),
  season: text('season').notNull().default(''),
  settings: text('settings', { mode: 'json' }).notNull(),
  /** Game clock: day number and half period (0 morning .. 3 night). */
  clockDay: integer('clock_day').notNull(),
  clockHalf: integer('clock_half').notNull(),
  /** The dice: the period in use, its secret seed and the next one's (docs/dice.md). */
  rng: text('rng', { mode: 'json' }).notNull(),
  /** Manual rolls asked for and not yet used (src/engine/dice/manual.ts). */
  manualDice: text('manual_dice', { mode: 'json' }).notNull().default(sql`'{"nextId":1,"requests":[]}'`),
  nextId: integer('next_id').notNull().default(1),
  /** The couriers' own id counter (state version 4; older rows are upgraded from next_id). */
  nextCourierId: integer('next_courier_id').notNull().default(1),
  /** When the scheduler should run the next tick (ISO instant), null when not scheduled. */
  nextTickAt: text('next_tick_at'),
  /** Reminder for the current deadline already sent. */
  reminderSentFor: text('reminder_sent_for'),
  /** When the reminders for the current deadline are due (the deadline minus the lead), null for none. */
  remindAt: text('remind_at'),
  /** The shape version of the state in this campaign's rows (src/engine/campaign/upgrade.ts). */
  stateVersion: integer('state_version').notNull().default(1),
  /**
   * Bumped by every write of the campaign's state (saveState): a process keeps an in-memory copy of
   * a state only with the revision it was read or written at, and uses it only while the stored
   * revision is the same (src/app/stateCache.ts), so another process's write is never missed.
   */
  revision: integer('revision').notNull().default(0),
  /** The due instant a battle holds (the tick waits for its result), null when none is held. */
  heldDue: text('held_due'),
  /** Extensions of the current deadline: how many, and minutes in all (reset by each tick). */
  deadlineExtensions: integer('deadline_extensions').notNull().default(0),
  deadlineExtensionMinutes: integer('deadline_extension_minutes').notNull().default(0),
  /** When the last tick was played (wall clock): no due time is ever scheduled before it. */
  lastTickAt: text('last_tick_at'),
  /** Missed ticks the referee allowed to be played after a catch-up pause. */
  catchUpAllowance: integer('catch_up_allowance').notNull().default(0),
  /** Commanders (user ids, JSON array) who said `/ready` for the current half period; emptied by each tick. */
  ready: text('ready', { mode: 'json' }).$type<readonly string[]>().notNull().default(sql`'[]'`),
  /** An early tick is due (everyone ready): the scheduled due time it replaced, null when none. */
  earlyFrom: text('early_from'),
  /** A referee's pause ends by itself at this instant (null: until resumed). */
  resumeAt: text('resume_at'),
  /** Why the referee paused the campaign (shown in /turn status), null when none was given. */
  pauseReason: text('pause_reason'),
  /** Commanders (user ids, JSON array) already reminded for the current half period; emptied by each tick. */
  reminded: text('reminded', { mode: 'json' }).$type<readonly string[]>().notNull().default(sql`'[]'`),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
}, (t) => [
  index('campaigns_channel').on(t.guildId, t.channelId),
  index('campaigns_due').on(t.status, t.nextTickAt),
  index('campaigns_remind').on(t.status, t.remindAt),
  index('campaigns_resume').on(t.status, t.resumeAt),
]);

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
  data: text('data', { mode: 'json' }).$type<Fields>().notNull(),
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
  /** Companies by troop type: [{troopType, basic, figures, ...}]. */
  companies: text('companies', { mode: 'json' }).$type<readonly Fields[]>().notNull(),
  /** The regiment's other fields (its speed, ...): everything but the columns above, so no field is lost. */
  data: text('data', { mode: 'json' }).$type<Fields>().notNull().default(sql`'{}'`),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.id] }), index('regiments_army').on(t.campaignId, t.armyId)]);

export const individuals = sqliteTable('individuals', {
  campaignId: text('campaign_id').notNull(),
  armyId: text('army_id').notNull(),
  id: text('id').notNull(),
  ord: integer('ord').notNull(),
  name: text('name').notNull(),
  kind: text('kind').notNull(),
  data: text('data', { mode: 'json' }).$type<Fields>().notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.id] })]);

/** Who plays what: a user commanding an army, or a named co-referee. */
export const members = sqliteTable('members', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  armyId: text('army_id').notNull().default(''),
  role: text('role', { enum: ['commander', 'referee'] }).notNull(),
  displayName: text('display_name').notNull().default(''),
}, (t) => [primaryKey({ columns: [t.campaignId, t.userId, t.armyId, t.role] }), index('members_army').on(t.campaignId, t.armyId)]);

/**
 * Each person's notices in a campaign (`/notify`): the reminder's lead (null: the campaign's
 * `reminder-lead`; 0: none), the tick report (always, only when something happened to their
 * armies, never) and whether storing an order is confirmed by DM. No row: the defaults.
 */
export const notices = sqliteTable('notices', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  reminderMinutes: integer('reminder_minutes'),
  tickReport: text('tick_report', { enum: ['always', 'changes', 'never'] }).notNull().default('changes'),
  orderConfirm: integer('order_confirm', { mode: 'boolean' }).notNull().default(false),
}, (t) => [primaryKey({ columns: [t.campaignId, t.userId] })]);

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
  data: text('data', { mode: 'json' }).$type<Fields>().notNull(),
});

export const contacts = sqliteTable('contacts', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  step: text('step').notNull(),
  armyIds: text('army_ids', { mode: 'json' }).$type<readonly string[]>().notNull(),
  data: text('data', { mode: 'json' }).$type<ContactRecord>().notNull(),
  /** In the live state (1), or closed and kept only as a record for /intel, the chronicle and export (0). */
  live: integer('live', { mode: 'boolean' }).notNull().default(true),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] }), index('contacts_live').on(t.campaignId, t.live)]);

/** One estimate a force made of another in a contact: `ContactRecord.data.estimates[observer][target]`. */
type ContactEstimate = NonNullable<ContactRecord['data']['estimates']>[string][string];

/**
 * The estimates of the closed contacts, one row per observer, target and contact: what a
 * commander's map shows of the enemies their armies met is the newest estimate per target, read by
 * index whatever the campaign's age (src/db/contactEstimateRepo.ts), never by parsing every closed
 * record. Written when a contact closes, deleted when it is reopened (undo): the rows always mirror
 * the closed records of `contacts`, for the observers still taking part (`army_ids`).
 */
export const contactEstimates = sqliteTable('contact_estimates', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  armyId: text('army_id').notNull(),
  targetId: text('target_id').notNull(),
  contactId: text('contact_id').notNull(),
  /** The record's order (opened day, half, contact number) and the estimate's place in it, as one number. */
  ord: integer('ord').notNull(),
  estimate: text('estimate', { mode: 'json' }).$type<ContactEstimate>().notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.armyId, t.targetId, t.contactId] }), index('contact_estimates_contact').on(t.campaignId, t.contactId)]);

export const couriers = sqliteTable('couriers', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  status: text('status').notNull(),
  data: text('data', { mode: 'json' }).notNull(),
  /** On the map (1), or delivered or captured and kept only as a record (0). */
  live: integer('live', { mode: 'boolean' }).notNull().default(true),
}, (t) => [primaryKey({ columns: [t.campaignId, t.id] }), index('couriers_live').on(t.campaignId, t.live)]);

/**
 * Append-only event log: every state change, every die rolled, who did it and at what game time.
 * The audit trail, the chronicle's source, /intel's source (audience = an army) and undo's anchor.
 */
export const events = sqliteTable('events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  campaignId: text('campaign_id').notNull(),
  gameDay: integer('game_day').notNull(),
  gameHalf: integer('game_half').$type<GameTime['half']>().notNull(),
  type: text('type').notNull(),
  actorUserId: text('actor_user_id'),
  /** 'public' | 'referee' | 'army:<id>' */
  audience: text('audience').notNull(),
  /** The sentence; NULL once packed (then in `packed`). */
  text: text('text'),
  data: text('data', { mode: 'json' }),
  createdAt: text('created_at').notNull(),
  /** Set when `/turn undo` withdrew the tick this event belongs to; the event stays for the audit. */
  undone: integer('undone', { mode: 'boolean' }).notNull().default(false),
  /** A cold event's data and text, packed (src/db/packedText.ts); NULL while the row is plain. */
  packed: blob('packed', { mode: 'buffer' }),
}, (t) => [
  index('events_campaign').on(t.campaignId, t.id), index('events_audience').on(t.campaignId, t.audience), index('events_type').on(t.campaignId, t.type),
  // The events still plain that may be packed, oldest first (src/app/packCold.ts): the dice events stay plain (their data is filtered on).
  index('events_plain').on(t.createdAt).where(sql`(${t.packed} is null) and (${t.type} <> 'diceRolled') and (${t.type} <> 'diceSeedRevealed') and (${t.type} <> 'diceSeedCommitted')`),
]);

/**
 * Messages to deliver after commit (DMs and channel posts), with delivery status and retry. A
 * picture is stored as the view to draw (small JSON), drawn and encoded by the delivery worker at
 * send time: no image bytes are kept. A worker claims an item (claimed_by, lease_until) before it
 * sends it, so several processes on one database never send one item twice.
 */
export const outboxMessages = sqliteTable('outbox_messages', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  campaignId: text('campaign_id').notNull(),
  to: text('to', { enum: ['dm', 'channel'] }).notNull(),
  userId: text('user_id'),
  channelId: text('channel_id'),
  content: text('content').notNull(),
  data: text('data', { mode: 'json' }),
  /** Legacy: files as inline base64, written by versions before pictures; never written now. */
  files: text('files', { mode: 'json' }).$type<LegacyFile[]>(),
  /** Pictures to draw at send time: [{kind: 'map' | 'sketch', name, ...view}]. */
  pictures: text('pictures', { mode: 'json' }),
  buttons: text('buttons', { mode: 'json' }).$type<OutboxButton[]>(),
  /** Cards (titled, structured parts: Discord embeds, console text) as the app built them: [{title, colour, description, fields, footer}]. */
  cards: text('cards', { mode: 'json' }),
  /** User ids the message is meant to ping; nothing else in it ever pings (names are free text). */
  mentions: text('mentions', { mode: 'json' }).$type<string[]>(),
  status: text('status', { enum: ['pending', 'sent', 'dmClosed', 'failed'] }).notNull(),
  /** Parts of a split message already delivered (a retry sends only the rest). */
  partsSent: integer('parts_sent').notNull().default(0),
  /** Stable id sent with every part as Discord's nonce (with the part number), so a retry is never posted twice. */
  nonce: text('nonce'),
  /** The delivery worker that claimed the item, and until when its claim holds. */
  claimedBy: text('claimed_by'),
  leaseUntil: text('lease_until'),
  /** When a kept (undeliverable) DM was read with /intel. */
  readAt: text('read_at'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: text('next_attempt_at').notNull(),
  lastError: text('last_error'),
  /** Makes a message idempotent (a reminder sent once per deadline). */
  dedupeKey: text('dedupe_key'),
  createdAt: text('created_at').notNull(),
  deliveredAt: text('delivered_at'),
}, (t) => [
  index('outbox_due').on(t.status, t.nextAttemptAt),
  uniqueIndex('outbox_dedupe').on(t.dedupeKey),
  index('outbox_campaign').on(t.campaignId, t.status),
  // The claim walks pending messages oldest first (outbox_pending) and asks, for each, whether an
  // older one to the same destination is still pending (outbox_lane): both index lookups, so a
  // claim costs O(log n) per message looked at, whatever the number of sent rows kept.
  index('outbox_pending').on(t.id).where(sql`${t.status} = 'pending'`),
  index('outbox_lane').on(t.to, sql`coalesce(${t.userId}, '')`, sql`coalesce(${t.channelId}, '')`, t.id).where(sql`${t.status} = 'pending'`),
]);

/** One row per played half period: makes a tick idempotent across triggers and processes. */
export const ticks = sqliteTable('ticks', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  timeIndex: integer('time_index').notNull(),
  ranAt: text('ran_at').notNull(),
  /** The campaign state before the tick, for /turn undo; dropped once the tick leaves the undo window. */
  snapshot: text('snapshot', { mode: 'json' }).$type<object>(),
  /** The shape version of the snapshot. */
  stateVersion: integer('state_version').notNull().default(1),
  lastEventId: integer('last_event_id').notNull(),
  /**
   * Where every army stood after the tick (the map view with every position, and whether positions
   * were public then): the campaign book's maps and the time-lapse's frames. Kept for the campaign's life.
   */
  frame: text('frame', { mode: 'json' }),
  /** The frame once packed (src/db/packedText.ts; `frame` is then NULL). */
  framePacked: blob('frame_packed', { mode: 'buffer' }),
}, (t) => [
  primaryKey({ columns: [t.campaignId, t.timeIndex] }),
  // The frames still plain, oldest first (src/app/packCold.ts packs those out of the undo window).
  index('ticks_plain_frame').on(t.ranAt).where(sql`${t.frame} is not null`),
]);

/**
 * What armies know of the others' positions (fog of war): one row per army's memory
 * (`army:<id>`) and per report riding with a courier (`report:<courier id>`); and the plans
 * armies follow (`plan:<army id>`, src/engine/plans), referee-only like the rest of this table.
 */
export const knowledge = sqliteTable('knowledge', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  data: text('data', { mode: 'json' }).notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.key] })]);

/**
 * Interactions taken by a process: Discord gives an event to every session on a shard (two
 * instances on one token during a deploy overlap), and the first process to record the id runs
 * it; the others leave it alone. Rows older than a day are pruned (an interaction lives 15 minutes).
 */
export const interactionClaims = sqliteTable('interaction_claims', {
  id: text('id').primaryKey(),
  claimedAt: text('claimed_at').notNull(),
}, (t) => [index('interaction_claims_at').on(t.claimedAt)]);

/**
 * The campaign's journal: what replays it (docs/replay.md). One row per write transaction that
 * changed the campaign: the invocation that made it (a command with the options it read, a button,
 * a tick), the actor, the clock it used, the dice it drew, and the change to the state (a list of
 * path operations); or a checkpoint (the whole state: at creation, at an upgrade of the stored
 * shape, or when a campaign from before the journal is first changed). Written in the
 * transaction it records (src/app/journal).
 */
export const journal = sqliteTable('journal', {
  campaignId: text('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  seq: integer('seq').notNull(),
  /** 'checkpoint' | 'entry' */
  kind: text('kind', { enum: ['checkpoint', 'entry'] }).notNull(),
  /** Entries made by one invocation (a command that runs several transactions) share its number. */
  invocation: integer('invocation').notNull(),
  at: text('at').notNull(),
  /** The game time index the transaction started at. */
  timeIndex: integer('time_index').notNull(),
  /** What to run again (JSON): a command, a button, a tick; null when nothing replayable was known. */
  input: text('input', { mode: 'json' }),
  /** The dice drawn, in order (JSON). */
  dice: text('dice', { mode: 'json' }),
  /** A checkpoint: the whole state; an entry: its path operations (JSON). NULL once packed. */
  change: text('change', { mode: 'json' }),
  stateVersion: integer('state_version').notNull(),
  /** A cold row's input, dice and change, packed (src/db/packedText.ts); NULL while the row is plain. */
  packed: blob('packed', { mode: 'buffer' }),
}, (t) => [
  primaryKey({ columns: [t.campaignId, t.seq] }),
  // The rows still plain, oldest first (src/app/packCold.ts).
  index('journal_plain').on(t.at).where(sql`${t.packed} is null`),
]);
