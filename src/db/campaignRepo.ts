import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Army, Company, Individual, Regiment } from '../engine/forces/army.js';
import type { Hex } from '../engine/hex/hex.js';
import { formatHex, hexToOffset, parseHex } from '../engine/hex/hexId.js';
import type { ScenarioDoc } from '../engine/scenario/schema.js';
import type { CampaignState, ContactRecord, CourierRecord } from '../engine/state/campaign.js';
import type { StateJson } from '../engine/state/upgrade.js';
import type { Db } from './client.js';
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
const META_COLUMNS = {
  id: t.campaigns.id,
  guildId: t.campaigns.guildId,
  channelId: t.campaigns.channelId,
  ownerUserId: t.campaigns.ownerUserId,
  status: t.campaigns.status,
  createdAt: t.campaigns.createdAt,
  nextTickAt: t.campaigns.nextTickAt,
  reminderSentFor: t.campaigns.reminderSentFor,
  remindAt: t.campaigns.remindAt,
  heldDue: t.campaigns.heldDue,
  deadlineExtensions: t.campaigns.deadlineExtensions,
  deadlineExtensionMinutes: t.campaigns.deadlineExtensionMinutes,
  lastTickAt: t.campaigns.lastTickAt,
  catchUpAllowance: t.campaigns.catchUpAllowance,
} as const;

export function findCampaignInChannel(db: Db, guildId: string, channelId: string): CampaignMeta | undefined {
  return db.select(META_COLUMNS).from(t.campaigns)
    .where(and(eq(t.campaigns.guildId, guildId), eq(t.campaigns.channelId, channelId), ne(t.campaigns.status, 'ended')))
    .get();
}

export function getCampaignMeta(db: Db, id: string): CampaignMeta | undefined {
  return db.select(META_COLUMNS).from(t.campaigns).where(eq(t.campaigns.id, id)).get();
}

/** How many campaigns the database holds, by status (logged at start). */
export function countCampaigns(db: Db): Record<string, number> {
  const rows = db.select({ status: t.campaigns.status, n: sql<number>`count(*)` }).from(t.campaigns).groupBy(t.campaigns.status).all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** A running campaign the scheduler may have to act on. */
export interface ScheduledCampaign {
  readonly id: string;
  readonly guildId: string;
  readonly nextTickAt: string | null;
}

/** Running campaigns whose next tick is due at `nowIso` (or was never scheduled), oldest due first. */
export function dueCampaigns(db: Db, nowIso: string): ScheduledCampaign[] {
  return db.select({ id: t.campaigns.id, guildId: t.campaigns.guildId, nextTickAt: t.campaigns.nextTickAt }).from(t.campaigns)
    .where(and(eq(t.campaigns.status, 'running'), or(isNull(t.campaigns.nextTickAt), lte(t.campaigns.nextTickAt, nowIso))))
    .orderBy(asc(t.campaigns.nextTickAt)).all();
}

/** Running campaigns whose reminders are due at `nowIso` and not yet sent for the current deadline. */
export function remindableCampaigns(db: Db, nowIso: string): ScheduledCampaign[] {
  return db.select({ id: t.campaigns.id, guildId: t.campaigns.guildId, nextTickAt: t.campaigns.nextTickAt }).from(t.campaigns)
    .where(and(
      eq(t.campaigns.status, 'running'),
      lte(t.campaigns.remindAt, nowIso),
      or(isNull(t.campaigns.reminderSentFor), ne(t.campaigns.reminderSentFor, t.campaigns.nextTickAt)),
    )).all();
}

export function setControl(db: Db, id: string, patch: Partial<CampaignControl>): void {
  if (Object.keys(patch).length === 0) return;
  db.update(t.campaigns).set(patch).where(eq(t.campaigns.id, id)).run();
}

export function loadScenario(db: Db, id: string): ScenarioDoc | undefined {
  const row = db.select({ scenario: t.campaigns.scenario }).from(t.campaigns).where(eq(t.campaigns.id, id)).get();
  return row ? (row.scenario as ScenarioDoc) : undefined;
}

export function insertCampaign(db: Db, meta: Pick<CampaignMeta, 'guildId' | 'channelId' | 'ownerUserId' | 'createdAt'>, state: CampaignState, scenario: ScenarioDoc, version: number): void {
  db.insert(t.campaigns).values({
    id: state.id,
    guildId: meta.guildId,
    channelId: meta.channelId,
    name: state.name,
    scenarioId: state.scenarioId,
    scenario,
    ownerUserId: meta.ownerUserId,
    status: state.status,
    season: state.season,
    settings: state.settings,
    clockDay: state.clock.day,
    clockHalf: state.clock.half,
    rng: state.rng,
    nextId: state.nextId,
    stateVersion: version,
    createdAt: meta.createdAt,
    updatedAt: meta.createdAt,
  }).run();
  for (const s of Object.values(state.sides)) {
    db.insert(t.sides).values({ campaignId: state.id, id: s.id, name: s.name, colour: s.colour, hostileTo: s.hostileTo }).run();
  }
  writeEntities(db, undefined, state);
}

/** A campaign's state as stored: plain JSON in the shape of `version`, to be upgraded by the engine before use. */
export interface StoredState {
  readonly version: number;
  readonly json: StateJson;
}

/**
 * Loads the live state of a campaign as stored (closed contacts and finished couriers stay in
 * their tables, out of the state). Never reads the scenario document.
 */
export function loadState(db: Db, id: string): StoredState | undefined {
  const c = db.select({
    id: t.campaigns.id, name: t.campaigns.name, scenarioId: t.campaigns.scenarioId, season: t.campaigns.season, status: t.campaigns.status,
    settings: t.campaigns.settings, clockDay: t.campaigns.clockDay, clockHalf: t.campaigns.clockHalf, rng: t.campaigns.rng, nextId: t.campaigns.nextId,
    stateVersion: t.campaigns.stateVersion,
  }).from(t.campaigns).where(eq(t.campaigns.id, id)).get();
  if (!c) return undefined;
  const sides = Object.fromEntries(db.select().from(t.sides).where(eq(t.sides.campaignId, id)).all()
    .map((s) => [s.id, { id: s.id, name: s.name, colour: s.colour, hostileTo: s.hostileTo }]));
  const regs = new Map<string, Regiment[]>();
  for (const r of db.select().from(t.regiments).where(eq(t.regiments.campaignId, id)).orderBy(t.regiments.ord).all()) {
    const list = regs.get(r.armyId) ?? [];
    list.push({ id: r.id, name: r.name, role: r.role, originalFigures: r.originalFigures, companies: r.companies as Company[] });
    regs.set(r.armyId, list);
  }
  const inds = new Map<string, Individual[]>();
  for (const i of db.select().from(t.individuals).where(eq(t.individuals.campaignId, id)).orderBy(t.individuals.ord).all()) {
    const list = inds.get(i.armyId) ?? [];
    list.push({ id: i.id, name: i.name, kind: i.kind, ...(i.data as object) });
    inds.set(i.armyId, list);
  }
  const armies = Object.fromEntries(db.select().from(t.armies).where(eq(t.armies.campaignId, id)).all().map((a) => [a.id, {
    ...(a.data as object),
    id: a.id,
    name: a.name,
    commander: a.commander,
    side: a.sideId,
    hex: hexOf(a.hex),
    formation: a.formation,
    regiments: regs.get(a.id) ?? [],
    individuals: inds.get(a.id) ?? [],
  }]));
  const orders = Object.fromEntries(db.select().from(t.orders).where(eq(t.orders.campaignId, id)).all().map((o) => [o.armyId, o.data]));
  const w = db.select().from(t.weather).where(eq(t.weather.campaignId, id)).get();
  const weather = w ? { ...(w.data as object), sky: w.sky, fog: w.fog, wind: w.wind, rainLevel: w.rainLevel } : undefined;
  const contacts = db.select({ id: t.contacts.id, data: t.contacts.data }).from(t.contacts).where(and(eq(t.contacts.campaignId, id), eq(t.contacts.live, true))).all();
  const couriers = db.select({ id: t.couriers.id, data: t.couriers.data }).from(t.couriers).where(and(eq(t.couriers.campaignId, id), eq(t.couriers.live, true))).all();
  return {
    version: c.stateVersion,
    json: {
      id: c.id,
      name: c.name,
      scenarioId: c.scenarioId,
      season: c.season,
      status: c.status,
      settings: c.settings,
      clock: { day: c.clockDay, half: c.clockHalf },
      sides,
      armies,
      orders,
      ...(weather ? { weather } : {}),
      contacts: Object.fromEntries(contacts.map((r) => [r.id, r.data])),
      couriers: Object.fromEntries(couriers.map((r) => [r.id, r.data])),
      rng: c.rng,
      nextId: c.nextId,
    },
  };
}

/**
 * Writes what changed between two states of the same campaign, in the shape of `version`.
 * Entities are compared by their JSON; unchanged rows are not touched, unless `rewriteAll` (the
 * stored rows were in an older shape: every row is written in the new one). A contact or courier
 * that left the live state keeps its row, marked not live. Call inside a transaction.
 */
export function saveState(db: Db, prev: CampaignState, next: CampaignState, now: string, version: number, rewriteAll = false): void {
  db.update(t.campaigns).set({
    name: next.name,
    status: next.status,
    season: next.season,
    settings: next.settings,
    clockDay: next.clock.day,
    clockHalf: next.clock.half,
    rng: next.rng,
    nextId: next.nextId,
    stateVersion: version,
    updatedAt: now,
  }).where(eq(t.campaigns.id, next.id)).run();
  writeEntities(db, prev, next, rewriteAll);
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

function writeEntities(db: Db, prev: CampaignState | undefined, next: CampaignState, rewriteAll = false): void {
  const cid = next.id;
  const changed = (a: unknown, b: unknown): boolean => rewriteAll || a === undefined || !same(a, b);
  for (const a of Object.values(next.armies)) {
    const old = prev?.armies[a.id];
    if (!changed(old, a)) continue;
    const row = { campaignId: cid, id: a.id, name: a.name, commander: a.commander, sideId: a.side, hex: storedHexId(a.hex), formation: a.formation, data: armyData(a) };
    db.insert(t.armies).values(row).onConflictDoUpdate({ target: [t.armies.campaignId, t.armies.id], set: row }).run();
    if (changed(old?.regiments, a.regiments)) {
      db.delete(t.regiments).where(and(eq(t.regiments.campaignId, cid), eq(t.regiments.armyId, a.id))).run();
      a.regiments.forEach((r, ord) => {
        db.insert(t.regiments).values({
          campaignId: cid, armyId: a.id, id: r.id, ord, name: r.name, role: r.role,
          originalFigures: r.originalFigures, currentFigures: r.companies.reduce((n, c) => n + c.figures, 0), companies: r.companies,
        }).run();
      });
    }
    if (changed(old?.individuals, a.individuals)) {
      db.delete(t.individuals).where(and(eq(t.individuals.campaignId, cid), eq(t.individuals.armyId, a.id))).run();
      a.individuals.forEach((i, ord) => {
        const { id, name, kind, ...data } = i;
        db.insert(t.individuals).values({ campaignId: cid, armyId: a.id, id, ord, name, kind, data }).run();
      });
    }
  }
  if (prev) {
    const gone = Object.keys(prev.armies).filter((id) => !next.armies[id]);
    if (gone.length > 0) {
      db.delete(t.armies).where(and(eq(t.armies.campaignId, cid), inArray(t.armies.id, gone))).run();
      db.delete(t.regiments).where(and(eq(t.regiments.campaignId, cid), inArray(t.regiments.armyId, gone))).run();
      db.delete(t.individuals).where(and(eq(t.individuals.campaignId, cid), inArray(t.individuals.armyId, gone))).run();
    }
  }
  syncKeyed(prev?.orders, next.orders, rewriteAll,
    (armyId, o) => db.insert(t.orders).values({ campaignId: cid, armyId, kind: o.kind, givenBy: o.givenBy, data: o })
      .onConflictDoUpdate({ target: [t.orders.campaignId, t.orders.armyId], set: { kind: o.kind, givenBy: o.givenBy, data: o } }).run(),
    (armyId) => db.delete(t.orders).where(and(eq(t.orders.campaignId, cid), eq(t.orders.armyId, armyId))).run());
  syncKeyed(prev?.contacts, next.contacts, rewriteAll,
    (id, c) => db.insert(t.contacts).values({ campaignId: cid, id, step: c.step, armyIds: c.armyIds, data: c, live: true })
      .onConflictDoUpdate({ target: [t.contacts.campaignId, t.contacts.id], set: { step: c.step, armyIds: c.armyIds, data: c, live: true } }).run(),
    // A closed contact leaves the live state; its row stays as the record of what happened.
    (id) => db.update(t.contacts).set({ live: false }).where(and(eq(t.contacts.campaignId, cid), eq(t.contacts.id, id))).run());
  syncKeyed(prev?.couriers, next.couriers, rewriteAll,
    (id, c) => db.insert(t.couriers).values({ campaignId: cid, id, status: c.status, data: c, live: true })
      .onConflictDoUpdate({ target: [t.couriers.campaignId, t.couriers.id], set: { status: c.status, data: c, live: true } }).run(),
    (id) => db.update(t.couriers).set({ live: false }).where(and(eq(t.couriers.campaignId, cid), eq(t.couriers.id, id))).run());
  if (changed(prev?.weather, next.weather)) {
    const { sky, fog, wind, rainLevel, ...data } = next.weather;
    const row = { campaignId: cid, sky, fog, wind, rainLevel, data };
    db.insert(t.weather).values(row).onConflictDoUpdate({ target: t.weather.campaignId, set: row }).run();
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
export function closedContacts(db: Db, campaignId: string, armyId?: string): ContactRecord[] {
  // The army filter runs in SQLite, so only that army's records are parsed (a season holds hundreds).
  const mine = armyId === undefined ? undefined : sql`exists (select 1 from json_each(${t.contacts.armyIds}) where value = ${armyId})`;
  return db.select({ data: t.contacts.data }).from(t.contacts)
    .where(and(eq(t.contacts.campaignId, campaignId), eq(t.contacts.live, false), mine))
    .all().map((r) => r.data as ContactRecord);
}

/** Courier records that have left the live state (delivered or captured). */
export function closedCouriers(db: Db, campaignId: string): CourierRecord[] {
  return db.select({ data: t.couriers.data }).from(t.couriers)
    .where(and(eq(t.couriers.campaignId, campaignId), eq(t.couriers.live, false))).all().map((r) => r.data as CourierRecord);
}

export function deleteCampaign(db: Db, id: string): void {
  for (const table of [t.regiments, t.individuals, t.events, t.outboxMessages] as const) {
    db.delete(table).where(eq(table.campaignId, id)).run();
  }
  db.delete(t.campaigns).where(eq(t.campaigns.id, id)).run();
}
