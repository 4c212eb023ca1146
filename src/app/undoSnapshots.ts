import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { CampaignState } from '../engine/state/index.js';
import type { UndoableTick } from '../db/tickRepo.js';
import { upgraded } from './storedState.js';

/** A stored undo snapshot (the state before a played half period) in the current shape. */
export function snapshotState(tick: UndoableTick, scenario?: ScenarioDoc): CampaignState {
  return upgraded(tick.snapshot, tick.version, 'the state before that half period', scenario);
}
