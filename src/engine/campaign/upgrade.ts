import { FRESH_MARCH } from '../forces/index.js';
import { FIRST_MORNING } from '../weather/index.js';
import { type CampaignState, readSettings } from '../state/index.js';
import type { LegacyState } from './upgrades/legacyState.js';
import { upgradeToFairDice } from './upgrades/fairDice.js';
import { separateCourierIds } from './upgrades/courierIds.js';
import { upgradeToTypedState } from './upgrades/typedState.js';
import { logRecentDays } from './upgrades/dayLog.js';
import { splitDiceStreams } from './upgrades/secretDice.js';
import { restoreRegimentSpeeds, type SpeedSource } from './upgrades/regimentSpeeds.js';

/**
 * Versions of the stored campaign state. A campaign's rows (and each undo snapshot) record the
 * shape version they were written in; loading applies the chain of pure upgrade steps from that
 * version to the current one, so no rule ever meets an old shape (and no rule patches one).
 *
 * 1: the first release (no version recorded).
 * 2: march bookkeeping complete in every army (stragglers, raft hexes, spent points, rest factor);
 *    settings read through their schema; weather always present.
 * 3: exact types: the march log as a list, fatigue reasons as codes, orders as the Order union
 *    (a sail order's fleet and a debark order's assembly in their own fields), contact steps checked.
 * 4: dice in periods with committed seeds (the old stream's state seeds the first two), manual dice
 *    asked for, and what each army knows of the others (fog of war).
 * 5: couriers have their own id sequence (`nextCourierId`), apart from the contacts' `nextId`.
 * 6: movement profiles: every army's march books log its recent days (`recentDays`, for the
 *    marching-days windows); armies may carry war machines and a tireless flag, companies and
 *    regiments a speed, and the settings name the movement and tactical profiles (read with
 *    their defaults).
 * 7: dice in two streams: the public seed of each period, and a secret master whose seeds roll
 *    every die that is not everyone's (`rng.secret`, labels counted in `rng.counts`). A campaign
 *    saved before keeps its one stream until its next period. A bot of version 6 refuses a state
 *    of 7 rather than rolling its secret dice from the public seed.
 * 8: plans: armies may follow a plan (`plans`, by army id; none before).
 * 9: regiment speeds: saves before wrote a regiment's companies but not its speed; a regiment
 *    without one gets back the speed the campaign's stored scenario gives it
 *    (upgrades/regimentSpeeds.ts; the app tells the referee once what was restored).
 */
export const STATE_VERSION = 9;

/** The state version whose upgrade restores the regiment speeds earlier saves lost. */
export const SPEEDS_RESTORED_VERSION = 9;

/** What an upgrade may read besides the stored state: the scenario stored with the campaign. */
export interface UpgradeSource {
  readonly scenario?: SpeedSource | undefined;
}

/** A campaign state as stored: plain JSON of some version, not yet upgraded. */
export type StateJson = object;

/** A stored state this code cannot read: written by a newer version of the bot, or not a version at all. */
export class StateVersionError extends Error {
  constructor(readonly found: number) {
    super(found > STATE_VERSION
      ? `this campaign was saved by a newer version of the bot (state version ${found}; this one reads up to ${STATE_VERSION}). Upgrade the bot to open it.`
      : `this campaign's state has an unknown version (${found}).`);
    this.name = 'StateVersionError';
  }
}

type Json = Readonly<Record<string, unknown>>;

function record(x: unknown, what: string): Json {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new Error(`broken stored state: ${what} is not an object`);
  return x as Json;
}

const mapValues = (o: Json, f: (v: Json, key: string) => Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(record(v, k), k)]));

/** 1 -> 2: fills the march bookkeeping later versions of the movement rules added (older stragglers records are dropped). */
function completeMarch(s: Json): Json {
  const armies = mapValues(record(s['armies'], 'armies'), (a) => {
    const m = typeof a['march'] === 'object' && a['march'] !== null ? (a['march'] as Json) : {};
    return {
      ...a,
      march: {
        ...FRESH_MARCH,
        ...m,
        stragglers: Array.isArray(m['stragglers']) ? m['stragglers'] : [],
        noRaftHexes: Array.isArray(m['noRaftHexes']) ? m['noRaftHexes'] : [],
      },
    };
  });
  return { ...s, armies, weather: s['weather'] ?? FIRST_MORNING };
}

/** 2 -> 3: the exact types (upgrades/typedState.ts). */
function typedState(s: Json): Json {
  return { ...upgradeToTypedState(s as object as LegacyState) };
}

/** 4 -> 5: the couriers' own id sequence (upgrades/courierIds.ts). */
function courierIds(s: Json): Json {
  return separateCourierIds({ ...s, nextId: s['nextId'] });
}

/** 7 -> 8: no army had a plan. */
function noPlans(s: Json): Json {
  return { ...s, plans: s['plans'] ?? {} };
}

/** 8 -> 9: the regiment speeds lost on save, from the scenario (upgrades/regimentSpeeds.ts). */
function regimentSpeeds(s: Json, from: UpgradeSource): Json {
  return { ...restoreRegimentSpeeds(s as object as CampaignState, from.scenario) };
}

/** STEPS[n] upgrades a state of version n to version n + 1. */
const STEPS: Readonly<Record<number, (s: Json, from: UpgradeSource) => Json>> = {
  1: completeMarch,
  2: typedState,
  3: upgradeToFairDice,
  4: courierIds,
  5: logRecentDays,
  6: splitDiceStreams,
  7: noPlans,
  8: regimentSpeeds,
};

/**
 * Brings a stored state of `version` to the current shape. Pure. Refuses (StateVersionError) a
 * version it does not know rather than half-reading it. `from` gives what a step reads besides
 * the state (the campaign's scenario: the repository stores it with each campaign).
 */
export function upgradeState(stored: StateJson, version: number, from: UpgradeSource = {}): CampaignState {
  if (!Number.isInteger(version) || version < 1 || version > STATE_VERSION) throw new StateVersionError(version);
  let s = record(stored, 'state');
  for (let v = version; v < STATE_VERSION; v++) {
    const step = STEPS[v];
    if (!step) throw new StateVersionError(v);
    s = step(s, from);
  }
  const state = s as object as CampaignState;
  return { ...state, settings: readSettings(state.settings) };
}
