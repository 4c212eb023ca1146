import { FRESH_MARCH, type Army, type MarchState } from '../forces/index.js';
import type { CampaignState } from '../state/index.js';

function complete(m: MarchState): boolean {
  return Array.isArray(m.stragglers) && Array.isArray(m.noRaftHexes) && typeof m.spentToday === 'number' && typeof m.spentPeriod === 'number' && typeof m.restFactor === 'number';
}

/**
 * Fills movement bookkeeping missing from states saved before the current MarchState shape
 * (older stragglers records are dropped). Returns the same state when nothing is missing.
 */
export function ensureMarch(state: CampaignState): CampaignState {
  const ids = Object.keys(state.armies).filter((id) => !complete((state.armies[id] as Army).march));
  if (ids.length === 0) return state;
  const armies: Record<string, Army> = { ...state.armies };
  for (const id of ids) {
    const a = armies[id] as Army;
    const m = a.march as Partial<MarchState>;
    armies[id] = {
      ...a,
      march: {
        ...FRESH_MARCH,
        ...m,
        stragglers: Array.isArray(m.stragglers) ? m.stragglers : [],
        noRaftHexes: Array.isArray(m.noRaftHexes) ? m.noRaftHexes : [],
      },
    };
  }
  return { ...state, armies };
}
