import type { Army } from '../forces/index.js';
import { type Hex, hexKey } from '../hex/index.js';
import type { CampaignState } from './campaign.js';

/**
 * A spatial index of the armies still in the field (not destroyed), by hex key: the armies of
 * each hex in army-id order. A state is never changed in place (a new state has a new `armies`
 * record), so the index is built once per `armies` record and kept beside it; a query is then
 * O(1) instead of a scan of every army.
 *
 * Kept by the record's identity, the index must never outlive a change of the record in place.
 * So, by construction: a record is changed in place only while it is open (`openArmies`, the
 * contact step's draft) and only through `writeArmy`, which keeps its index current; any other
 * record is frozen when its index is built, so a write into it throws instead of leaving the
 * index stale.
 */
const indexes = new WeakMap<CampaignState['armies'], Map<string, Army[]>>();

/** Records open for `writeArmy` (not frozen when indexed). */
const open = new WeakSet<CampaignState['armies']>();

function indexOf(armies: CampaignState['armies']): ReadonlyMap<string, readonly Army[]> {
  const known = indexes.get(armies);
  if (known) return known;
  const index = new Map<string, Army[]>();
  for (const id of Object.keys(armies).sort()) {
    const a = armies[id];
    if (a) place(index, a);
  }
  if (!open.has(armies)) Object.freeze(armies);
  indexes.set(armies, index);
  return index;
}

/** Puts an army in the field into its hex's list, in army-id order (nothing for a destroyed one). */
function place(index: Map<string, Army[]>, a: Army): void {
  if (a.status.destroyed) return;
  const k = hexKey(a.hex);
  const list = index.get(k);
  if (!list) index.set(k, [a]);
  else if ((list.at(-1)?.id ?? '') < a.id) list.push(a);
  else list.splice(list.findIndex((b) => b.id > a.id), 0, a);
}

/**
 * `writeArmy`'s change of the index: the army's old entry out, its new one in, each in a new list
 * for its hex (a list `armiesAt` gave out never changes under its reader).
 */
function replace(index: Map<string, Army[]>, before: Army | undefined, after: Army): void {
  if (before && !before.status.destroyed) {
    const k = hexKey(before.hex);
    const kept = (index.get(k) ?? []).filter((b) => b.id !== before.id);
    if (kept.length > 0) index.set(k, kept);
    else index.delete(k);
  }
  if (after.status.destroyed) return;
  const k = hexKey(after.hex);
  const list = [...(index.get(k) ?? [])];
  index.set(k, list);
  place(index, after);
}

/** The armies in the field (not destroyed) standing in a hex, in army-id order. */
export function armiesAt(state: Pick<CampaignState, 'armies'>, hex: Hex): readonly Army[] {
  return indexOf(state.armies).get(hexKey(hex)) ?? [];
}

/** Opens a new armies record for changes in place (`writeArmy`) until `closeArmies`. */
export function openArmies(armies: Record<string, Army>): void {
  open.add(armies);
}

/** Ends a record's changes in place: from now on it is frozen like any indexed record. */
export function closeArmies(armies: Record<string, Army>): void {
  open.delete(armies);
  if (indexes.has(armies)) Object.freeze(armies);
}

/** Writes an army into an armies record in place, keeping the record's index (if built) current. */
export function writeArmy(armies: Record<string, Army>, army: Army): void {
  const index = indexes.get(armies);
  const before = armies[army.id];
  armies[army.id] = army;
  if (index) replace(index, before, army);
}
