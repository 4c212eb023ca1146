import { createHash, randomBytes } from 'node:crypto';
import { classifyRoll, consumeDice, enteredDice, isManualRoll, SeededDice } from '../engine/dice/index.js';
import type { EngineEvent } from '../engine/events/index.js';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { CampaignState } from '../engine/state/index.js';
import { lostRegimentSpeeds, type RestoredSpeed, SPEEDS_RESTORED_VERSION, STATE_VERSION, StateVersionError, upgradeState } from '../engine/campaign/index.js';
import { readTransaction, writeTransaction, type Database } from '../db/client.js';
import {
  closedContacts, deleteCampaign, findCampaignInChannel, getCampaignMeta, insertCampaign, loadScenario, loadState, saveState, setControl, stateRevision,
  type CampaignMeta,
} from '../db/campaignRepo.js';
import { allEventsJson, appendEvents, chronicleEvents, diceEventsOf, eventsFor, lastEventId, lastEventsOfType, markEventsUndone } from '../db/eventRepo.js';
import { journalOf } from '../db/journalRepo.js';
import { assignCommander, listMembers, unassignArmy } from '../db/memberRepo.js';
import { listNotices, saveNotice } from '../db/noticeRepo.js';
import { claimedMessage, enqueue, keptMessages, markRead, markUndeliverable, undeliveredMessages } from '../db/outboxRepo.js';
import { deleteTick, lastUndoableTick, playedTickAt, playedTicks, recordTick, tickIndex, tickPlayed, undoableTicks, type UndoableTick } from '../db/tickRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import type { CampaignReads, CampaignTx, Change } from './campaignTx.js';
import { diceAsks } from './deliveries/diceAsks.js';
import { fogged } from './deliveries/fog.js';
import { orderConfirmations } from './deliveries/orderConfirm.js';
import { speedsRestoredNotice } from './deliveries/upgradeNotice.js';
import { currentInvocation } from './journal/invocation.js';
import { journalChange, journalCreated } from './journal/record.js';
import { markPresence } from './table/absence.js';
import type { Outgoing } from './deliveries/outgoing.js';
import { rollEvent } from './dice/rollLog.js';
import { UserError } from './errors.js';
import { isReferee } from './referees.js';
import { mapOf } from './scenarios.js';
import { stateCacheOf } from './stateCache.js';

export type { CampaignTx, Change, MemberChange, TickFrame } from './campaignTx.js';
export type { Outgoing } from './deliveries/outgoing.js';
export { armiesOf, commandersOf } from './members.js';

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
  stateCacheOf(app).delete(id);
}

function noCampaign(): never {
  throw new UserError('campaign.none', 'There is no campaign in this channel. A referee can start one with `/campaign create scenario:valormr name:"..."`.');
}

export function campaignInChannel(app: App, actor: Pick<Actor, 'guildId' | 'channelId'>): CampaignMeta {
  return findCampaignInChannel(app.db, actor.guildId, actor.channelId) ?? noCampaign();
}

/** A stored state in the current shape, whatever version wrote it. Refuses an unknown (newer) version with a sentence. */
function upgraded(json: object, version: number, what: string, scenario?: ScenarioDoc): CampaignState {
  try {
    return upgradeState(json, version, { scenario });
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
    tickIndex: () => tickIndex(db, campaignId),
    playedTickAt: (timeIndex) => playedTickAt(db, campaignId, timeIndex),
    chronicle: (audiences, without, window) => chronicleEvents(db, campaignId, audiences, without, window),
    notices: () => listNotices(db, campaignId),
    journal: () => journalOf(db, campaignId),
  };
}

type Target = { actor: Actor } | { campaignId: string };

/** Loads what a use-case reads, inside a transaction. */
function open(app: App, target: Target): { tx: CampaignTx; storedVersion: number; restoredSpeeds: () => RestoredSpeed[] } {
  const db = app.db;
  const actor = 'actor' in target ? target.actor : undefined;
  const meta = 'actor' in target ? campaignInChannel(app, target.actor) : getCampaignMeta(db, target.campaignId);
  if (!meta) throw new UserError('campaign.none', 'That campaign no longer exists.');
  const { scenario, map, mapKey } = staticsOf(app, meta.id);
  const { state, storedVersion } = stateOf(app, meta.id, scenario);
  const members = listMembers(db, meta.id);
  const tx: CampaignTx = {
    meta, state, scenario, map, mapKey, members, actor, dice: diceOf(state, app.scriptedDice), fixedSeed: app.seed, now: app.clock.now(),
    isReferee: isReferee(meta, members, state.settings, actor), read: readsOn(db, meta.id),
  };
  // What the upgrade to version 9 gave back (read only when the upgraded state is first saved).
  const restoredSpeeds = (): RestoredSpeed[] => {
    if (storedVersion >= SPEEDS_RESTORED_VERSION) return [];
    const stored = loadState(db, meta.id);
    return stored ? lostRegimentSpeeds(upgraded(stored.json, stored.version, 'this campaign'), scenario) : [];
  };
  return { tx, storedVersion, restoredSpeeds };
}

/**
 * The campaign's state as stored now: this process's copy when its revision is the stored one
 * (src/app/stateCache.ts), else loaded from the rows (upgraded to the current shape) and kept.
 * Inside the caller's transaction, so the revision and the rows are read from one snapshot.
 */
function stateOf(app: App, campaignId: string, scenario: ScenarioDoc): { state: CampaignState; storedVersion: number } {
  const revision = stateRevision(app.db, campaignId);
  if (revision === undefined) throw new Error(`campaign ${campaignId} has no state`);
  const cache = stateCacheOf(app);
  const cached = cache.get(campaignId, revision);
  if (cached) return { state: cached.state, storedVersion: cached.storedVersion };
  const stored = loadState(app.db, campaignId);
  if (!stored) throw new Error(`campaign ${campaignId} has no state`);
  const state = upgraded(stored.json, stored.version, 'this campaign', scenario);
  cache.set(campaignId, revision, stored.version, state);
  return { state, storedVersion: stored.version };
}

/** The campaign's dice: entered manual dice first, then the script (tests, --dice), then the period's seeded dice. */
function diceOf(state: CampaignState, script: readonly number[]): SeededDice {
  const group = state.settings.manualDice;
  const armies = Object.values(state.armies);
  const recorded = currentInvocation()?.recorded;
  return new SeededDice(state.rng, {
    script,
    entered: enteredDice(state.manualDice),
    ...(recorded ? { recorded } : {}),
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
export function snapshotState(tick: UndoableTick, scenario?: ScenarioDoc): CampaignState {
  return upgraded(tick.snapshot, tick.version, 'the state before that half period', scenario);
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
  // The state this transaction stored, kept as the process's copy once the transaction has committed.
  let saved: { id: string; revision: number; state: CampaignState } | undefined;
  let deletedId: string | undefined;
  const result = writeTransaction(db, () => {
    const { tx, storedVersion, restoredSpeeds } = open(app, target);
    const fnChange = fn(tx);
    // The first save of a state upgraded past version 9 tells the referee what speeds it restored.
    const told = storedVersion < SPEEDS_RESTORED_VERSION && !fnChange.deleted ? speedsRestoredNotice(tx, restoredSpeeds()) : undefined;
    const change = told ? { ...fnChange, events: [...(fnChange.events ?? []), ...told.events], outbox: [...(fnChange.outbox ?? []), ...told.outbox] } : fnChange;
    const nowIso = tx.now.toISOString();
    const id = tx.meta.id;
    if (change.deleted) {
      deleteCampaign(db, id);
      deletedId = id;
      return change.result;
    }
    // A commander's command that changed their army's orders or contacts counts as present (absence, src/app/table/absence.ts).
    const withRng = withDice(change.tick ? change.state ?? tx.state : markPresence(tx, tx.state, change.state ?? tx.state), tx.dice, tx.state);
    // A state stored in an older shape is rewritten whole in the current one.
    if (withRng !== tx.state || storedVersion !== STATE_VERSION) {
      saved = { id, state: withRng, revision: saveState(db, tx.state, withRng, nowIso, STATE_VERSION, storedVersion !== STATE_VERSION) };
    }
    if (change.tick) {
      recordTick(db, id, change.tick.timeIndex, change.tick.before, STATE_VERSION, lastEventId(db, id), nowIso, withRng.settings.undoDepth, change.tick.frame);
    }
    // What replays this transaction (docs/replay.md).
    journalChange(db, { before: tx.state, after: withRng, storedVersion, at: nowIso, rolls: tx.dice.rolls, other: Boolean(change.tick ?? change.undo ?? change.control ?? change.members?.length) });
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
    for (const n of change.notices ?? []) saveNotice(db, id, n);
    // Manual rolls asked for by this change go to the people who roll them; a commander who asked
    // for it is told by DM that their orders are stored.
    const confirmations = change.tick ? [] : orderConfirmations(tx, tx.state, withRng, change.result);
    for (const o of [...(change.outbox ?? []), ...diceAsks({ ...tx, state: withRng }, tx.state.manualDice, withRng.manualDice), ...confirmations]) queue(db, tx.meta, o, nowIso);
    if (change.control) setControl(db, id, change.control);
    if (change.readMessages) markRead(db, change.readMessages, nowIso);
    const u = change.undeliverable;
    if (u) markUndeliverable(db, u.id, u.owner, u.status, u.attempts, u.reason);
    used = app.scriptedDice.length - tx.dice.remainingScript().length;
    return change.result;
  });
  const cache = stateCacheOf(app);
  if (saved) cache.set(saved.id, saved.revision, STATE_VERSION, saved.state);
  if (deletedId !== undefined) cache.delete(deletedId);
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
  // A delivery made by src/app/deliveries, stored as the outbox row it becomes.
  /* eslint-disable no-restricted-syntax */
  return enqueue(db, o.to === 'dm'
    ? { ...base, to: 'dm', userId: o.userId, ...(o.buttons && o.buttons.length > 0 ? { buttons: o.buttons.map((b) => ({ ...b })) } : {}) }
    : { ...base, to: 'channel', channelId: meta.channelId }, nowIso);
  /* eslint-enable no-restricted-syntax */
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
    journalCreated(db, input.state, input.meta.createdAt);
    appendEvents(db, input.state.id, input.state.clock, input.actorUserId, input.events, input.meta.createdAt);
    for (const o of input.outbox) queue(db, { id: input.state.id, channelId: input.meta.channelId }, o, input.meta.createdAt);
  });
}

export function requireReferee(tx: CampaignTx, what: string): void {
  if (!tx.isReferee) throw new UserError('campaign.refereeOnly', `Only the referee can ${what}.`);
}

