import { createHash, randomBytes } from 'node:crypto';
import { classifyRoll, consumeDice, enteredDice, isManualRoll, SeededDice } from '../engine/dice/index.js';
import type { EngineEvent } from '../engine/events/index.js';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { MapView } from '../engine/views/index.js';
import { byId, type CampaignState, type ContactRecord, STATE_VERSION, StateVersionError, upgradeState } from '../engine/state/index.js';
import { readTransaction, writeTransaction, type Database } from '../db/client.js';
import {
  closedContacts, deleteCampaign, findCampaignInChannel, getCampaignMeta, insertCampaign, loadScenario, loadState, saveState, setControl,
  type CampaignControl, type CampaignMeta,
} from '../db/campaignRepo.js';
import { allEventsJson, appendEvents, chronicleEvents, diceEventsOf, eventsFor, lastEventId, lastEventsOfType, markEventsUndone, type StoredEvent } from '../db/eventRepo.js';
import { assignCommander, listMembers, unassignArmy, type Member } from '../db/memberRepo.js';
import { claimedMessage, enqueue, keptMessages, markRead, markUndeliverable, undeliveredMessages, type OutboxRow, type UndeliveredRow } from '../db/outboxRepo.js';
import { deleteTick, lastUndoableTick, playedTicks, recordTick, tickPlayed, undoableTicks, type PlayedTick, type UndoableTick } from '../db/tickRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { diceAsks } from './dice/askDice.js';
import { rollEvent } from './dice/rollLog.js';
import { UserError } from './errors.js';
import { armyCard, chronicleCard } from './cards.js';
import { fogged } from './fog.js';
import type { Card, CardField, MessageButton, Picture, Reply } from './messages.js';
import { isReferee, refereeIds } from './referees.js';
import { mapOf } from './scenarios.js';

/**
 * A DM or channel post a use-case wants delivered after commit. Pictures travel as views, drawn
 * at send time. `mentions` names the users the message is meant to ping (nothing else in it
 * ever pings: names are free text). `dedupeKey` makes it idempotent (queued once whatever calls it).
 */
interface OutgoingBase {
  /** The text; with cards, a short headline (what a notification shows). */
  readonly content: string;
  readonly cards?: readonly Card[];
  readonly data?: unknown;
  readonly pictures?: readonly Picture[];
  readonly mentions?: readonly string[];
  readonly dedupeKey?: string;
}
export type Outgoing =
  | (OutgoingBase & { readonly to: 'dm'; readonly userId: string; readonly buttons?: readonly MessageButton[] })
  | (OutgoingBase & { readonly to: 'channel' });

/** What a use-case may read besides the state, inside its transaction. Read-only. */
export interface CampaignReads {
  /** Logged events for these audiences ('public', 'referee', 'army:<id>'), newest last. */
  events(audiences: readonly string[], opts?: { types?: readonly string[]; limit?: number; afterId?: number }): StoredEvent[];
  /** The whole log as one JSON array, undone events included, and how many (export). */
  allEventsJson(): { json: string; count: number };
  lastEventId(): number;
  /** Whether the half period with this time index was already played. */
  tickPlayed(timeIndex: number): boolean;
  /** The last played tick if it can still be undone, and how many in a row can. */
  lastUndoableTick(): UndoableTick | undefined;
  undoableTicks(): number;
  /** Undeliverable DMs to this user not yet read with /intel. */
  keptMessages(userId: string): OutboxRow[];
  /** Contacts that have left the live state (closed), with `armyId` those the army took part in. */
  closedContacts(armyId?: string): ContactRecord[];
  /** The outbox message, if it is still pending and claimed by `owner`. */
  claimedMessage(id: number, owner: string): OutboxRow | undefined;
  /** Messages not delivered and not yet dealt with (closed DMs not read with /intel, deliveries given up), oldest first. */
  undelivered(): UndeliveredRow[];
  /** The dice events of one dice period (rolls, commitment, reveal), undone ones included, in log order. */
  diceEvents(period: number): StoredEvent[];
  /** The last `limit` events of a type, newest last, undone ones included. */
  lastOfType(type: string, limit: number): StoredEvent[];
  /** Every played half period, in order (the book, the time-lapse). */
  playedTicks(): PlayedTick[];
  /** Every event for these audiences not withdrawn by an undo, in order, leaving out some types (the book). */
  chronicle(audiences: readonly string[], without: readonly string[]): StoredEvent[];
}

/** Where every army stood after a tick, and whether positions were public then. */
export interface TickFrame {
  readonly view: MapView;
  readonly fog: boolean;
}

/** Everything a use-case may read inside its transaction. */
export interface CampaignTx {
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
  /** The number new dice seeds are made from (the console's --seed, tests); undefined: random seeds. */
  readonly fixedSeed: number | undefined;
  readonly now: Date;
  readonly read: CampaignReads;
}

/** A change to who plays what. */
export type MemberChange =
  | { readonly kind: 'assign'; readonly armyId: string; readonly userId: string; readonly displayName: string }
  | { readonly kind: 'unassign'; readonly armyId: string };

/**
 * What a use-case decided: everything it changes, written in its one transaction. The use-case
 * itself never writes; it returns this.
 */
export interface Change<R = readonly Reply[]> {
  readonly state?: CampaignState;
  readonly events?: readonly EngineEvent[];
  readonly outbox?: readonly Outgoing[];
  /** Scheduling and control columns to set (next tick, reminders, held tick, extensions...). */
  readonly control?: Partial<CampaignControl>;
  /** A half period was played: record it (idempotence) with the state before it (undo) and where every army stood after it (the book, the time-lapse). */
  readonly tick?: { readonly timeIndex: number; readonly before: CampaignState; readonly frame?: TickFrame };
  /** A played half period was taken back: its tick row goes, its events are marked undone. */
  readonly undo?: { readonly timeIndex: number; readonly lastEventId: number };
  readonly members?: readonly MemberChange[];
  /** Kept DMs now read with /intel (they may be pruned after the retention period). */
  readonly readMessages?: readonly number[];
  /** An outbox message that will not be delivered: kept for /intel (dmClosed) or the referee (failed). */
  readonly undeliverable?: { readonly id: number; readonly owner: string; readonly status: 'dmClosed' | 'failed'; readonly attempts: number; readonly reason: string };
  /** The campaign is deleted, with its log and outbox. */
  readonly deleted?: boolean;
  readonly result: R;
}

/**
 * The scenario and map of a campaign never change after creation: cache them per campaign, and
 * share one copy between campaigns created from the same scenario.
 */
export function staticsOf(app: App, id: string): { scenario: ScenarioDoc; map: MapModel; mapKey: string } {
  let s = app.statics.get(id);
  if (!s) {
    const loaded = loadScenario(app.db, id);
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

function noCampaign(): never {
  throw new UserError('campaign.none', 'There is no campaign in this channel. A referee can start one with `/campaign create scenario:valormr name:"..."`.');
}

export function campaignInChannel(app: App, actor: Pick<Actor, 'guildId' | 'channelId'>): CampaignMeta {
  return findCampaignInChannel(app.db, actor.guildId, actor.channelId) ?? noCampaign();
}

/** A stored state in the current shape, whatever version wrote it. Refuses an unknown (newer) version with a sentence. */
function upgraded(json: object, version: number, what: string): CampaignState {
  try {
    return upgradeState(json, version);
  } catch (err) {
    if (err instanceof StateVersionError) throw new UserError('campaign.stateVersion', `I cannot open ${what}: ${err.message}`);
    throw err;
  }
}

function readsOn(db: Database, campaignId: string): CampaignReads {
  return {
    events: (audiences, opts = {}) => eventsFor(db, campaignId, audiences, opts),
    allEventsJson: () => allEventsJson(db, campaignId),
    lastEventId: () => lastEventId(db, campaignId),
    tickPlayed: (timeIndex) => tickPlayed(db, campaignId, timeIndex),
    lastUndoableTick: () => lastUndoableTick(db, campaignId),
    undoableTicks: () => undoableTicks(db, campaignId),
    keptMessages: (userId) => keptMessages(db, campaignId, userId),
    closedContacts: (armyId) => closedContacts(db, campaignId, armyId),
    claimedMessage: (id, owner) => claimedMessage(db, id, owner),
    undelivered: () => undeliveredMessages(db, campaignId),
    diceEvents: (period) => diceEventsOf(db, campaignId, period),
    lastOfType: (type, limit) => lastEventsOfType(db, campaignId, type, limit),
    playedTicks: () => playedTicks(db, campaignId),
    chronicle: (audiences, without) => chronicleEvents(db, campaignId, audiences, without),
  };
}

type Target = { actor: Actor } | { campaignId: string };

/** Loads what a use-case reads, inside a transaction. */
function open(app: App, target: Target): { tx: CampaignTx; storedVersion: number } {
  const db = app.db;
  const actor = 'actor' in target ? target.actor : undefined;
  const meta = 'actor' in target ? campaignInChannel(app, target.actor) : getCampaignMeta(db, target.campaignId);
  if (!meta) throw new UserError('campaign.none', 'That campaign no longer exists.');
  const stored = loadState(db, meta.id);
  if (!stored) throw new Error(`campaign ${meta.id} has no state`);
  const state = upgraded(stored.json, stored.version, 'this campaign');
  const { scenario, map, mapKey } = staticsOf(app, meta.id);
  const members = listMembers(db, meta.id);
  const tx: CampaignTx = {
    meta, state, scenario, map, mapKey, members, actor, dice: diceOf(state, app.scriptedDice), fixedSeed: app.seed, now: app.clock.now(),
    isReferee: isReferee(meta, members, state.settings, actor), read: readsOn(db, meta.id),
  };
  return { tx, storedVersion: stored.version };
}

/** The campaign's dice: entered manual dice first, then the script (tests, --dice), then the period's seeded dice. */
function diceOf(state: CampaignState, script: readonly number[]): SeededDice {
  const group = state.settings.manualDice;
  const armies = Object.values(state.armies);
  return new SeededDice(state.rng, {
    script,
    entered: enteredDice(state.manualDice),
    ...(group === 'none' ? {} : { isManual: (purpose: string) => isManualRoll(classifyRoll(purpose, armies), group) }),
  });
}

/** The state with what the dice did: the generator moved on, and the entered manual dice used up. */
function withDice(next: CampaignState, dice: SeededDice, before: CampaignState): CampaignState {
  const s = dice.changed() ? { ...next, rng: dice.state() } : next;
  const manual = consumeDice(s.manualDice, dice.usedEntries(), before.manualDice);
  return manual === s.manualDice ? s : { ...s, manualDice: manual };
}

/** A stored undo snapshot in the current shape. */
export function snapshotState(tick: UndoableTick): CampaignState {
  return upgraded(tick.snapshot, tick.version, 'the state before that half period');
}

/**
 * Runs one use-case in ONE synchronous write transaction: load the campaign (upgrading an older
 * stored shape), let `fn` decide, then write everything it returned: the state diff, the events
 * (and every die rolled) in the log, the outbox, control columns, the tick record, members.
 * Nothing is written when `fn` throws.
 */
export function inCampaign<R>(app: App, target: Target, fn: (tx: CampaignTx) => Change<R>): R {
  let used = 0;
  const db = app.db;
  const result = writeTransaction(db, () => {
    const { tx, storedVersion } = open(app, target);
    const change = fn(tx);
    const nowIso = tx.now.toISOString();
    const id = tx.meta.id;
    if (change.deleted) {
      deleteCampaign(db, id);
      return change.result;
    }
    const withRng = withDice(change.state ?? tx.state, tx.dice, tx.state);
    // A state stored in an older shape is rewritten whole in the current one.
    if (withRng !== tx.state || storedVersion !== STATE_VERSION) saveState(db, tx.state, withRng, nowIso, STATE_VERSION, storedVersion !== STATE_VERSION);
    if (change.tick) {
      recordTick(db, id, change.tick.timeIndex, change.tick.before, STATE_VERSION, lastEventId(db, id), nowIso, withRng.settings.undoDepth, change.tick.frame);
    }
    if (change.undo) {
      markEventsUndone(db, id, change.undo.lastEventId);
      deleteTick(db, id, change.undo.timeIndex);
    }
    const nameOf = (userId: string): string => tx.members.find((m) => m.userId === userId)?.displayName || (userId === tx.meta.ownerUserId ? 'the referee' : userId);
    const rollEvents = tx.dice.rolls.map((r) => rollEvent(r, nameOf));
    appendEvents(db, id, withRng.clock, tx.actor?.userId ?? null, [...fogged(withRng, change.events ?? []), ...rollEvents], nowIso);
    for (const m of change.members ?? []) {
      if (m.kind === 'assign') assignCommander(db, id, m.armyId, m.userId, m.displayName);
      else unassignArmy(db, id, m.armyId);
    }
    // Manual rolls asked for by this change go to the people who roll them.
    for (const o of [...(change.outbox ?? []), ...diceAsks({ ...tx, state: withRng }, tx.state.manualDice, withRng.manualDice)]) queue(db, tx.meta, o, nowIso);
    if (change.control) setControl(db, id, change.control);
    if (change.readMessages) markRead(db, change.readMessages, nowIso);
    const u = change.undeliverable;
    if (u) markUndeliverable(db, u.id, u.owner, u.status, u.attempts, u.reason);
    used = app.scriptedDice.length - tx.dice.remainingScript().length;
    return change.result;
  });
  app.scriptedDice.splice(0, used);
  return result;
}

/**
 * Runs a read-only use-case in one read transaction: a consistent snapshot that takes no write
 * lock (`/map`, `/intel` lists, autocomplete, status). `fn` returns only its answer.
 */
export function readCampaign<R>(app: App, target: Target, fn: (tx: CampaignTx) => R): R {
  return readTransaction(app.db, () => fn(open(app, target).tx));
}

/** Queues one outgoing message (inside the caller's transaction). */
function queue(db: Database, meta: Pick<CampaignMeta, 'id' | 'channelId'>, o: Outgoing, nowIso: string): boolean {
  const base = {
    campaignId: meta.id, content: o.content, data: o.data, nonce: randomBytes(8).toString('hex'),
    ...(o.pictures && o.pictures.length > 0 ? { pictures: o.pictures } : {}),
    ...(o.cards && o.cards.length > 0 ? { cards: o.cards } : {}),
    ...(o.mentions && o.mentions.length > 0 ? { mentions: [...o.mentions] } : {}),
    ...(o.dedupeKey ? { dedupeKey: o.dedupeKey } : {}),
  };
  return enqueue(db, o.to === 'dm'
    ? { ...base, to: 'dm', userId: o.userId, ...(o.buttons && o.buttons.length > 0 ? { buttons: o.buttons.map((b) => ({ ...b })) } : {}) }
    : { ...base, to: 'channel', channelId: meta.channelId }, nowIso);
}

/** A brand-new campaign and what it announces, written in one transaction (refused if the channel already has one). */
export function insertNewCampaign(app: App, input: {
  meta: Pick<CampaignMeta, 'guildId' | 'channelId' | 'ownerUserId' | 'createdAt'>;
  state: CampaignState;
  scenario: ScenarioDoc;
  actorUserId: string;
  events: readonly EngineEvent[];
  outbox: readonly Outgoing[];
}): void {
  const db = app.db;
  writeTransaction(db, () => {
    if (findCampaignInChannel(db, input.meta.guildId, input.meta.channelId)) {
      throw new UserError('campaign.exists', 'This channel already has a campaign. Use another channel, or `/campaign delete` the old one first.');
    }
    insertCampaign(db, input.meta, input.state, input.scenario, STATE_VERSION);
    appendEvents(db, input.state.id, input.state.clock, input.actorUserId, input.events, input.meta.createdAt);
    for (const o of input.outbox) queue(db, { id: input.state.id, channelId: input.meta.channelId }, o, input.meta.createdAt);
  });
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

export interface RouteOptions {
  /** A first line for every delivery (the tick's "Day 1, morning → Day 1, afternoon"): the chronicle's title. */
  readonly header?: string;
  readonly publicToChannel?: boolean;
  /** Buttons to attach to an army's DM (the contact prompts), by army id. */
  readonly buttons?: ReadonlyMap<string, readonly MessageButton[]>;
  /** More fields for the chronicle card (the next deadline). */
  readonly chronicleFields?: readonly CardField[];
  /** More fields for the referee's card (what waits on them). */
  readonly refereeFields?: readonly CardField[];
  /** Cards to post with the public lines (the deployment briefings). */
  readonly publicCards?: readonly Card[];
}

/**
 * Turns engine events into deliveries: public lines to the channel (a tick's chronicle as a
 * card), each army's lines to its commanders (a card with the dice, estimates, cards and the
 * answer asked for as fields), referee lines to the referee (with a digest of the armies nobody
 * commands).
 */
export function routeEvents(tx: Pick<CampaignTx, 'meta' | 'members' | 'state'>, events: readonly EngineEvent[], opts: RouteOptions = {}): Outgoing[] {
  const out: Outgoing[] = [];
  // In fog of war, what would place an army goes to its commander instead of the channel.
  const list = fogged(tx.state, events);
  const header = opts.header;
  // A DM's text says whose it is and which campaign; its card (titled with the contact or the half period) the rest.
  const headline = (who: string): string => `**${who}** (${tx.state.name})`;
  const when = header ? stripBold(header) : undefined;
  const pub = list.filter((e) => e.audience.kind === 'public');
  const publicCards = opts.publicCards ?? [];
  if ((opts.publicToChannel ?? true) && (pub.length > 0 || publicCards.length > 0)) {
    const data = { events: pub.map((e) => ({ type: e.type, data: e.data })) };
    const shown = pub.filter((e) => e.type !== 'deploymentBriefed');
    if (header) {
      out.push({ to: 'channel', content: header, cards: [chronicleCard(`Chronicle of ${tx.state.name}`, pub, opts.chronicleFields), ...publicCards], data });
    } else {
      out.push({ to: 'channel', content: shown.map((e) => e.text).join('\n'), ...(publicCards.length > 0 ? { cards: publicCards } : {}), data });
    }
  }
  const byArmy = new Map<string, EngineEvent[]>();
  for (const e of list) if (e.audience.kind === 'army') byArmy.set(e.audience.armyId, [...(byArmy.get(e.audience.armyId) ?? []), e]);
  // Armies nobody commands yet: one digest for the referee instead of a DM per army.
  const unassigned: string[] = [];
  for (const [armyId, evs] of byArmy) {
    const users = commandersOf(tx, armyId);
    const army = byId(tx.state.armies, armyId);
    const name = army?.name ?? armyId;
    if (users.length === 0) {
      unassigned.push(`__${name}__: ${evs.map((e) => e.text).join(' ')}`);
      continue;
    }
    const buttons = opts.buttons?.get(armyId) ?? [];
    const card = armyCard(tx.state, armyId, evs, when);
    for (const userId of users) {
      out.push({ to: 'dm', userId, content: headline(name), cards: [card], data: { armyId, events: evs.map((e) => ({ type: e.type, data: e.data })) }, ...(buttons.length > 0 ? { buttons } : {}) });
    }
  }
  const ref = list.filter((e) => e.audience.kind === 'referee' && e.type !== 'diceRolled');
  const refFields = opts.refereeFields ?? [];
  if (ref.length > 0 || unassigned.length > 0 || refFields.length > 0) {
    const contacts = [...new Set(ref.flatMap((e) => (typeof e.data?.contactId === 'string' ? [e.data.contactId] : [])))];
    const card: Card = {
      title: contacts.length > 0 ? `Contact ${contacts.join(', ')}` : when ?? 'Reports',
      ...(ref.length > 0 ? { description: ref.map((e) => e.text).join('\n') } : {}),
      fields: [...(unassigned.length > 0 ? [{ name: 'Armies without a commander', value: unassigned.join('\n') }] : []), ...refFields],
    };
    for (const userId of refereeIds(tx.meta, tx.members)) out.push({ to: 'dm', userId, content: headline('Referee'), cards: [card], data: { events: ref.map((e) => ({ type: e.type, data: e.data })) } });
  }
  return out;
}

/** A Markdown header without its bold marks (a card title is bold already). */
const stripBold = (text: string): string => text.replace(/\*\*/g, '');
