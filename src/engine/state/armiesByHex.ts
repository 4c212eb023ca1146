import type { Army } from '../forces/index.js';
import { type Hex, hexKey } from '../hex/index.js';
import type { CampaignState } from './campaign.js';

/**
 * A spatial index of the armies still in the field (not destroyed), by hex key: the armies of
 * each hex in army-id order. A state is never changed in place (a new state has a new `armies`
 * record), so the index is built once per `armies` record and kept beside it; a query is then
 * O(1) instead of a scan of every army.
 */
const indexes = new WeakMap<CampaignState['armies'], ReadonlyMap<string, readonly Army[]>>();

function indexOf(armies: CampaignState['armies']): ReadonlyMap<string, readonly Army[]> {
  const known = indexes.get(armies);
  if (known) return known;
  const index = new Map<string, Army[]>();
  for (const id of Object.keys(armies).sort()) {
    const a = armies[id];
    if (!a || a.status.destroyed) continue;
    const k = hexKey(a.hex);
    const list = index.get(k);
    if (list) list.push(a);
    else index.set(k, [a]);
  }
  indexes.set(armies, index);
  return index;
}

/** The armies in the field (not destroyed) standing in a hex, in army-id order. */
export function armiesAt(state: Pick<CampaignState, 'armies'>, hex: Hex): readonly Army[] {
  return indexOf(state.armies).get(hexKey(hex)) ?? [];
}
