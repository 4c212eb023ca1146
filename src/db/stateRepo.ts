import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Army } from '../engine/forces/index.js';
import { formatHex, type Hex, hexToOffset, parseHex } from '../engine/hex/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import { sameJson } from '../engine/replay/index.js';
import type { CampaignState } from '../engine/state/index.js';
import type { Database } from './client.js';
import { forgetClosedContact, recordClosedContact } from './contactEstimateRepo.js';
import { bound, excluded, oneOff, perConnection, readSoon, runUnanswered } from './prepared.js';
import type * as t from './schema.js';

/** A campaign's state as stored: plain JSON in the shape of `version`, to be upgraded by the engine before use. */
export interface StoredState {
  readonly version: number;
  readonly json: object;
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

const p = sql.placeholder;

const insertCampaignRow = perConnection((q, t) => q.insert(t.campaigns).values({
  id: p('id'), guildId: p('guildId'), channelId: p('channelId'), name: p('name'), scenarioId: p('scenarioId'), scenario: bound(t.campaigns.scenario, 'scenario'),
  ownerUserId: p('ownerUserId'), status: p('status'), season: p('season'), settings: bound(t.campaigns.settings, 'settings'), clockDay: p('clockDay'),
  clockHalf: p('clockHalf'), rng: bound(t.campaigns.rng, 'rng'), manualDice: bound(t.campaigns.manualDice, 'manualDice'), nextId: p('nextId'),
  nextCourierId: p('nextCourierId'), stateVersion: p('stateVersion'), createdAt: p('createdAt'), updatedAt: p('updatedAt'),
}).prepare());

type NewCampaignRow = Pick<typeof t.campaigns.$inferInsert, 'id' | 'guildId' | 'channelId' | 'name' | 'scenarioId' | 'scenario' | 'ownerUserId' | 'status'
  | 'season' | 'settings' | 'clockDay' | 'clockHalf' | 'rng' | 'manualDice' | 'nextId' | 'nextCourierId' | 'stateVersion' | 'createdAt' | 'updatedAt'>;

export function insertCampaign(conn: Database, meta: Pick<typeof t.campaigns.$inferSelect, 'guildId' | 'channelId' | 'ownerUserId' | 'createdAt'>, state: CampaignState, scenario: ScenarioDoc, version: number): void {
  const row: Required<NewCampaignRow> = {
    id: state.id, guildId: meta.guildId, channelId: meta.channelId, name: state.name, scenarioId: state.scenarioId, scenario, ownerUserId: meta.ownerUserId,
    status: state.status, season: state.season, settings: state.settings, clockDay: state.clock.day, clockHalf: state.clock.half, rng: state.rng,
    manualDice: state.manualDice, nextId: state.nextId, nextCourierId: state.nextCourierId, stateVersion: version, createdAt: meta.createdAt, updatedAt: meta.createdAt,
  };
  insertCampaignRow(conn).run(row);
  writeEntities(conn, undefined, state);
}

const campaignRow = perConnection((q, { campaigns: c }) => q.select({
  id: c.id, name: c.name, scenarioId: c.scenarioId, season: c.season, status: c.status, settings: c.settings, clockDay: c.clockDay, clockHalf: c.clockHalf,
  rng: c.rng, manualDice: c.manualDice, nextId: c.nextId, nextCourierId: c.nextCourierId, stateVersion: c.stateVersion,
}).from(c).where(eq(c.id, p('id'))).prepare());
const sideRows = perConnection((q, t) => q.select({ id: t.sides.id, name: t.sides.name, colour: t.sides.colour, hostileTo: t.sides.hostileTo })
  .from(t.sides).where(eq(t.sides.campaignId, p('id'))).orderBy(t.sides.id).prepare());
const regimentRows = perConnection((q, { regiments: r }) => q.select({ armyId: r.armyId, id: r.id, name: r.name, role: r.role, originalFigures: r.originalFigures, companies: r.companies, data: r.data })
  .from(r).where(eq(r.campaignId, p('id'))).orderBy(r.armyId, r.ord).prepare());
const individualRows = perConnection((q, { individuals: i }) => q.select({ armyId: i.armyId, id: i.id, name: i.name, kind: i.kind, data: i.data })
  .from(i).where(eq(i.campaignId, p('id'))).orderBy(i.armyId, i.ord).prepare());
const armyRows = perConnection((q, { armies: a }) => q.select({ id: a.id, name: a.name, commander: a.commander, sideId: a.sideId, hex: a.hex, formation: a.formation, data: a.data })
  .from(a).where(eq(a.campaignId, p('id'))).orderBy(a.id).prepare());
const orderRows = perConnection((q, t) => q.select({ armyId: t.orders.armyId, data: t.orders.data }).from(t.orders).where(eq(t.orders.campaignId, p('id'))).orderBy(t.orders.armyId).prepare());
const weatherRow = perConnection((q, { weather: w }) => q.select({ sky: w.sky, fog: w.fog, wind: w.wind, rainLevel: w.rainLevel, data: w.data }).from(w).where(eq(w.campaignId, p('id'))).prepare());
const liveContacts = perConnection((q, t) => q.select({ id: t.contacts.id, data: t.contacts.data }).from(t.contacts)
  .where(and(eq(t.contacts.campaignId, p('id')), eq(t.contacts.live, true))).orderBy(t.contacts.id).prepare());
const liveCouriers = perConnection((q, t) => q.select({ id: t.couriers.id, data: t.couriers.data }).from(t.couriers)
  .where(and(eq(t.couriers.campaignId, p('id')), eq(t.couriers.live, true))).orderBy(t.couriers.id).prepare());
const knowledgeRows = perConnection((q, t) => q.select({ key: t.knowledge.key, data: t.knowledge.data }).from(t.knowledge)
  .where(eq(t.knowledge.campaignId, p('id'))).orderBy(asc(t.knowledge.key)).prepare());

/** Rows grouped by army, in the order read. */
function byArmy<R extends { armyId: string }, V>(rows: readonly R[], value: (row: R) => V): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const row of rows) {
    const list = out.get(row.armyId) ?? [];
    list.push(value(row));
    out.set(row.armyId, list);
  }
  return out;
}

/**
 * Loads the live state of a campaign as stored (closed contacts and finished couriers stay in
 * their tables, out of the state), each keyed collection in id order. Never reads the scenario
 * document.
 */
export function loadState(conn: Database, id: string): StoredState | undefined {
  const cr = campaignRow(conn).get({ id });
  if (!cr) return undefined;
  const sides = Object.fromEntries(sideRows(conn).all({ id }).map((s) => [s.id, s]));
  const regs = byArmy(regimentRows(conn).all({ id }), ({ armyId: _a, data, ...cols }) => ({ ...data, ...cols }));
  const inds = byArmy(individualRows(conn).all({ id }), ({ armyId: _a, id: iid, name, kind, data }) => ({ id: iid, name, kind, ...data }));
  const armies = Object.fromEntries(armyRows(conn).all({ id }).map((ar) => [ar.id, {
    ...ar.data, id: ar.id, name: ar.name, commander: ar.commander, side: ar.sideId, hex: hexOf(ar.hex), formation: ar.formation,
    regiments: regs.get(ar.id) ?? [], individuals: inds.get(ar.id) ?? [],
  }]));
  const orders = Object.fromEntries(orderRows(conn).all({ id }).map((o) => [o.armyId, o.data]));
  const wr = weatherRow(conn).get({ id });
  const keyed = (rows: readonly { id: string; data: unknown }[]): Record<string, unknown> => Object.fromEntries(rows.map((row) => [row.id, row.data]));
  const knowledge: { armies: Record<string, unknown>; reports: Record<string, unknown> } = { armies: {}, reports: {} };
  // Plans share the keyed table (`plan:<army id>`): one small JSON row per army, like its memory.
  const plans: Record<string, unknown> = {};
  for (const k of knowledgeRows(conn).all({ id })) {
    const [kind, ...rest] = k.key.split(':');
    if (kind === 'army') knowledge.armies[rest.join(':')] = k.data;
    else if (kind === 'report') knowledge.reports[rest.join(':')] = k.data;
    else if (kind === 'plan') plans[rest.join(':')] = k.data;
  }
  return {
    version: cr.stateVersion,
    json: {
      id: cr.id,
      name: cr.name,
      scenarioId: cr.scenarioId,
      season: cr.season,
      status: cr.status,
      settings: cr.settings,
      clock: { day: cr.clockDay, half: cr.clockHalf },
      sides,
      armies,
      orders,
      ...(wr ? { weather: { ...wr.data, sky: wr.sky, fog: wr.fog, wind: wr.wind, rainLevel: wr.rainLevel } } : {}),
      contacts: keyed(liveContacts(conn).all({ id })),
      couriers: keyed(liveCouriers(conn).all({ id })),
      rng: cr.rng,
      manualDice: cr.manualDice,
      knowledge,
      plans,
      nextId: cr.nextId,
      nextCourierId: cr.nextCourierId,
    },
  };
}

const saveCampaignRow = perConnection((q, { campaigns: c }) => q.update(c).set({
  name: bound(c.name, 'name'), status: bound(c.status, 'status'), season: bound(c.season, 'season'), settings: bound(c.settings, 'settings'),
  clockDay: bound(c.clockDay, 'clockDay'), clockHalf: bound(c.clockHalf, 'clockHalf'), rng: bound(c.rng, 'rng'), manualDice: bound(c.manualDice, 'manualDice'),
  nextId: bound(c.nextId, 'nextId'), nextCourierId: bound(c.nextCourierId, 'nextCourierId'), stateVersion: bound(c.stateVersion, 'stateVersion'),
  updatedAt: bound(c.updatedAt, 'updatedAt'), revision: sql`${c.revision} + 1`,
}).where(eq(c.id, p('id'))).returning({ revision: c.revision }).prepare());

type SavedCampaignRow = Required<Pick<typeof t.campaigns.$inferInsert, 'id' | 'name' | 'status' | 'season' | 'settings' | 'clockDay' | 'clockHalf' | 'rng'
  | 'manualDice' | 'nextId' | 'nextCourierId' | 'stateVersion' | 'updatedAt'>>;

/**
 * Writes what changed between two states of the same campaign, in the shape of `version`, and
 * returns the state's new revision.
 * Entities are compared by their JSON; unchanged rows are not touched, unless `rewriteAll` (the
 * stored rows were in an older shape: every row is written in the new one). A contact or courier
 * that left the live state keeps its row, marked not live. Call inside a transaction.
 * `revision`: the revision this transaction read under the campaign's hold (nobody else can change
 * it before the commit), so the new one is the next and the row's update is not waited for (on
 * PostgreSQL it goes with the next statement, prepared.ts `runUnanswered`); without it, the update
 * answers the new revision.
 */
export function saveState(conn: Database, prev: CampaignState, next: CampaignState, now: string, version: number, rewriteAll = false, revision?: number): number {
  const values: SavedCampaignRow = {
    id: next.id, name: next.name, status: next.status, season: next.season, settings: next.settings, clockDay: next.clock.day, clockHalf: next.clock.half,
    rng: next.rng, manualDice: next.manualDice, nextId: next.nextId, nextCourierId: next.nextCourierId, stateVersion: version, updatedAt: now,
  };
  let saved: number;
  if (revision === undefined) {
    const row = saveCampaignRow(conn).get(values);
    if (!row) throw new Error(`campaign ${next.id} has no row to save its state in`);
    saved = row.revision;
  } else {
    runUnanswered(saveCampaignRow(conn), values);
    saved = revision + 1;
  }
  writeEntities(conn, prev, next, rewriteAll);
  return saved;
}

const revisionOf = perConnection((q, { campaigns: c }) => q.select({ revision: c.revision }).from(c).where(eq(c.id, p('id'))).prepare());

/**
 * The revision of a campaign's stored state (bumped by every `saveState`), read without loading
 * the state: an in-memory copy read or written at this revision is the stored state. Undefined
 * when there is no such campaign.
 */
export function stateRevision(conn: Database, id: string): number | undefined {
  return revisionOf(conn).get({ id })?.revision;
}

// Written out whole: Drizzle names a column without its table in a one-table select, and inside a
// subquery `"campaign_id" = "id"` would be the inner table's own id (never equal: no pulse at all).
const LAST_EVENT = sql<number | string | null>`(select max(e.id) from events e where e.campaign_id = campaigns.id)`;
const INBOX = sql<string>`(select count(*) || ':' || coalesce(sum(o.id), 0) from outbox_messages o where o.campaign_id = campaigns.id and o.read_at is null and o.status in ('dmClosed', 'failed'))`;

/** What `campaignPulses` reads of a campaign: its state's revision, and a fingerprint of the rest. */
export interface CampaignPulse {
  readonly revision: number;
  /** The revision, the log's last event id, and the undelivered messages not yet read (how many, and their ids summed): moves when any moves. */
  readonly pulse: string;
}

/**
 * The pulse of several campaigns, in ONE statement whatever their number (the web page's watch
 * for changes other processes commit, src/web/campaignWatch.ts): the stored state's revision
 * (every save, undo included), the log's last event id (a line logged without a save), and the
 * referee's inbox (a DM refused or given up by a delivery, or read with /intel: no save, no
 * event). A campaign that is gone has no entry. No statement at all for no campaign.
 */
export function campaignPulses(conn: Database, ids: readonly string[]): Map<string, CampaignPulse> {
  if (ids.length === 0) return new Map();
  const rows = oneOff(conn, (q, { campaigns: c }) => q.select({ id: c.id, revision: c.revision, lastEvent: LAST_EVENT, inbox: INBOX }).from(c).where(inArray(c.id, [...ids])).prepare()).all();
  return new Map(rows.map((r) => [r.id, { revision: r.revision, pulse: `${r.revision}|${r.lastEvent ?? 0}|${r.inbox}` }]));
}

/** `stateRevision` will be read soon (prepared.ts `readSoon`). */
export function stateRevisionSoon(conn: Database, id: string): void {
  readSoon(revisionOf(conn), { id });
}

const cid = p('cid');
const upsertArmy = perConnection((q, { armies: a }) => q.insert(a).values({
  campaignId: cid, id: p('id'), name: p('name'), commander: p('commander'), sideId: p('sideId'), hex: p('hex'), formation: p('formation'), data: bound(a.data, 'data'),
}).onConflictDoUpdate({ target: [a.campaignId, a.id], set: {
  name: excluded(a.name), commander: excluded(a.commander), sideId: excluded(a.sideId), hex: excluded(a.hex), formation: excluded(a.formation), data: excluded(a.data),
} }).prepare());
const deleteArmy = perConnection((q, { armies: a }) => q.delete(a).where(and(eq(a.campaignId, cid), eq(a.id, p('id')))).prepare());
const deleteRegiments = perConnection((q, { regiments: r }) => q.delete(r).where(and(eq(r.campaignId, cid), eq(r.armyId, p('armyId')))).prepare());
const insertRegiment = perConnection((q, { regiments: r }) => q.insert(r).values({
  campaignId: cid, armyId: p('armyId'), id: p('id'), ord: p('ord'), name: p('name'), role: p('role'), originalFigures: p('originalFigures'),
  currentFigures: p('currentFigures'), companies: bound(r.companies, 'companies'), data: bound(r.data, 'data'),
}).prepare());
const deleteIndividuals = perConnection((q, { individuals: i }) => q.delete(i).where(and(eq(i.campaignId, cid), eq(i.armyId, p('armyId')))).prepare());
const insertIndividual = perConnection((q, { individuals: i }) => q.insert(i).values({
  campaignId: cid, armyId: p('armyId'), id: p('id'), ord: p('ord'), name: p('name'), kind: p('kind'), data: bound(i.data, 'data'),
}).prepare());
const upsertSide = perConnection((q, { sides: sd }) => q.insert(sd).values({ campaignId: cid, id: p('id'), name: p('name'), colour: p('colour'), hostileTo: bound(sd.hostileTo, 'hostileTo') })
  .onConflictDoUpdate({ target: [sd.campaignId, sd.id], set: { name: excluded(sd.name), colour: excluded(sd.colour), hostileTo: excluded(sd.hostileTo) } }).prepare());
const deleteSide = perConnection((q, { sides: sd }) => q.delete(sd).where(and(eq(sd.campaignId, cid), eq(sd.id, p('id')))).prepare());
const upsertOrder = perConnection((q, { orders: o }) => q.insert(o).values({ campaignId: cid, armyId: p('armyId'), kind: p('kind'), givenBy: p('givenBy'), data: bound(o.data, 'data') })
  .onConflictDoUpdate({ target: [o.campaignId, o.armyId], set: { kind: excluded(o.kind), givenBy: excluded(o.givenBy), data: excluded(o.data) } }).prepare());
const deleteOrder = perConnection((q, { orders: o }) => q.delete(o).where(and(eq(o.campaignId, cid), eq(o.armyId, p('armyId')))).prepare());
const upsertContact = perConnection((q, { contacts: ct }) => q.insert(ct).values({ campaignId: cid, id: p('id'), step: p('step'), armyIds: bound(ct.armyIds, 'armyIds'), data: bound(ct.data, 'data'), live: true })
  .onConflictDoUpdate({ target: [ct.campaignId, ct.id], set: { step: excluded(ct.step), armyIds: excluded(ct.armyIds), data: excluded(ct.data), live: true } }).prepare());
const closeContact = perConnection((q, { contacts: ct }) => q.update(ct).set({ live: false }).where(and(eq(ct.campaignId, cid), eq(ct.id, p('id')))).prepare());
const upsertCourier = perConnection((q, { couriers: cu }) => q.insert(cu).values({ campaignId: cid, id: p('id'), status: p('status'), data: bound(cu.data, 'data'), live: true })
  .onConflictDoUpdate({ target: [cu.campaignId, cu.id], set: { status: excluded(cu.status), data: excluded(cu.data), live: true } }).prepare());
const closeCourier = perConnection((q, { couriers: cu }) => q.update(cu).set({ live: false }).where(and(eq(cu.campaignId, cid), eq(cu.id, p('id')))).prepare());
const upsertKnowledge = perConnection((q, { knowledge: k }) => q.insert(k).values({ campaignId: cid, key: p('key'), data: bound(k.data, 'data') })
  .onConflictDoUpdate({ target: [k.campaignId, k.key], set: { data: excluded(k.data) } }).prepare());
const deleteKnowledge = perConnection((q, { knowledge: k }) => q.delete(k).where(and(eq(k.campaignId, cid), eq(k.key, p('key')))).prepare());
const upsertWeather = perConnection((q, { weather: w }) => q.insert(w).values({ campaignId: cid, sky: p('sky'), fog: bound(w.fog, 'fog'), wind: p('wind'), rainLevel: p('rainLevel'), data: bound(w.data, 'data') })
  .onConflictDoUpdate({ target: w.campaignId, set: { sky: excluded(w.sky), fog: excluded(w.fog), wind: excluded(w.wind), rainLevel: excluded(w.rainLevel), data: excluded(w.data) } }).prepare());

/** A row's values for one of the statements above: the columns of `T` it sets, the campaign as `cid`. */
type Values<T extends { $inferInsert: object }, K extends keyof T['$inferInsert']> = Required<Pick<T['$inferInsert'], K>> & { cid: string };

function writeArmies(conn: Database, prev: CampaignState | undefined, next: CampaignState, changed: (x: unknown, y: unknown) => boolean, rewriteAll: boolean): void {
  // The same record (a use-case that touched no army shares it): every army is its own old self, nothing to write or drop.
  if (!rewriteAll && prev?.armies === next.armies) return;
  const cidv = next.id;
  for (const ar of Object.values(next.armies)) {
    const old = prev?.armies[ar.id];
    if (!changed(old, ar)) continue;
    const army: Values<typeof t.armies, 'id' | 'name' | 'commander' | 'sideId' | 'hex' | 'formation' | 'data'> = {
      cid: cidv, id: ar.id, name: ar.name, commander: ar.commander, sideId: ar.side, hex: storedHexId(ar.hex), formation: ar.formation, data: armyData(ar),
    };
    runUnanswered(upsertArmy(conn), army);
    if (changed(old?.regiments, ar.regiments)) {
      runUnanswered(deleteRegiments(conn), { cid: cidv, armyId: ar.id });
      ar.regiments.forEach((reg, ord) => {
        const { id, name, role, originalFigures, companies, ...data } = reg;
        const row: Values<typeof t.regiments, 'armyId' | 'id' | 'ord' | 'name' | 'role' | 'originalFigures' | 'currentFigures' | 'companies' | 'data'> = {
          cid: cidv, armyId: ar.id, id, ord, name, role, originalFigures, currentFigures: companies.reduce((n, co) => n + co.figures, 0), companies, data,
        };
        runUnanswered(insertRegiment(conn), row);
      });
    }
    if (changed(old?.individuals, ar.individuals)) {
      runUnanswered(deleteIndividuals(conn), { cid: cidv, armyId: ar.id });
      ar.individuals.forEach((ind, ord) => {
        const { id, name, kind, ...data } = ind;
        const row: Values<typeof t.individuals, 'armyId' | 'id' | 'ord' | 'name' | 'kind' | 'data'> = { cid: cidv, armyId: ar.id, id, ord, name, kind, data };
        runUnanswered(insertIndividual(conn), row);
      });
    }
  }
  if (!prev) return;
  for (const id of Object.keys(prev.armies)) {
    if (next.armies[id]) continue;
    runUnanswered(deleteArmy(conn), { cid: cidv, id });
    runUnanswered(deleteRegiments(conn), { cid: cidv, armyId: id });
    runUnanswered(deleteIndividuals(conn), { cid: cidv, armyId: id });
  }
}

function writeEntities(conn: Database, prev: CampaignState | undefined, next: CampaignState, rewriteAll = false): void {
  const cidv = next.id;
  const changed = (x: unknown, y: unknown): boolean => rewriteAll || x === undefined || !sameJson(x, y);
  writeArmies(conn, prev, next, changed, rewriteAll);
  syncKeyed(prev?.sides, next.sides, rewriteAll, (id, side) => {
    const row: Values<typeof t.sides, 'id' | 'name' | 'colour' | 'hostileTo'> = { cid: cidv, id, name: side.name, colour: side.colour, hostileTo: side.hostileTo };
    runUnanswered(upsertSide(conn), row);
  }, (id) => runUnanswered(deleteSide(conn), { cid: cidv, id }));
  syncKeyed(prev?.orders, next.orders, rewriteAll, (armyId, ord) => {
    const row: Values<typeof t.orders, 'armyId' | 'kind' | 'givenBy' | 'data'> = { cid: cidv, armyId, kind: ord.kind, givenBy: ord.givenBy, data: ord };
    runUnanswered(upsertOrder(conn), row);
  }, (armyId) => runUnanswered(deleteOrder(conn), { cid: cidv, armyId }));
  syncKeyed(prev?.contacts, next.contacts, rewriteAll, (id, con) => {
    const row: Values<typeof t.contacts, 'id' | 'step' | 'armyIds' | 'data'> = { cid: cidv, id, step: con.step, armyIds: con.armyIds, data: con };
    runUnanswered(upsertContact(conn), row);
    // Live (again, after an undo): its estimates are no longer a closed record's.
    if (prev?.contacts[id] === undefined) forgetClosedContact(conn, cidv, id);
  // A closed contact leaves the live state; its row stays as the record of what happened.
  }, (id) => {
    runUnanswered(closeContact(conn), { cid: cidv, id });
    const closed = prev?.contacts[id];
    if (closed) recordClosedContact(conn, cidv, closed);
  });
  syncKeyed(prev?.couriers, next.couriers, rewriteAll, (id, cour) => {
    const row: Values<typeof t.couriers, 'id' | 'status' | 'data'> = { cid: cidv, id, status: cour.status, data: cour };
    runUnanswered(upsertCourier(conn), row);
  }, (id) => runUnanswered(closeCourier(conn), { cid: cidv, id }));
  const knowledgeRow = (key: string, data: object): void => {
    const row: Values<typeof t.knowledge, 'key' | 'data'> = { cid: cidv, key, data };
    runUnanswered(upsertKnowledge(conn), row);
  };
  const dropKnowledge = (key: string): void => {
    runUnanswered(deleteKnowledge(conn), { cid: cidv, key });
  };
  syncKeyed(prev?.knowledge.armies, next.knowledge.armies, rewriteAll, (id, v) => knowledgeRow(`army:${id}`, v), (id) => dropKnowledge(`army:${id}`));
  syncKeyed(prev?.knowledge.reports, next.knowledge.reports, rewriteAll, (id, v) => knowledgeRow(`report:${id}`, v), (id) => dropKnowledge(`report:${id}`));
  syncKeyed(prev?.plans, next.plans, rewriteAll, (id, v) => knowledgeRow(`plan:${id}`, v), (id) => dropKnowledge(`plan:${id}`));
  if (changed(prev?.weather, next.weather)) {
    const { sky, fog, wind, rainLevel, ...data } = next.weather;
    const row: Values<typeof t.weather, 'sky' | 'fog' | 'wind' | 'rainLevel' | 'data'> = { cid: cidv, sky, fog, wind, rainLevel, data };
    runUnanswered(upsertWeather(conn), row);
  }
}

function syncKeyed<T>(prev: Readonly<Record<string, T>> | undefined, next: Readonly<Record<string, T>>, rewriteAll: boolean, upsert: (key: string, v: T) => void, remove: (key: string) => void): void {
  // The same record shared by the new state: each entry is its old self (states are never changed in place), nothing to write.
  if (!rewriteAll && prev === next) return;
  for (const [key, v] of Object.entries(next)) if (rewriteAll || !prev || !sameJson(prev[key], v)) upsert(key, v);
  if (prev) for (const key of Object.keys(prev)) if (!(key in next)) remove(key);
}
