import { SPEEDS_RESTORED_VERSION, STATE_VERSION } from '../engine/campaign/index.js';
import { holdCampaign, readTransaction, writeTransaction } from '../db/client.js';
import { StoreBusyError } from '../db/storeErrors.js';
import { type CampaignMeta, deleteCampaign, getCampaignMeta, openingReadsSoon, tickReadsSoon, writeReadsSoon } from '../db/campaignRepo.js';
import { timeIndex } from '../engine/clock/index.js';
import { listMembers } from '../db/memberRepo.js';
import { campaignInChannel, campaignOrEndedInChannel } from './access.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { campaignCommitted } from './campaignCommits.js';
import { campaignDice } from './campaignDice.js';
import { campaignReads } from './campaignReads.js';
import type { CampaignTx, Change } from './campaignTx.js';
import { speedsRestoredNotice } from './deliveries/upgradeNotice.js';
import { UserError } from './errors.js';
import { paintEarly } from './pictures.js';
import { isReferee } from './referees.js';
import { stateCacheOf } from './stateCache.js';
import { staticsOf } from './statics.js';
import { restoredSpeedsOf, storedStateOf } from './storedState.js';
import { storeChange, type StoredState } from './storeChange.js';

/**
 * Whose campaign a use-case works on: the actor's channel's, or one named by id (the scheduler,
 * buttons, the web page). `orEnded` (reads only): when no campaign runs in the channel, the one that
 * ended there last (an export after `/campaign end`).
 */
type Target = { actor: Actor; orEnded?: boolean } | { campaignId: string };

/**
 * The campaign each channel held when a use-case last opened it, in this process: a guess only,
 * so that on PostgreSQL the campaign's opening reads (and a write's hold) go to the server with
 * the channel's lookup, in one round trip. The lookup still decides: a wrong guess costs the round
 * trip it would have saved (its reads were of another campaign and are not used).
 */
const channelGuesses = new WeakMap<App, Map<string, string>>();
/** Bounds the guesses kept (a process serving more channels forgets them all and starts again). */
const MAX_GUESSES = 10_000;

const channelKey = (actor: Actor): string => `${actor.guildId}\u0000${actor.channelId}`;

function guessOf(app: App, actor: Actor): string | undefined {
  return channelGuesses.get(app)?.get(channelKey(actor));
}

function remember(app: App, actor: Actor, campaignId: string): void {
  let guesses = channelGuesses.get(app);
  if (!guesses || guesses.size >= MAX_GUESSES) {
    guesses = new Map();
    channelGuesses.set(app, guesses);
  }
  guesses.set(channelKey(actor), campaignId);
}

/** The campaign of a read-only use-case, its opening reads sent with the lookup when the channel's campaign is guessed. */
function metaToRead(app: App, target: Target): CampaignMeta {
  if (!('actor' in target)) {
    openingReadsSoon(app.db, target.campaignId);
    return getCampaignMeta(app.db, target.campaignId) ?? noCampaign();
  }
  const guess = guessOf(app, target.actor);
  if (guess !== undefined) openingReadsSoon(app.db, guess);
  const meta = target.orEnded ? campaignOrEndedInChannel(app, target.actor) : campaignInChannel(app, target.actor);
  remember(app, target.actor, meta.id);
  return meta;
}

/**
 * The campaign of a write use-case, held (src/db/client.ts holdCampaign) and then read, so the
 * meta returned is the one its last writer committed. A channel's campaign is looked up, held,
 * and looked up again under the hold (another may have taken the channel meanwhile); when it was
 * guessed, the hold, the lookup and the transaction's reads go to the server together.
 */
function heldMeta(app: App, target: Target, opts: WriteOptions): CampaignMeta {
  const db = app.db;
  const readsSoon = (id: string): void => {
    writeReadsSoon(db, id);
    if (opts.mayTick === true) tickReadsSoon(db, id, playedIndexGuess(app, id));
  };
  if (!('actor' in target)) {
    holdCampaign(db, target.campaignId);
    readsSoon(target.campaignId);
    return getCampaignMeta(db, target.campaignId) ?? noCampaign();
  }
  const guess = guessOf(app, target.actor);
  let held: string | undefined;
  if (guess !== undefined) {
    holdCampaign(db, guess);
    readsSoon(guess);
    held = guess;
  }
  for (let tries = 0; ; tries++) {
    const meta = campaignInChannel(app, target.actor);
    remember(app, target.actor, meta.id);
    if (meta.id === held) return meta;
    // Never write a campaign not held: a channel whose campaign changes under every lookup is busy.
    if (tries >= 3) throw new StoreBusyError(`the campaign of channel ${target.actor.channelId} changed while it was being held`);
    holdCampaign(db, meta.id);
    readsSoon(meta.id);
    held = meta.id;
  }
}

/**
 * The half period a tick of the campaign would play, as this process last saw it (its state copy,
 * src/app/stateCache.ts): a guess only, for the read sent ahead; the tick reads whether its own
 * half period was played, answered from there when the guess was right.
 */
function playedIndexGuess(app: App, campaignId: string): number | undefined {
  const latest = stateCacheOf(app).latest(campaignId);
  return latest ? timeIndex(latest.state.clock) : undefined;
}

/** What a write use-case says of itself before it opens. */
export interface WriteOptions {
  /** It may play a tick (tickChange): the tick's reads go to the server with the opening ones (src/db/campaignRepo.ts tickReadsSoon). */
  readonly mayTick?: boolean;
}

const noCampaign = (): never => {
  throw new UserError('campaign.none', 'That campaign no longer exists.');
};

/** Loads what a use-case reads of the campaign `meta`, inside the caller's transaction. */
function open(app: App, meta: CampaignMeta, actor: Actor | undefined): { tx: CampaignTx; storedVersion: number; revision: number } {
  const db = app.db;
  // On PostgreSQL the revision and the members go to the server together (one round trip), unless they went already.
  openingReadsSoon(db, meta.id);
  const { scenario, map, mapKey } = staticsOf(app, meta.id);
  const { state, storedVersion, revision } = storedStateOf(app, meta.id, scenario);
  const members = listMembers(db, meta.id);
  const tx: CampaignTx = {
    meta, state, scenario, map, mapKey, members, actor, dice: campaignDice(state, app.dice.scripted()), seeds: app.dice, now: app.clock.now(),
    isReferee: isReferee(meta, members, state.settings, actor), read: campaignReads(db, meta.id),
  };
  return { tx, storedVersion, revision };
}

/** The first save of a state upgraded past version 9 tells the referee what speeds it restored. */
function withUpgradeNotice<R>(app: App, tx: CampaignTx, storedVersion: number, change: Change<R>): Change<R> {
  if (storedVersion >= SPEEDS_RESTORED_VERSION || change.deleted) return change;
  const told = speedsRestoredNotice(tx, restoredSpeedsOf(app.db, tx.meta.id, storedVersion, tx.scenario));
  return told ? { ...change, events: [...(change.events ?? []), ...told.events], outbox: [...(change.outbox ?? []), ...told.outbox] } : change;
}

/**
 * Runs one use-case in ONE synchronous write transaction (BEGIN IMMEDIATE on SQLite; on PostgreSQL
 * holding the campaign, src/db/client.ts holdCampaign): load the campaign
 * (upgrading an older stored shape), let `fn` decide, then write everything it returned
 * (src/app/storeChange.ts). Nothing is written when `fn` throws. The process's copy of the state
 * (src/app/stateCache.ts) is updated only after the commit.
 */
export function inCampaign<R>(app: App, target: Target, fn: (tx: CampaignTx) => Change<R>, opts: WriteOptions = {}): R {
  let used = 0;
  let stored: (StoredState & { id: string }) | undefined;
  let deletedId: string | undefined;
  const result = writeTransaction(app.db, () => {
    // The campaign is held before anything of it is read (on PostgreSQL the lock and those reads
    // go to the server together).
    const { tx, storedVersion, revision } = open(app, heldMeta(app, target, opts), 'actor' in target ? target.actor : undefined);
    const change = withUpgradeNotice(app, tx, storedVersion, fn(tx));
    if (change.deleted) {
      deleteCampaign(app.db, tx.meta.id);
      deletedId = tx.meta.id;
      return change.result;
    }
    // Its pictures start drawing on a render thread now, while this thread writes; the delivery
    // after the commit takes them (src/app/pictures.ts paintEarly).
    for (const out of change.outbox ?? []) if (out.pictures) paintEarly(app, tx.meta.id, out.pictures);
    stored = { id: tx.meta.id, ...storeChange(app.db, tx, { storedVersion, revision }, change) };
    used = app.dice.scripted().length - tx.dice.remainingScript().length;
    return change.result;
  });
  const cache = stateCacheOf(app);
  if (stored?.revision !== undefined) cache.set(stored.id, stored.revision, STATE_VERSION, stored.state);
  if (deletedId !== undefined) cache.delete(deletedId);
  app.dice.useScripted(used);
  if (stored?.revision !== undefined) campaignCommitted(app, stored.id, stored.revision);
  if (deletedId !== undefined) campaignCommitted(app, deletedId, undefined);
  return result;
}

/**
 * Runs a read-only use-case in one read transaction (deferred: it takes no write lock and never
 * writes): a consistent snapshot. An old stored shape is upgraded in memory only; the next write
 * saves it. `fn` returns only its answer.
 */
export function readCampaign<R>(app: App, target: Target, fn: (tx: CampaignTx) => R): R {
  return readTransaction(app.db, () => fn(open(app, metaToRead(app, target), 'actor' in target ? target.actor : undefined).tx));
}
