import { halfPeriodName, nextHalf, type GameTime } from '../clock/index.js';
import type { Army } from '../forces/index.js';
import { hexEquals, type Hex, hexKey, neighbours } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { fail, ok, type Result, type Violation } from '../result.js';
import type { CampaignState, FleetState, Order, VesselKind, WeatherEffects } from '../state/index.js';
import { fleetHalfPoints, fleetOf, sailOrder, seagoing, type WaterMode } from './fleet.js';
import { checkStep, type StepCheck } from './navigation.js';
import { kindsOf, VESSELS, WATER_HEX_COST } from './vessels.js';

/** Why a fleet stopped in a half period. */
export type FleetStop =
  | { readonly kind: 'done' }
  | { readonly kind: 'points' }
  | { readonly kind: 'tide' }
  | { readonly kind: 'night' }
  | { readonly kind: 'calm' }
  | { readonly kind: 'gale' }
  | { readonly kind: 'portClosed'; readonly hex: Hex }
  | { readonly kind: 'occupied'; readonly hex: Hex; readonly by: string }
  | { readonly kind: 'illegal'; readonly violation: Violation };

export interface FleetHalf {
  readonly entered: readonly { readonly hex: Hex; readonly pointsLeft: number }[];
  readonly hex: Hex;
  readonly fleet: FleetState;
  readonly path: readonly Hex[];
  readonly stop: FleetStop;
}

/**
 * Moves a fleet along its path for one half period. Every sea, coast or river hex costs 6; the
 * half period's points come from the slowest vessel (fleetHalfPoints), fractions carry over
 * within the day. A fleet waits (its order stands) while a port is closed by fog or high winds,
 * in calm (sailed vessels), in a gale (at sea) and while the next hex holds another commander;
 * an illegal step ends the order. Escort galleys are lost when the fleet goes into open sea. A
 * half period is rowed on a river or sailed at sea, never both: at a river mouth the fleet goes on
 * next half period (so no boat rows by night, and none puts to sea in a gale).
 * @see 000 Waterborne Transport; 000 Coastal Waters; 000 Open Sea; 000 Strategic Movement Under Fog
 */
export function advanceFleet(map: MapModel, army: Army, fleet: FleetState, path: readonly Hex[], clock: GameTime, weather: WeatherEffects, occupied: ReadonlyMap<string, string>): FleetHalf {
  const still = (stop: FleetStop, f: FleetState = fleet): FleetHalf => ({ entered: [], hex: army.hex, fleet: { ...f, carry: 0, carryDay: clock.day }, path, stop });
  const first = path[0];
  if (!first) return { entered: [], hex: army.hex, fleet, path, stop: { kind: 'done' } };
  if (fleet.waitHalves > 0) return still({ kind: 'tide' }, { ...fleet, waitHalves: fleet.waitHalves - 1 });
  const kinds = kindsOf(fleet.vessels);
  const check0 = checkStep(map, kinds, army.hex, first, weather);
  if (!check0.ok) return still({ kind: 'illegal', violation: check0.violation });
  const mode: WaterMode = check0.value.river ? 'river' : 'sea';
  const per = fleetHalfPoints(fleet.vessels, mode, weather, clock);
  if (per <= 0) return still(becalmed(mode, weather, clock, kinds));
  let budget = (fleet.carryDay === clock.day ? fleet.carry : 0) + per;
  let pos = army.hex;
  let escortLost = fleet.escortLost;
  const entered: { hex: Hex; pointsLeft: number }[] = [];
  let stop: FleetStop = { kind: 'done' };
  let i = 0;
  for (const to of path) {
    const chk = checkStep(map, kinds, pos, to, weather);
    const held = chk.ok ? heldBy(army, fleet, to, chk.value, mode, weather, occupied) : { kind: 'illegal' as const, violation: chk.violation };
    if (held) {
      // A river mouth: the half period's points are rowed on a river (by day) or sailed at sea
      // (weather apart); the fleet goes on in the other mode next half period, with no carry.
      if (held.kind === 'points') budget = 0;
      stop = held;
      break;
    }
    if (budget < WATER_HEX_COST) {
      stop = { kind: 'points' };
      break;
    }
    budget -= WATER_HEX_COST;
    pos = to;
    if (chk.ok && chk.value.openSea && (fleet.vessels.galley ?? 0) > 0 && kinds.some((k) => k !== 'galley')) escortLost = true;
    entered.push({ hex: to, pointsLeft: budget });
    i++;
  }
  const carry = stop.kind === 'points' ? budget : 0;
  return { entered, hex: pos, fleet: { ...fleet, escortLost, carry, carryDay: clock.day }, path: path.slice(i), stop };
}

/** Why a fleet with no points this half period lies still: a gale at sea, calm, or night for rowers. */
function becalmed(mode: WaterMode, weather: WeatherEffects, clock: GameTime, kinds: readonly VesselKind[]): FleetStop {
  if (mode === 'sea' && weather.shipsHalted) return { kind: 'gale' };
  if (mode === 'sea' && weather.rowOnly && clock.half < 2) return { kind: 'calm' };
  return mode === 'sea' && weather.rowOnly && !kinds.every((k) => VESSELS[k].rowed !== undefined) ? { kind: 'calm' } : { kind: 'night' };
}

/** What holds the fleet before the next hex: a change of waters (river or sea), a closed port, another commander. */
function heldBy(army: Army, fleet: FleetState, to: Hex, chk: StepCheck, mode: WaterMode, weather: WeatherEffects, occupied: ReadonlyMap<string, string>): FleetStop | undefined {
  if (chk.river !== (mode === 'river')) return { kind: 'points' };
  if (chk.port && weather.portsClosed && seagoing(fleet.vessels)) return { kind: 'portClosed', hex: to };
  const holder = occupied.get(hexKey(to));
  if (holder !== undefined && holder !== army.id) return { kind: 'occupied', hex: to, by: holder };
  return undefined;
}

/**
 * The shortest water route for a fleet (every hex costs the same 6 points), avoiding hexes held by
 * other commanders. Undefined when none exists.
 */
function findSeaRoute(map: MapModel, fleet: FleetState, from: Hex, to: Hex, blocked: ReadonlySet<string>, weather?: WeatherEffects): Hex[] | undefined {
  const kinds = kindsOf(fleet.vessels);
  const goal = hexKey(to);
  const prev = new Map<string, { key: string; hex: Hex } | null>([[hexKey(from), null]]);
  let frontier: Hex[] = [from];
  while (frontier.length > 0) {
    const next: Hex[] = [];
    for (const h of frontier) {
      for (const n of neighbours(h)) {
        const k = hexKey(n);
        if (prev.has(k) || !map.inBounds(n) || (blocked.has(k) && k !== goal)) continue;
        if (!checkStep(map, kinds, h, n, weather).ok) continue;
        prev.set(k, { key: hexKey(h), hex: n });
        if (k === goal) {
          const out: Hex[] = [];
          let cur: string | undefined = k;
          while (cur !== undefined) {
            const p: { key: string; hex: Hex } | null | undefined = prev.get(cur);
            if (!p) break;
            out.push(p.hex);
            cur = p.key;
          }
          return out.reverse();
        }
        next.push(n);
      }
    }
    frontier = next;
  }
  return undefined;
}

export interface SailPreviewStep {
  readonly hex: string;
  readonly day: number;
  readonly half: string;
  /** Points left in this half period after entering the hex. */
  readonly pointsLeft: number;
}

export interface SailPlan {
  readonly order: Order;
  readonly path: readonly string[];
  readonly preview: readonly SailPreviewStep[];
  /** Half periods the voyage takes at the current weather (undefined: not within 3 days). */
  readonly halves?: number;
  readonly warnings: readonly string[];
}

/** Commanders' hexes (land and fleets), for one commander per hex. */
export function occupancy(state: CampaignState): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of Object.values(state.armies)) if (!a.status.destroyed) m.set(hexKey(a.hex), a.id);
  return m;
}

const PREVIEW_HALVES = 12;

/** What the current weather does to ships, in words. */
function shipWeatherWarnings(weather: WeatherEffects, atPort: boolean, hasSailed: boolean, hasRowed: boolean): string[] {
  const w: string[] = [];
  if (weather.shipsHalted) w.push('Gale: no ship at sea moves; a ship on a coast hex may beach (/debark).');
  else if (weather.rowOnly) w.push(hasSailed && !hasRowed ? 'Calm: sailed vessels cannot move.' : 'Calm: galleys and longships take to the oars (rowed rate, by day only).');
  if (weather.sailFactor === 0.5 && !weather.shipsHalted) w.push('Fog: ships at sea make half speed (daily points / 8 per half period).');
  if (weather.sailFactor === 1.5) w.push('High winds: sailed ships at sea move 50 % faster.');
  if (weather.portsClosed && atPort) w.push(`${weather.sailFactor === 0.5 ? 'Fog' : 'High winds'}: the port is closed to seagoing ships; the fleet waits until it opens.`);
  return w;
}

/**
 * Checks a sail order (a path given hex by hex, or a destination routed by the bot) and previews
 * the voyage hex by hex with the half period and points, at the current weather:
 * 1. the voyage: every step of a given path legal, or a water route to the destination;
 * 2. warnings: hexes held by other commanders (the fleet waits before them), the weather, the
 *    galley escort lost at the open sea;
 * 3. the preview, half period by half period (at most three days), other commanders where they
 *    stand now.
 * @see 000 Waterborne Transport; 000 Coastal Waters; 000 Open Sea
 */
export function planSail(state: CampaignState, map: MapModel, armyId: string, req: { path?: readonly Hex[]; to?: Hex; givenBy: string }, weather: WeatherEffects): Result<SailPlan> {
  const army = state.armies[armyId];
  const fleet = fleetOf(state, armyId);
  if (!army || !fleet) return fail('sail.notEmbarked', `${army?.name ?? armyId} is not embarked. Embark first with /embark at a port, a beach or a river.`);
  const occ = occupancy(state);
  const voyage = chooseVoyage(map, army, fleet, req, occ, weather);
  if (!voyage.ok) return voyage;
  const path = voyage.value;
  const preview = previewVoyage(map, army, fleet, path, state.clock, weather, occ);
  const order = sailOrder(armyId, fleet, path, req.givenBy, state.clock);
  return ok({ order, path: path.map((h) => map.format(h)), preview: preview.steps, ...(preview.halves !== undefined ? { halves: preview.halves } : {}), warnings: voyageWarnings(state, map, army, fleet, path, occ, weather) });
}

/** Step 1: the path as given (every step legal), or the shortest water route to the destination around other commanders. */
function chooseVoyage(map: MapModel, army: Army, fleet: FleetState, req: { path?: readonly Hex[]; to?: Hex }, occ: ReadonlyMap<string, string>, weather: WeatherEffects): Result<Hex[]> {
  if (req.path && req.path.length > 0) {
    let pos = army.hex;
    for (const [i, h] of req.path.entries()) {
      const chk = checkStep(map, kindsOf(fleet.vessels), pos, h, weather);
      if (!chk.ok) return fail(chk.violation.code, `Step ${i + 1} (${map.inBounds(h) ? map.format(h) : '?'}): ${chk.violation.message}`, { index: i });
      pos = h;
    }
    return ok([...req.path]);
  }
  const to = req.to;
  if (!to) return fail('sail.noPath', 'Give `path:` (hexes in order, e.g. `path:"2303 2302 2202"`) or `to:` (a destination hex).');
  if (!map.inBounds(to)) return fail('sail.offMap', 'That hex is off the map.');
  if (hexEquals(to, army.hex)) return fail('sail.alreadyThere', `${army.name}'s fleet is already at ${map.format(to)}. To go ashore, use /debark.`);
  const blocked = new Set([...occ.entries()].filter(([, id]) => id !== army.id).map(([k]) => k));
  const route = findSeaRoute(map, fleet, army.hex, to, blocked, weather);
  if (!route) return fail('sail.noRoute', `No water route for ${army.name}'s fleet from ${map.format(army.hex)} to ${map.format(to)}: check coastal waters, channels, cataracts and ports for its vessels (${kindsOf(fleet.vessels).map((k) => VESSELS[k].name).join(', ')}).`);
  return ok(route);
}

/** Step 2: what the commander should know before the fleet sails. */
function voyageWarnings(state: CampaignState, map: MapModel, army: Army, fleet: FleetState, path: readonly Hex[], occ: ReadonlyMap<string, string>, weather: WeatherEffects): string[] {
  const warnings: string[] = [];
  for (const h of path) {
    const by = occ.get(hexKey(h));
    if (by !== undefined && by !== army.id) warnings.push(`${map.format(h)} is held by ${state.armies[by]?.commander ?? by}: the fleet waits before it while it stays (one commander per hex).`);
  }
  const kinds = kindsOf(fleet.vessels);
  warnings.push(...shipWeatherWarnings(weather, map.portAt(army.hex) !== undefined, kinds.some((k) => VESSELS[k].sailed !== undefined), kinds.some((k) => VESSELS[k].rowed !== undefined)));
  if ((fleet.vessels.galley ?? 0) > 0 && kinds.some((k) => k !== 'galley')) {
    let pos = army.hex;
    for (const h of path) {
      const c = checkStep(map, kinds, pos, h, weather);
      if (c.ok && c.value.openSea) {
        warnings.push(`The route enters open sea at ${map.format(h)}: the galley escort is lost there.`);
        break;
      }
      pos = h;
    }
  }
  return warnings;
}

/** Step 3: the voyage half period by half period at the current weather, other commanders where they stand now. */
function previewVoyage(map: MapModel, army: Army, fleet: FleetState, path: readonly Hex[], start: GameTime, weather: WeatherEffects, occ: ReadonlyMap<string, string>): { steps: SailPreviewStep[]; halves?: number } {
  const steps: SailPreviewStep[] = [];
  let clock = start;
  let f = fleet;
  let a = army;
  let rest: readonly Hex[] = path;
  for (let n = 0; n < PREVIEW_HALVES && rest.length > 0; n++) {
    const out = advanceFleet(map, a, f, rest, clock, weather, occ);
    for (const e of out.entered) steps.push({ hex: map.format(e.hex), day: clock.day, half: halfPeriodName(clock), pointsLeft: e.pointsLeft });
    if (out.stop.kind === 'illegal' || out.stop.kind === 'occupied') break;
    a = { ...a, hex: out.hex };
    f = out.fleet;
    rest = out.path;
    if (rest.length === 0) return { steps, halves: n + 1 };
    clock = nextHalf(clock);
  }
  return { steps };
}
