import type { CampaignState } from '../engine/state/index.js';
import type { App } from './app.js';

/**
 * The in-memory copy of recently used campaigns' states, so a command does not read and parse every
 * row of its campaign (issue 25, item 6). A copy is kept with the state's stored revision (the
 * `revision` column, bumped by every save in the same transaction) and is used only when the
 * revision read inside the command's own transaction is the same: a write by another process (two
 * bots on one database, a shard) changes the revision, so the copy is dropped and the state loaded
 * again. A copy is taken only from what this process read or committed, never from a transaction
 * that may still roll back (src/app/unitOfWork.ts).
 *
 * The copies are frozen (deeply, each object once): use-cases build new states and never change one
 * in place, and a copy shared by later commands must stay as it was stored.
 */

export interface CachedState {
  /** The stored revision this copy is the state of. */
  readonly revision: number;
  /** The shape version of the stored rows (an older one is rewritten whole by the next save). */
  readonly storedVersion: number;
  readonly state: CampaignState;
}

/** Campaigns kept per process: a recent few hundred kilobytes each, the least recently used dropped first. */
const CAPACITY = 64;

export class StateCache {
  private readonly entries = new Map<string, CachedState>();

  constructor(private readonly capacity = CAPACITY) {}

  /** The copy of the campaign's state at `revision`, if this process holds it (an older copy is dropped). */
  get(campaignId: string, revision: number): CachedState | undefined {
    const entry = this.entries.get(campaignId);
    if (!entry) return undefined;
    this.entries.delete(campaignId);
    if (entry.revision !== revision) return undefined;
    this.entries.set(campaignId, entry);
    return entry;
  }

  /** Keeps `state` as the campaign's state at `revision` (put in stored order and frozen). */
  set(campaignId: string, revision: number, storedVersion: number, state: CampaignState): void {
    this.entries.delete(campaignId);
    this.entries.set(campaignId, { revision, storedVersion, state: freezeDeep(inStoredOrder(state)) });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** The latest copy of the campaign's state this process holds, whatever its revision (a guess: `get` is the state at a revision). */
  latest(campaignId: string): CachedState | undefined {
    return this.entries.get(campaignId);
  }

  delete(campaignId: string): void {
    this.entries.delete(campaignId);
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<App['db'], StateCache>();

/** The state copies of the app's database connection. */
export function stateCacheOf(app: Pick<App, 'db'>): StateCache {
  let cache = caches.get(app.db);
  if (!cache) {
    cache = new StateCache();
    caches.set(app.db, cache);
  }
  return cache;
}

/** Ids in the order SQLite's binary collation returns them (the ids are ASCII). */
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortedRecord<T>(record: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  const keys = Object.keys(record);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = byId(keys[i - 1] as string, keys[i] as string) < 0;
  if (sorted) return record;
  return Object.fromEntries(keys.sort(byId).map((k) => [k, record[k] as T]));
}

/**
 * The state with its keyed collections (armies, orders, contacts...) in the order a load from the
 * database gives them (by id), so code that walks them meets them in the same order whether the
 * state came from the copy or from the rows. Unchanged when already in that order.
 */
function inStoredOrder(state: CampaignState): CampaignState {
  const armies = sortedRecord(state.armies);
  const orders = sortedRecord(state.orders);
  const sides = sortedRecord(state.sides);
  const contacts = sortedRecord(state.contacts);
  const couriers = sortedRecord(state.couriers);
  const plans = sortedRecord(state.plans);
  const knownArmies = sortedRecord(state.knowledge.armies);
  const reports = sortedRecord(state.knowledge.reports);
  const knowledge = knownArmies === state.knowledge.armies && reports === state.knowledge.reports ? state.knowledge : { ...state.knowledge, armies: knownArmies, reports };
  if (armies === state.armies && orders === state.orders && sides === state.sides && contacts === state.contacts && couriers === state.couriers
    && plans === state.plans && knowledge === state.knowledge) return state;
  return { ...state, armies, orders, sides, contacts, couriers, plans, knowledge };
}

/** Freezes `value` and everything it holds, skipping what is already frozen (shared with an older copy). */
function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value as object)) freezeDeep(v);
  return value;
}
