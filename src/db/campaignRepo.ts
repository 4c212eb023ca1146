import { and, eq, ne } from 'drizzle-orm';
import type { GameTime } from '../engine/clock/gameTime.js';
import type { RngState } from '../engine/dice/dice.js';
import type { Army, Company, Individual, Regiment } from '../engine/forces/army.js';
import type { Hex } from '../engine/hex/hex.js';
import { formatHex, hexToOffset, parseHex } from '../engine/hex/hexId.js';
import type { ScenarioDoc } from '../engine/scenario/schema.js';
import type { CampaignState, ContactRecord, CourierRecord, Order } from '../engine/state/campaign.js';
import { DEFAULT_SETTINGS, type CampaignSettings } from '../engine/state/settings.js';
import type { WeatherState } from '../engine/weather/types.js';
import type { Database } from './client.js';
import * as t from './schema.js';

/** Where a campaign lives on Discord (or the console) and who owns it. */
export interface CampaignMeta {
  readonly id: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly ownerUserId: string;
  readonly nextTickAt: string | null;
  readonly reminderSentFor: string | null;
  readonly createdAt: string;
}

const hexOf = (id: string) => {
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

export function findCampaignInChannel(db: Database, guildId: string, channelId: string): CampaignMeta | undefined {
  const row = db.select().from(t.campaigns)
    .where(and(eq(t.campaigns.guildId, guildId), eq(t.campaigns.channelId, channelId), ne(t.campaigns.status, 'ended')))
    .get();
  return row ? metaOf(row) : undefined;
}

export function getCampaignMeta(db: Database, id: string): CampaignMeta | undefined {
  const row = db.select().from(t.campaigns).where(eq(t.campaigns.id, id)).get();
  return row ? metaOf(row) : undefined;
}

function metaOf(row: typeof t.campaigns.$inferSelect): CampaignMeta {
  return {
    id: row.id,
    guildId: row.guildId,
    channelId: row.channelId,
    ownerUserId: row.ownerUserId,
    nextTickAt: row.nextTickAt,
    reminderSentFor: row.reminderSentFor,
    createdAt: row.createdAt,
  };
}

export function listCampaignIds(db: Database, status?: CampaignState['status']): string[] {
  const q = db.select({ id: t.campaigns.id, status: t.campaigns.status }).from(t.campaigns);
  return q.all().filter((r) => status === undefined || r.status === status).map((r) => r.id);
}

export function setSchedule(db: Database, id: string, nextTickAt: string | null, reminderSentFor?: string | null): void {
  db.update(t.campaigns)
    .set({ nextTickAt, ...(reminderSentFor !== undefined ? { reminderSentFor } : {}) })
    .where(eq(t.campaigns.id, id)).run();
}

export function loadScenario(db: Database, id: string): ScenarioDoc | undefined {
  const row = db.select({ scenario: t.campaigns.scenario }).from(t.campaigns).where(eq(t.campaigns.id, id)).get();
  return row ? (row.scenario as ScenarioDoc) : undefined;
}

export function insertCampaign(db: Database, meta: Omit<CampaignMeta, 'nextTickAt' | 'reminderSentFor'>, state: CampaignState, scenario: ScenarioDoc): void {
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
    createdAt: meta.createdAt,
    updatedAt: meta.createdAt,
  }).run();
  for (const s of Object.values(state.sides)) {
    db.insert(t.sides).values({ campaignId: state.id, id: s.id, name: s.name, colour: s.colour, hostileTo: s.hostileTo }).run();
  }
  writeEntities(db, undefined, state);
}

/** Loads the whole mutable state of a campaign. */
export function loadState(db: Database, id: string): CampaignState | undefined {
  const c = db.select().from(t.campaigns).where(eq(t.campaigns.id, id)).get();
  if (!c) return undefined;
  const sides = Object.fromEntries(db.select().from(t.sides).where(eq(t.sides.campaignId, id)).all()
    .map((s) => [s.id, { id: s.id, name: s.name, colour: s.colour, hostileTo: s.hostileTo as string[] }]));
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
  const armies: Record<string, Army> = {};
  for (const a of db.select().from(t.armies).where(eq(t.armies.campaignId, id)).all()) {
    armies[a.id] = {
      ...(a.data as ArmyData),
      id: a.id,
      name: a.name,
      commander: a.commander,
      side: a.sideId,
      hex: hexOf(a.hex),
      formation: a.formation as Army['formation'],
      regiments: regs.get(a.id) ?? [],
      individuals: inds.get(a.id) ?? [],
    };
  }
  const orders = Object.fromEntries(db.select().from(t.orders).where(eq(t.orders.campaignId, id)).all().map((o) => [o.armyId, o.data as Order]));
  const w = db.select().from(t.weather).where(eq(t.weather.campaignId, id)).get();
  const weatherState: WeatherState = w
    ? { ...(w.data as Omit<WeatherState, 'sky' | 'fog' | 'wind' | 'rainLevel'>), sky: w.sky as WeatherState['sky'], fog: w.fog, wind: w.wind as WeatherState['wind'], rainLevel: w.rainLevel }
    : { sky: 'clear', fog: false, wind: 'none', rainLevel: 0, track: {} };
  const contactsRows = db.select().from(t.contacts).where(eq(t.contacts.campaignId, id)).all();
  const couriersRows = db.select().from(t.couriers).where(eq(t.couriers.campaignId, id)).all();
  return {
    id: c.id,
    name: c.name,
    scenarioId: c.scenarioId,
    season: c.season,
    status: c.status,
    // Settings added in later versions take their defaults in older campaigns.
    settings: { ...DEFAULT_SETTINGS, ...(c.settings as Partial<CampaignSettings>) },
    clock: { day: c.clockDay, half: c.clockHalf as GameTime['half'] },
    sides,
    armies,
    orders,
    weather: weatherState,
    contacts: Object.fromEntries(contactsRows.map((r) => [r.id, r.data as ContactRecord])),
    couriers: Object.fromEntries(couriersRows.map((r) => [r.id, r.data as CourierRecord])),
    rng: c.rng as RngState,
    nextId: c.nextId,
  };
}

/**
 * Writes what changed between two states of the same campaign. Entities are compared by their
 * JSON; unchanged rows are not touched. Call inside a transaction.
 */
export function saveState(db: Database, prev: CampaignState, next: CampaignState, now: string): void {
  db.update(t.campaigns).set({
    name: next.name,
    status: next.status,
    season: next.season,
    settings: next.settings,
    clockDay: next.clock.day,
    clockHalf: next.clock.half,
    rng: next.rng,
    nextId: next.nextId,
    updatedAt: now,
  }).where(eq(t.campaigns.id, next.id)).run();
  writeEntities(db, prev, next);
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

function writeEntities(db: Database, prev: CampaignState | undefined, next: CampaignState): void {
  const cid = next.id;
  for (const a of Object.values(next.armies)) {
    const old = prev?.armies[a.id];
    if (old && same(old, a)) continue;
    const row = { campaignId: cid, id: a.id, name: a.name, commander: a.commander, sideId: a.side, hex: storedHexId(a.hex), formation: a.formation, data: armyData(a) };
    db.insert(t.armies).values(row).onConflictDoUpdate({ target: [t.armies.campaignId, t.armies.id], set: row }).run();
    if (!old || !same(old.regiments, a.regiments)) {
      db.delete(t.regiments).where(and(eq(t.regiments.campaignId, cid), eq(t.regiments.armyId, a.id))).run();
      a.regiments.forEach((r, ord) => {
        db.insert(t.regiments).values({
          campaignId: cid, armyId: a.id, id: r.id, ord, name: r.name, role: r.role,
          originalFigures: r.originalFigures, currentFigures: r.companies.reduce((n, c) => n + c.figures, 0), companies: r.companies,
        }).run();
      });
    }
    if (!old || !same(old.individuals, a.individuals)) {
      db.delete(t.individuals).where(and(eq(t.individuals.campaignId, cid), eq(t.individuals.armyId, a.id))).run();
      a.individuals.forEach((i, ord) => {
        const { id, name, kind, ...data } = i;
        db.insert(t.individuals).values({ campaignId: cid, armyId: a.id, id, ord, name, kind, data }).run();
      });
    }
  }
  if (prev) {
    for (const id of Object.keys(prev.armies)) {
      if (!next.armies[id]) {
        db.delete(t.armies).where(and(eq(t.armies.campaignId, cid), eq(t.armies.id, id))).run();
        db.delete(t.regiments).where(and(eq(t.regiments.campaignId, cid), eq(t.regiments.armyId, id))).run();
        db.delete(t.individuals).where(and(eq(t.individuals.campaignId, cid), eq(t.individuals.armyId, id))).run();
      }
    }
  }
  syncKeyed(prev?.orders, next.orders,
    (armyId, o) => db.insert(t.orders).values({ campaignId: cid, armyId, kind: o.kind, givenBy: o.givenBy, data: o })
      .onConflictDoUpdate({ target: [t.orders.campaignId, t.orders.armyId], set: { kind: o.kind, givenBy: o.givenBy, data: o } }).run(),
    (armyId) => db.delete(t.orders).where(and(eq(t.orders.campaignId, cid), eq(t.orders.armyId, armyId))).run());
  syncKeyed(prev?.contacts, next.contacts,
    (id, c) => db.insert(t.contacts).values({ campaignId: cid, id, step: c.step, armyIds: c.armyIds, data: c })
      .onConflictDoUpdate({ target: [t.contacts.campaignId, t.contacts.id], set: { step: c.step, armyIds: c.armyIds, data: c } }).run(),
    (id) => db.delete(t.contacts).where(and(eq(t.contacts.campaignId, cid), eq(t.contacts.id, id))).run());
  syncKeyed(prev?.couriers, next.couriers,
    (id, c) => db.insert(t.couriers).values({ campaignId: cid, id, status: c.status, data: c })
      .onConflictDoUpdate({ target: [t.couriers.campaignId, t.couriers.id], set: { status: c.status, data: c } }).run(),
    (id) => db.delete(t.couriers).where(and(eq(t.couriers.campaignId, cid), eq(t.couriers.id, id))).run());
  if (!prev || !same(prev.weather, next.weather)) {
    const { sky, fog, wind, rainLevel, ...data } = next.weather;
    const row = { campaignId: cid, sky, fog, wind, rainLevel, data };
    db.insert(t.weather).values(row).onConflictDoUpdate({ target: t.weather.campaignId, set: row }).run();
  }
}

function syncKeyed<T>(prev: Readonly<Record<string, T>> | undefined, next: Readonly<Record<string, T>>, upsert: (k: string, v: T) => void, remove: (k: string) => void): void {
  for (const [k, v] of Object.entries(next)) if (!prev || !same(prev[k], v)) upsert(k, v);
  if (prev) for (const k of Object.keys(prev)) if (!(k in next)) remove(k);
}

export function deleteCampaign(db: Database, id: string): void {
  for (const table of [t.regiments, t.individuals, t.events, t.outboxMessages] as const) {
    db.delete(table).where(eq(table.campaignId, id)).run();
  }
  db.delete(t.campaigns).where(eq(t.campaigns.id, id)).run();
}
