import { and, eq, sql } from 'drizzle-orm';
import type { Army, Company, Individual, Regiment } from '../engine/forces/index.js';
import { type Hex, formatHex, hexToOffset, parseHex } from '../engine/hex/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { CampaignState, ContactRecord } from '../engine/state/index.js';
import type { StateJson } from '../engine/campaign/index.js';
import type { Database } from './client.js';
import { fromJson, prepared, preparedQuery } from './prepared.js';
import * as t from './schema.js';

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

const hexOf = (id: string): Hex => {
  const h = parseHex(id);
  if (!h) throw new Error(`corrupt hex id in database: ${id}`);
  return h;
};

/** CCRR, or CCCRRR when the hex is past column or row 99. */
function storedHexId(h: Hex): string {
  const { col, row } = hexToOffset(h);
  return formatHex(h, Math.max(col, row) > 99 ? 3 : 2);
}

type ArmyData = Omit<Army, 'id' | 'name' | 'commander' | 'side' | 'hex' | 'formation' | 'regiments' | 'individuals'>;

function armyData(a: Army): ArmyData {
  const { id: _id, name: _n, commander: _c, side: _s, hex: _h, formation: _f, regiments: _r, individuals: _i, ...rest } = a;
  return rest;
}

/** The columns of `campaigns` that make a CampaignMeta (never the scenario document). */
const META_SQL = `select id, guild_id as guildId, channel_id as channelId, owner_user_id as ownerUserId, status, created_at as createdAt,
  next_tick_at as nextTickAt, reminder_sent_for as reminderSentFor, remind_at as remindAt, held_due as heldDue,
  deadline_extensions as deadlineExtensions, deadline_extension_minutes as deadlineExtensionMinutes,
  last_tick_at as lastTickAt, catch_up_allowance as catchUpAllowance, ready, early_from as earlyFrom, resume_at as resumeAt,
  pause_reason as pauseReason, reminded from campaigns`;

const userIds = (json: string): string[] => {
  const v: unknown = fromJson(json);
  return Array.isArray(v) ? v.filter((u): u is string => typeof u === 'string') : [];
};

/** The row as read (the ready and reminded lists are JSON arrays of user ids). */
function toMeta(row: unknown): CampaignMeta | undefined {
  if (row === undefined) return undefined;
  const r = row as Omit<CampaignMeta, 'ready' | 'reminded'> & { ready: string; reminded: string };
  return { ...r, ready: userIds(r.ready), reminded: userIds(r.reminded) };
}

export function findCampaignInChannel(conn: Database, guildId: string, channelId: string): CampaignMeta | undefined {
  return toMeta(prepared(conn, `${META_SQL} where guild_id = ? and channel_id = ? and status <> 'ended'`).get(guildId, channelId));
}

export function getCampaignMeta(conn: Database, id: string): CampaignMeta | undefined {
  return toMeta(prepared(conn, `${META_SQL} where id = ?`).get(id));
}

/** How many campaigns the database holds, by status (logged at start). */
export function countCampaigns(db: Database): Record<string, number> {
  const rows = db.select({ status: t.campaigns.status, n: sql<number>`count(*)` }).from(t.campaigns).groupBy(t.campaigns.status).all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** A running campaign the scheduler may have to act on. */
export interface ScheduledCampaign {
  readonly id: string;
  readonly guildId: string;
  readonly nextTickAt: string | null;
}

// Two index searches (campaigns_due), not one `or`, which SQLite answers by walking every running
// campaign: 41 ms a minute at 10,000 idle campaigns, against 0.08 ms this way.
const DUE_CAMPAIGNS = `select id, guild_id as guildId, next_tick_at as nextTickAt from campaigns where status = 'running' and next_tick_at is null
    union all
    select id, guild_id as guildId, next_tick_at as nextTickAt from campaigns where status = 'running' and next_tick_at <= ?
    order by nextTickAt`;

/** Running campaigns whose next tick is due at `nowIso` (or was never scheduled), never scheduled first, then oldest due first. */
export function dueCampaigns(conn: Database, nowIso: string): ScheduledCampaign[] {
  return prepared(conn, DUE_CAMPAIGNS).all(nowIso) as ScheduledCampaign[];
}

/** How SQLite runs the due scan (EXPLAIN QUERY PLAN, one line a step): which indexes it walks. */
export function dueCampaignsPlan(conn: Database): string[] {
  const rows = conn.$client.prepare(`explain query plan ${DUE_CAMPAIGNS}`).all('') as { detail: string }[];
  return rows.map((r) => r.detail);
}

/** Running campaigns whose next tick is due after `fromIso` and at or before `toIso`, soonest first. */
export function campaignsDueBetween(conn: Database, fromIso: string, toIso: string): ScheduledCampaign[] {
  return prepared(conn, `select id, guild_id as guildId, next_tick_at as nextTickAt from campaigns
    where status = 'running' and next_tick_at > ? and next_tick_at <= ? order by next_tick_at`).all(fromIso, toIso) as ScheduledCampaign[];
}

/** Running campaigns whose reminders are due at `nowIso` and not yet sent for the current deadline. */
export function remindableCampaigns(conn: Database, nowIso: string): ScheduledCampaign[] {
  return prepared(conn, `select id, guild_id as guildId, next_tick_at as nextTickAt from campaigns
    where status = 'running' and remind_at <= ? and (reminder_sent_for is null or reminder_sent_for <> next_tick_at)`).all(nowIso) as ScheduledCampaign[];
}

/** Campaigns paused by the referee until a time that has come (`nowIso`): they resume by themselves. */
export function resumableCampaigns(conn: Database, nowIso: string): ScheduledCampaign[] {
  return prepared(conn, `select id, guild_id as guildId, next_tick_at as nextTickAt from campaigns
    where status = 'paused' and resume_at <= ? order by resume_at`).all(nowIso) as ScheduledCampaign[];
}

const CONTROL_COLUMNS: Readonly<Record<keyof CampaignControl, string>> = {
  nextTickAt: 'next_tick_at', reminderSentFor: 'reminder_sent_for', remindAt: 'remind_at', heldDue: 'held_due',
  deadlineExtensions: 'deadline_extensions', deadlineExtensionMinutes: 'deadline_extension_minutes', lastTickAt: 'last_tick_at',
  catchUpAllowance: 'catch_up_allowance', ready: 'ready', earlyFrom: 'early_from', resumeAt: 'resume_at', pauseReason: 'pause_reason',
  reminded: 'reminded',
};

export function setControl(conn: Database, id: string, patch: Partial<CampaignControl>): void {
  const keys = (Object.keys(patch) as (keyof CampaignControl)[]).filter((k) => patch[k] !== undefined).sort();
  if (keys.length === 0) return;
  prepared(conn, `update campaigns set ${keys.map((k) => `${CONTROL_COLUMNS[k]} = ?`).join(', ')} where id = ?`).run(...keys.map((k) => {
    const v = patch[k];
    return Array.isArray(v) ? JSON.stringify(v) : v;
  }), id);
}

export function loadScenario(db: Database, id: string): ScenarioDoc | undefined {
  const row = db.select({ scenario: t.campaigns.scenario }).from(t.campaigns).where(eq(t.campaigns.id, id)).get();
  return row ? (row.scenario as ScenarioDoc) : undefined;
}

export function insertCampaign(conn: Database, meta: Pick<CampaignMeta, 'guildId' | 'channelId' | 'ownerUserId' | 'createdAt'>, state: CampaignState, scenario: ScenarioDoc, version: number): void {
  prepared(conn, `insert into campaigns (id, guild_id, channel_id, name, scenario_id, scenario, owner_user_id, status, season, settings,
    clock_day, clock_half, rng, manual_dice, next_id, next_courier_id, state_version, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(state.id, meta.guildId, meta.channelId, state.name, state.scenarioId, JSON.stringify(scenario), meta.ownerUserId, state.status, state.season,
      JSON.stringify(state.settings), state.clock.day, state.clock.half, JSON.stringify(state.rng), JSON.stringify(state.manualDice), state.nextId, state.nextCourierId, version, meta.createdAt, meta.createdAt);
  writeEntities(conn, undefined, state);
}

/** A campaign's state as stored: plain JSON in the shape of `version`, to be upgraded by the engine before use. */
export interface StoredState {
  readonly version: number;
  readonly json: StateJson;
}

type Row = Readonly<Record<string, unknown>>;
const str = (r: Row, k: string): string => r[k] as string;

/**
 * Loads the live state of a campaign as stored (closed contacts and finished couriers stay in
 * their tables, out of the state), each keyed collection in id order. Never reads the scenario
 * document.
 */
export function loadState(conn: Database, id: string): StoredState | undefined {
  const c = prepared(conn, `select id, name, scenario_id, season, status, settings, clock_day, clock_half, rng, manual_dice, next_id, next_courier_id, state_version
    from campaigns where id = ?`).get(id) as Row | undefined;
  if (!c) return undefined;
  const sides = Object.fromEntries((prepared(conn, 'select id, name, colour, hostile_to from sides where campaign_id = ? order by id').all(id) as Row[])
    .map((s) => [str(s, 'id'), { id: s['id'], name: s['name'], colour: s['colour'], hostileTo: fromJson(str(s, 'hostile_to')) }]));
  const regs = new Map<string, Regiment[]>();
  for (const r of prepared(conn, 'select army_id, id, name, role, original_figures, companies, data from regiments where campaign_id = ? order by army_id, ord').all(id) as Row[]) {
    const list = regs.get(str(r, 'army_id')) ?? [];
    list.push({
      ...fromJson<object>(str(r, 'data')),
      id: str(r, 'id'), name: str(r, 'name'), role: r['role'] as Regiment['role'], originalFigures: r['original_figures'] as number, companies: fromJson<Company[]>(str(r, 'companies')),
    });
    regs.set(str(r, 'army_id'), list);
  }
  const inds = new Map<string, Individual[]>();
  for (const i of prepared(conn, 'select army_id, id, name, kind, data from individuals where campaign_id = ? order by army_id, ord').all(id) as Row[]) {
    const list = inds.get(str(i, 'army_id')) ?? [];
    list.push({ id: str(i, 'id'), name: str(i, 'name'), kind: str(i, 'kind'), ...fromJson<object>(str(i, 'data')) });
    inds.set(str(i, 'army_id'), list);
  }
  const armies = Object.fromEntries((prepared(conn, 'select id, name, commander, side_id, hex, formation, data from armies where campaign_id = ? order by id').all(id) as Row[]).map((a) => [str(a, 'id'), {
    ...fromJson<object>(str(a, 'data')),
    id: a['id'],
    name: a['name'],
    commander: a['commander'],
    side: a['side_id'],
    hex: hexOf(str(a, 'hex')),
    formation: a['formation'],
    regiments: regs.get(str(a, 'id')) ?? [],
    individuals: inds.get(str(a, 'id')) ?? [],
  }]));
  const orders = Object.fromEntries((prepared(conn, 'select army_id, data from orders where campaign_id = ? order by army_id').all(id) as Row[]).map((o) => [str(o, 'army_id'), fromJson(str(o, 'data'))]));
  const w = prepared(conn, 'select sky, fog, wind, rain_level, data from weather where campaign_id = ?').get(id) as Row | undefined;
  const weather = w ? { ...fromJson<object>(str(w, 'data')), sky: w['sky'], fog: w['fog'] === 1, wind: w['wind'], rainLevel: w['rain_level'] } : undefined;
  const live = (table: 'contacts' | 'couriers'): Record<string, unknown> =>
    Object.fromEntries((prepared(conn, `select id, data from ${table} where campaign_id = ? and live = 1 order by id`).all(id) as Row[]).map((r) => [str(r, 'id'), fromJson(str(r, 'data'))]));
  const knowledge: { armies: Record<string, unknown>; reports: Record<string, unknown> } = { armies: {}, reports: {} };
  // Plans share the keyed table (`plan:<army id>`): one small JSON row per army, like its memory.
  const plans: Record<string, unknown> = {};
  for (const k of prepared(conn, 'select key, data from knowledge where campaign_id = ? order by key').all(id) as Row[]) {
    const [kind, ...rest] = str(k, 'key').split(':');
    if (kind === 'army') knowledge.armies[rest.join(':')] = fromJson(str(k, 'data'));
    else if (kind === 'report') knowledge.reports[rest.join(':')] = fromJson(str(k, 'data'));
    else if (kind === 'plan') plans[rest.join(':')] = fromJson(str(k, 'data'));
  }
  return {
    version: c['state_version'] as number,
    json: {
      id: c['id'],
      name: c['name'],
      scenarioId: c['scenario_id'],
      season: c['season'],
      status: c['status'],
      settings: fromJson(str(c, 'settings')),
      clock: { day: c['clock_day'], half: c['clock_half'] },
      sides,
      armies,
      orders,
      ...(weather ? { weather } : {}),
      contacts: live('contacts'),
      couriers: live('couriers'),
      rng: fromJson(str(c, 'rng')),
      manualDice: fromJson(str(c, 'manual_dice')),
      knowledge,
      plans,
      nextId: c['next_id'],
      nextCourierId: c['next_courier_id'],
    },
  };
}

/**
 * Writes what changed between two states of the same campaign, in the shape of `version`, and
 * returns the state's new revision.
 * Entities are compared by their JSON; unchanged rows are not touched, unless `rewriteAll` (the
 * stored rows were in an older shape: every row is written in the new one). A contact or courier
 * that left the live state keeps its row, marked not live. Call inside a transaction.
 */
export function saveState(conn: Database, prev: CampaignState, next: CampaignState, now: string, version: number, rewriteAll = false): number {
  const row = prepared(conn, `update campaigns set name = ?, status = ?, season = ?, settings = ?, clock_day = ?, clock_half = ?, rng = ?, manual_dice = ?, next_id = ?,
    next_courier_id = ?, state_version = ?, updated_at = ?, revision = revision + 1 where id = ? returning revision`)
    .get(next.name, next.status, next.season, JSON.stringify(next.settings), next.clock.day, next.clock.half, JSON.stringify(next.rng), JSON.stringify(next.manualDice), next.nextId, next.nextCourierId, version, now, next.id) as { revision: number } | undefined;
  if (!row) throw new Error(`campaign ${next.id} has no row to save its state in`);
  writeEntities(conn, prev, next, rewriteAll);
  return row.revision;
}

/**
 * The revision of a campaign's stored state (bumped by every `saveState`), read without loading
 * the state: an in-memory copy read or written at this revision is the stored state. Undefined
 * when there is no such campaign.
 */
export function stateRevision(conn: Database, id: string): number | undefined {
  const query = preparedQuery(conn, 'stateRevision', (db) => db.select({ revision: t.campaigns.revision }).from(t.campaigns)
    .where(eq(t.campaigns.id, sql.placeholder('id'))).prepare());
  return query.get({ id })?.revision;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

function writeEntities(conn: Database, prev: CampaignState | undefined, next: CampaignState, rewriteAll = false): void {
  const cid = next.id;
  const changed = (a: unknown, b: unknown): boolean => rewriteAll || a === undefined || !same(a, b);
  const upsertArmy = prepared(conn, `insert into armies (campaign_id, id, name, commander, side_id, hex, formation, data) values (?, ?, ?, ?, ?, ?, ?, ?)
    on conflict (campaign_id, id) do update set name = excluded.name, commander = excluded.commander, side_id = excluded.side_id, hex = excluded.hex,
    formation = excluded.formation, data = excluded.data`);
  const deleteRegiments = prepared(conn, 'delete from regiments where campaign_id = ? and army_id = ?');
  const insertRegiment = prepared(conn, `insert into regiments (campaign_id, army_id, id, ord, name, role, original_figures, current_figures, companies, data)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const deleteIndividuals = prepared(conn, 'delete from individuals where campaign_id = ? and army_id = ?');
  const insertIndividual = prepared(conn, 'insert into individuals (campaign_id, army_id, id, ord, name, kind, data) values (?, ?, ?, ?, ?, ?, ?)');
  for (const a of Object.values(next.armies)) {
    const old = prev?.armies[a.id];
    if (!changed(old, a)) continue;
    upsertArmy.run(cid, a.id, a.name, a.commander, a.side, storedHexId(a.hex), a.formation, JSON.stringify(armyData(a)));
    if (changed(old?.regiments, a.regiments)) {
      deleteRegiments.run(cid, a.id);
      a.regiments.forEach((r, ord) => {
        const { id, name, role, originalFigures, companies, ...data } = r;
        insertRegiment.run(cid, a.id, id, ord, name, role, originalFigures, companies.reduce((n, c) => n + c.figures, 0), JSON.stringify(companies), JSON.stringify(data));
      });
    }
    if (changed(old?.individuals, a.individuals)) {
      deleteIndividuals.run(cid, a.id);
      a.individuals.forEach((i, ord) => {
        const { id, name, kind, ...data } = i;
        insertIndividual.run(cid, a.id, id, ord, name, kind, JSON.stringify(data));
      });
    }
  }
  if (prev) {
    for (const id of Object.keys(prev.armies)) {
      if (next.armies[id]) continue;
      prepared(conn, 'delete from armies where campaign_id = ? and id = ?').run(cid, id);
      deleteRegiments.run(cid, id);
      deleteIndividuals.run(cid, id);
    }
  }
  syncKeyed(prev?.sides, next.sides, rewriteAll,
    (id, side) => prepared(conn, `insert into sides (campaign_id, id, name, colour, hostile_to) values (?, ?, ?, ?, ?)
      on conflict (campaign_id, id) do update set name = excluded.name, colour = excluded.colour, hostile_to = excluded.hostile_to`).run(cid, id, side.name, side.colour, JSON.stringify(side.hostileTo)),
    (id) => prepared(conn, 'delete from sides where campaign_id = ? and id = ?').run(cid, id));
  syncKeyed(prev?.orders, next.orders, rewriteAll,
    (armyId, o) => prepared(conn, `insert into orders (campaign_id, army_id, kind, given_by, data) values (?, ?, ?, ?, ?)
      on conflict (campaign_id, army_id) do update set kind = excluded.kind, given_by = excluded.given_by, data = excluded.data`).run(cid, armyId, o.kind, o.givenBy, JSON.stringify(o)),
    (armyId) => prepared(conn, 'delete from orders where campaign_id = ? and army_id = ?').run(cid, armyId));
  syncKeyed(prev?.contacts, next.contacts, rewriteAll,
    (id, c) => prepared(conn, `insert into contacts (campaign_id, id, step, army_ids, data, live) values (?, ?, ?, ?, ?, 1)
      on conflict (campaign_id, id) do update set step = excluded.step, army_ids = excluded.army_ids, data = excluded.data, live = 1`).run(cid, id, c.step, JSON.stringify(c.armyIds), JSON.stringify(c)),
    // A closed contact leaves the live state; its row stays as the record of what happened.
    (id) => prepared(conn, 'update contacts set live = 0 where campaign_id = ? and id = ?').run(cid, id));
  syncKeyed(prev?.couriers, next.couriers, rewriteAll,
    (id, c) => prepared(conn, `insert into couriers (campaign_id, id, status, data, live) values (?, ?, ?, ?, 1)
      on conflict (campaign_id, id) do update set status = excluded.status, data = excluded.data, live = 1`).run(cid, id, c.status, JSON.stringify(c)),
    (id) => prepared(conn, 'update couriers set live = 0 where campaign_id = ? and id = ?').run(cid, id));
  const knowledgeRow = (key: string, v: unknown): void => {
    prepared(conn, 'insert into knowledge (campaign_id, key, data) values (?, ?, ?) on conflict (campaign_id, key) do update set data = excluded.data').run(cid, key, JSON.stringify(v));
  };
  const dropKnowledge = (key: string): void => {
    prepared(conn, 'delete from knowledge where campaign_id = ? and key = ?').run(cid, key);
  };
  syncKeyed(prev?.knowledge.armies, next.knowledge.armies, rewriteAll, (id, v) => knowledgeRow(`army:${id}`, v), (id) => dropKnowledge(`army:${id}`));
  syncKeyed(prev?.knowledge.reports, next.knowledge.reports, rewriteAll, (id, v) => knowledgeRow(`report:${id}`, v), (id) => dropKnowledge(`report:${id}`));
  syncKeyed(prev?.plans, next.plans, rewriteAll, (id, v) => knowledgeRow(`plan:${id}`, v), (id) => dropKnowledge(`plan:${id}`));
  if (changed(prev?.weather, next.weather)) {
    const { sky, fog, wind, rainLevel, ...data } = next.weather;
    prepared(conn, `insert into weather (campaign_id, sky, fog, wind, rain_level, data) values (?, ?, ?, ?, ?, ?)
      on conflict (campaign_id) do update set sky = excluded.sky, fog = excluded.fog, wind = excluded.wind, rain_level = excluded.rain_level, data = excluded.data`)
      .run(cid, sky, fog ? 1 : 0, wind, rainLevel, JSON.stringify(data));
  }
}

function syncKeyed<T>(prev: Readonly<Record<string, T>> | undefined, next: Readonly<Record<string, T>>, rewriteAll: boolean, upsert: (k: string, v: T) => void, remove: (k: string) => void): void {
  for (const [k, v] of Object.entries(next)) if (rewriteAll || !prev || !same(prev[k], v)) upsert(k, v);
  if (prev) for (const k of Object.keys(prev)) if (!(k in next)) remove(k);
}

/**
 * Contact records that have left the live state (closed), oldest first; with `armyId`, only those
 * the army took part in. The live ones are in the state.
 */
export function closedContacts(db: Database, campaignId: string, armyId?: string): ContactRecord[] {
  // The army filter runs in SQLite, so only that army's records are parsed (a season holds hundreds).
  const mine = armyId === undefined ? undefined : sql`exists (select 1 from json_each(${t.contacts.armyIds}) where value = ${armyId})`;
  return db.select({ data: t.contacts.data }).from(t.contacts)
    .where(and(eq(t.contacts.campaignId, campaignId), eq(t.contacts.live, false), mine))
    .all().map((r) => r.data as ContactRecord);
}


export function deleteCampaign(db: Database, id: string): void {
  for (const table of [t.regiments, t.individuals, t.events, t.outboxMessages] as const) {
    db.delete(table).where(eq(table.campaignId, id)).run();
  }
  db.delete(t.campaigns).where(eq(t.campaigns.id, id)).run();
}
