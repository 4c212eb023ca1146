import { SPEEDS_RESTORED_VERSION, STATE_VERSION } from '../engine/campaign/index.js';
import { holdCampaign, readTransaction, writeTransaction } from '../db/client.js';
import { deleteCampaign, getCampaignMeta, openingReadsSoon } from '../db/campaignRepo.js';
import { listMembers } from '../db/memberRepo.js';
import { campaignInChannel } from './access.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { campaignCommitted } from './campaignCommits.js';
import { campaignDice } from './campaignDice.js';
import { campaignReads } from './campaignReads.js';
import type { CampaignTx, Change } from './campaignTx.js';
import { speedsRestoredNotice } from './deliveries/upgradeNotice.js';
import { UserError } from './errors.js';
import { isReferee } from './referees.js';
import { stateCacheOf } from './stateCache.js';
import { staticsOf } from './statics.js';
import { restoredSpeedsOf, storedStateOf } from './storedState.js';
import { storeChange, type StoredState } from './storeChange.js';

/** Whose campaign a use-case works on: the actor's channel's, or one named by id (the scheduler, buttons, the web page). */
type Target = { actor: Actor } | { campaignId: string };

/** Loads what a use-case reads, inside the caller's transaction. */
function open(app: App, target: Target): { tx: CampaignTx; storedVersion: number } {
  const db = app.db;
  const actor = 'actor' in target ? target.actor : undefined;
  const meta = 'actor' in target ? campaignInChannel(app, target.actor) : getCampaignMeta(db, target.campaignId);
  if (!meta) throw new UserError('campaign.none', 'That campaign no longer exists.');
  // On PostgreSQL the revision and the members go to the server together (one round trip).
  openingReadsSoon(db, meta.id);
  const { scenario, map, mapKey } = staticsOf(app, meta.id);
  const { state, storedVersion } = storedStateOf(app, meta.id, scenario);
  const members = listMembers(db, meta.id);
  const tx: CampaignTx = {
    meta, state, scenario, map, mapKey, members, actor, dice: campaignDice(state, app.dice.scripted()), seeds: app.dice, now: app.clock.now(),
    isReferee: isReferee(meta, members, state.settings, actor), read: campaignReads(db, meta.id),
  };
  return { tx, storedVersion };
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
export function inCampaign<R>(app: App, target: Target, fn: (tx: CampaignTx) => Change<R>): R {
  let used = 0;
  let stored: (StoredState & { id: string }) | undefined;
  let deletedId: string | undefined;
  const result = writeTransaction(app.db, () => {
    // The campaign is held before anything of it is read (open reads it again, after the hold; on
    // PostgreSQL the lock and those reads go to the server together).
    const campaignId = 'campaignId' in target ? target.campaignId : campaignInChannel(app, target.actor).id;
    holdCampaign(app.db, campaignId);
    openingReadsSoon(app.db, campaignId);
    const { tx, storedVersion } = open(app, target);
    const change = withUpgradeNotice(app, tx, storedVersion, fn(tx));
    if (change.deleted) {
      deleteCampaign(app.db, tx.meta.id);
      deletedId = tx.meta.id;
      return change.result;
    }
    stored = { id: tx.meta.id, ...storeChange(app.db, tx, storedVersion, change) };
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
  return readTransaction(app.db, () => fn(open(app, target).tx));
}
