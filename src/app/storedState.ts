import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { CampaignState } from '../engine/state/index.js';
import { lostRegimentSpeeds, type RestoredSpeed, SPEEDS_RESTORED_VERSION, StateVersionError, upgradeState } from '../engine/campaign/index.js';
import type { Database } from '../db/client.js';
import { loadState, stateRevision } from '../db/campaignRepo.js';
import type { App } from './app.js';
import { UserError } from './errors.js';
import { stateCacheOf } from './stateCache.js';

/** A stored state in the current shape, whatever version wrote it. Refuses an unknown (newer) version with a sentence. */
export function upgraded(json: object, version: number, what: string, scenario?: ScenarioDoc): CampaignState {
  try {
    return upgradeState(json, version, { scenario });
  } catch (err) {
    if (err instanceof StateVersionError) throw new UserError('campaign.stateVersion', `I cannot open ${what}: ${err.message}`);
    throw err;
  }
}

/**
 * The campaign's state as stored now: this process's copy when its revision is the stored one
 * (src/app/stateCache.ts), else loaded from the rows (upgraded to the current shape, in memory
 * only: the next write saves it) and kept, with the revision it is at. Inside the caller's
 * transaction, so the revision and the rows are read from one snapshot.
 */
export function storedStateOf(app: App, campaignId: string, scenario: ScenarioDoc): { state: CampaignState; storedVersion: number; revision: number } {
  const revision = stateRevision(app.db, campaignId);
  if (revision === undefined) throw new Error(`campaign ${campaignId} has no state`);
  const cache = stateCacheOf(app);
  const cached = cache.get(campaignId, revision);
  if (cached) return { state: cached.state, storedVersion: cached.storedVersion, revision };
  const stored = loadState(app.db, campaignId);
  if (!stored) throw new Error(`campaign ${campaignId} has no state`);
  const state = upgraded(stored.json, stored.version, 'this campaign', scenario);
  cache.set(campaignId, revision, stored.version, state);
  return { state, storedVersion: stored.version, revision };
}

/** What the upgrade to version 9 gave back to a state stored before it (read only when that state is first saved). */
export function restoredSpeedsOf(db: Database, campaignId: string, storedVersion: number, scenario: ScenarioDoc): RestoredSpeed[] {
  if (storedVersion >= SPEEDS_RESTORED_VERSION) return [];
  const stored = loadState(db, campaignId);
  return stored ? lostRegimentSpeeds(upgraded(stored.json, stored.version, 'this campaign'), scenario) : [];
}
