import { createHash } from 'node:crypto';
import { SeededDice } from '../engine/dice/dice.js';
import { REFEREE, type EngineEvent } from '../engine/events/events.js';
import type { MapModel } from '../engine/map/mapModel.js';
import type { ScenarioDoc } from '../engine/scenario/schema.js';
import type { CampaignState } from '../engine/state/campaign.js';
import type { Database } from '../db/client.js';
import { findCampaignInChannel, getCampaignMeta, loadScenario, loadState, saveState, type CampaignMeta } from '../db/campaignRepo.js';
import { appendEvents } from '../db/eventRepo.js';
import { listMembers, type Member } from '../db/memberRepo.js';
import { enqueue, type NewOutboxMessage } from '../db/outboxRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { UserError } from './errors.js';
import type { Message, MessageButton, MessageFile } from './messages.js';
import { isReferee, refereeIds } from './referees.js';
import { mapOf } from './scenarios.js';

/** A DM or channel post a use-case wants delivered after commit. */
export type Outgoing =
  | { readonly to: 'dm'; readonly userId: string; readonly content: string; readonly data?: unknown; readonly files?: readonly MessageFile[]; readonly buttons?: readonly MessageButton[]; readonly dedupeKey?: string }
  | { readonly to: 'channel'; readonly content: string; readonly data?: unknown; readonly files?: readonly MessageFile[]; readonly dedupeKey?: string };

/** Everything a use-case may read inside its transaction. */
export interface CampaignTx {
  readonly db: Database;
  readonly meta: CampaignMeta;
  readonly state: CampaignState;
  readonly scenario: ScenarioDoc;
  readonly map: MapModel;
  /** Identifies the map's picture in the render cache. */
  readonly mapKey: string;
  readonly members: readonly Member[];
  readonly actor: Actor | undefined;
  readonly isReferee: boolean;
  readonly dice: SeededDice;
  readonly now: Date;
}

/** What a use-case decided: the new state, the events to log, messages to send, and its replies. */
export interface Change<R = readonly Message[]> {
  readonly state?: CampaignState;
  readonly events?: readonly EngineEvent[];
  readonly outbox?: readonly Outgoing[];
  readonly result: R;
}

/**
 * The scenario and map of a campaign never change after creation: cache them per campaign, and
 * share one copy between campaigns created from the same scenario.
 */
export function staticsOf(app: App, db: Database, id: string): { scenario: ScenarioDoc; map: MapModel; mapKey: string } {
  let s = app.statics.get(id);
  if (!s) {
    const loaded = loadScenario(db, id);
    if (!loaded) throw new Error(`campaign ${id} has no scenario`);
    // Campaigns drawn on the same map share one cached picture of it (and one map model).
    const mapKey = createHash('sha1').update(JSON.stringify(loaded)).digest('hex');
    s = [...app.statics.values()].find((v) => v.mapKey === mapKey) ?? { scenario: loaded, map: mapOf(loaded), mapKey };
    app.statics.set(id, s);
  }
  return s;
}

export function forgetCampaign(app: App, id: string): void {
  app.statics.delete(id);
}

export function campaignInChannel(app: App, actor: Actor): CampaignMeta {
  const meta = findCampaignInChannel(app.db, actor.guildId, actor.channelId);
  if (!meta) throw new UserError('campaign.none', 'There is no campaign in this channel. A referee can start one with `/campaign create scenario:valormr name:"..."`.');
  return meta;
}

/**
 * Runs one use-case in ONE synchronous transaction: load the campaign, let `fn` decide, then
 * save the state, append the events (and every die rolled) to the log and queue the outbox.
 * Nothing is written when `fn` throws.
 */
export function inCampaign<R>(app: App, target: { actor: Actor } | { campaignId: string }, fn: (tx: CampaignTx) => Change<R>): R {
  const now = app.clock.now();
  const nowIso = now.toISOString();
  let used = 0;
  const result = app.db.transaction((db) => {
    const tdb = db as unknown as Database;
    const actor = 'actor' in target ? target.actor : undefined;
    const meta = 'actor' in target ? campaignInChannel({ ...app, db: tdb }, target.actor) : getCampaignMeta(tdb, target.campaignId);
    if (!meta) throw new UserError('campaign.none', 'That campaign no longer exists.');
    const state = loadState(tdb, meta.id);
    if (!state) throw new Error(`campaign ${meta.id} has no state`);
    const { scenario, map, mapKey } = staticsOf(app, tdb, meta.id);
    const members = listMembers(tdb, meta.id);
    const dice = new SeededDice(state.rng, app.scriptedDice);
    const tx: CampaignTx = { db: tdb, meta, state, scenario, map, mapKey, members, actor, isReferee: isReferee(meta, members, state.settings, actor), dice, now };
    const change = fn(tx);
    const next = change.state ?? state;
    const withRng = dice.rolls.length > 0 ? { ...next, rng: dice.state() } : next;
    if (withRng !== state) saveState(tdb, state, withRng, nowIso);
    const rollEvents: EngineEvent[] = dice.rolls.map((r) => ({ type: 'diceRolled', audience: REFEREE, text: `d${r.sides} for ${r.purpose}: ${r.value}`, data: { ...r } }));
    appendEvents(tdb, meta.id, withRng.clock, actor?.userId ?? null, [...(change.events ?? []), ...rollEvents], nowIso);
    for (const o of change.outbox ?? []) enqueue(tdb, toOutboxRow(meta, o), nowIso);
    used = app.scriptedDice.length - dice.remainingScript().length;
    return change.result;
  }, { behavior: 'immediate' });
  app.scriptedDice.splice(0, used);
  return result;
}

function toOutboxRow(meta: CampaignMeta, o: Outgoing): NewOutboxMessage {
  const files = o.files?.map((f) => ({ name: f.name, base64: Buffer.from(f.data).toString('base64') }));
  const base = { campaignId: meta.id, content: o.content, data: o.data, ...(files ? { files } : {}), ...(o.dedupeKey ? { dedupeKey: o.dedupeKey } : {}) };
  return o.to === 'dm'
    ? { ...base, to: 'dm', userId: o.userId, ...(o.buttons ? { buttons: o.buttons.map((b) => ({ ...b })) } : {}) }
    : { ...base, to: 'channel', channelId: meta.channelId };
}

/** Users who command an army (several users may share one; none means the referee reads it). */
export function commandersOf(tx: Pick<CampaignTx, 'members'>, armyId: string): string[] {
  return tx.members.filter((m) => m.role === 'commander' && m.armyId === armyId).map((m) => m.userId);
}

/** Armies the actor commands. */
export function armiesOf(tx: Pick<CampaignTx, 'members'>, userId: string): string[] {
  return tx.members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId);
}

export function requireReferee(tx: CampaignTx, what: string): void {
  if (!tx.isReferee) throw new UserError('campaign.refereeOnly', `Only the referee can ${what}.`);
}

/** Turns engine events into deliveries: public lines to the channel, each army's lines to its commanders, referee lines to the referee. */
export function routeEvents(tx: CampaignTx, list: readonly EngineEvent[], opts: { header?: string; publicToChannel?: boolean; dedupe?: string } = {}): Outgoing[] {
  const out: Outgoing[] = [];
  const header = opts.header ? `${opts.header}\n` : '';
  const pub = list.filter((e) => e.audience.kind === 'public');
  if ((opts.publicToChannel ?? true) && pub.length > 0) {
    out.push({ to: 'channel', content: header + pub.map((e) => e.text).join('\n'), data: { events: pub.map((e) => ({ type: e.type, data: e.data })) } });
  }
  const byArmy = new Map<string, EngineEvent[]>();
  for (const e of list) if (e.audience.kind === 'army') byArmy.set(e.audience.armyId, [...(byArmy.get(e.audience.armyId) ?? []), e]);
  // Armies nobody commands yet: one digest for the referee instead of a DM per army.
  const unassigned: string[] = [];
  for (const [armyId, evs] of byArmy) {
    const users = commandersOf(tx, armyId);
    const army = tx.state.armies[armyId];
    const name = army?.name ?? armyId;
    if (users.length === 0) {
      unassigned.push(`__${name}__: ${evs.map((e) => e.text).join(' ')}`);
      continue;
    }
    const buttons = evs.flatMap((e) => (e.data?.buttons as MessageButton[] | undefined) ?? []);
    const content = `**${name}** (${tx.state.name}) ${header}` + evs.map((e) => e.text).join('\n');
    for (const userId of users) {
      out.push({ to: 'dm', userId, content, data: { armyId, events: evs.map((e) => ({ type: e.type, data: e.data })) }, ...(buttons.length > 0 ? { buttons } : {}) });
    }
  }
  const ref = list.filter((e) => e.audience.kind === 'referee' && e.type !== 'diceRolled');
  if (ref.length > 0 || unassigned.length > 0) {
    const referees = refereeIds(tx.meta, tx.members);
    const lines = [...ref.map((e) => e.text), ...(unassigned.length > 0 ? ['Armies without a commander:', ...unassigned] : [])];
    for (const userId of referees) out.push({ to: 'dm', userId, content: `**Referee** (${tx.state.name}) ${header}` + lines.join('\n'), data: { events: ref.map((e) => ({ type: e.type, data: e.data })) } });
  }
  return out;
}
