import { type Hex, hexKey, directionTo, neighbours, hexSpiral } from '../hex/index.js';
import { isWater, type MapModel } from '../map/index.js';
import { fail, ok, type Result, type Violation } from '../result.js';
import { VESSELS } from './vessels.js';
import type { VesselKind, WeatherEffects } from '../state/index.js';

/**
 * Where vessels may go.
 * @see 000 Coastal Waters; 000 Open Sea; 000 Terrain Effects: Rivers (navigation); RULINGS 1
 */

/** Coastal waters reach two sea hexes out from a coast hex: at most one sea hex between. @see 000 Coastal Waters */
const COASTAL_REACH = 2;

const coastalCache = new WeakMap<MapModel, ReadonlySet<string>>();
const cataractCache = new WeakMap<MapModel, ReadonlyMap<string, { min: number; max: number }>>();

/** Water hexes inside coastal waters: coast hexes, and sea hexes within two hexes of one. */
export function isCoastalWaters(map: MapModel, h: Hex): boolean {
  let set = coastalCache.get(map);
  if (!set) {
    const s = new Set<string>();
    for (const x of map.allHexes()) {
      const t = map.terrainAt(x);
      if (t === 'coast') s.add(hexKey(x));
      else if (t === 'sea' && hexSpiral(x, COASTAL_REACH).some((y) => map.terrainAt(y) === 'coast')) s.add(hexKey(x));
    }
    set = s;
    coastalCache.set(map, set);
  }
  return set.has(hexKey(h));
}

/** Open sea beyond coastal waters (only sailing ships and troop transports). */
export function isOpenSea(map: MapModel, h: Hex): boolean {
  return map.terrainAt(h) === 'sea' && !isCoastalWaters(map, h);
}

/**
 * Whether boats may be in this river hex: the river is navigable, the hex has no cataract, and a
 * river with two or more cataracts (the old canal) is navigable only between its first and last
 * cataract. A minor river may be closed by drought.
 * @see 000 Terrain Effects: Rivers; RULINGS 1
 */
export function riverNavigable(map: MapModel, h: Hex, weather?: Pick<WeatherEffects, 'minorNavigable'>): Result<true> {
  const r = map.riverAt(h);
  const id = map.format(h);
  if (!r) return fail('sail.noRiver', `${id} has no river for boats.`, { hex: id });
  if (!r.navigable) return fail('sail.riverNotNavigable', `The ${r.riverName} is not navigable (${id}).`, { hex: id });
  if (r.cataract) return fail('sail.cataract', `Cataract at ${id}: boats cannot pass the falls of the ${r.riverName}.`, { hex: id });
  const span = cataractSpan(map, r.riverId);
  if (span && (r.index < span.min || r.index > span.max)) {
    return fail('sail.riverNotNavigable', `The ${r.riverName} is navigable only between its cataracts; ${id} lies beyond them.`, { hex: id });
  }
  if (r.size === 'minor' && weather && !weather.minorNavigable) return fail('sail.riverLow', `The ${r.riverName} is too low for boats at ${id} (drought).`, { hex: id });
  return ok(true);
}

function cataractSpan(map: MapModel, riverId: string): { min: number; max: number } | undefined {
  let spans = cataractCache.get(map);
  if (!spans) {
    const m = new Map<string, { min: number; max: number }>();
    for (const river of map.data.rivers) {
      const idx = river.hexes.flatMap((s, i) => (s.cataract ? [i] : []));
      if (idx.length >= 2) m.set(river.id, { min: Math.min(...idx), max: Math.max(...idx) });
    }
    spans = m;
    cataractCache.set(map, spans);
  }
  return spans.get(riverId);
}

/** Two hexes joined by the flow of a river (along one river, at a confluence or at its mouth). */
function riverLinked(map: MapModel, a: Hex, b: Hex): boolean {
  const ra = map.riverAt(a);
  const rb = map.riverAt(b);
  const ab = directionTo(a, b);
  const ba = directionTo(b, a);
  if (!ab || !ba) return false;
  return (ra !== undefined && (ra.exit === ab || ra.entry === ab)) || (rb !== undefined && (rb.exit === ba || rb.entry === ba));
}

/** Kinds whose limits bind the fleet's route: escort galleys fall away at the open sea instead. */
function binding(kinds: readonly VesselKind[], openSea: boolean): VesselKind[] {
  const carriers = kinds.filter((k) => k !== 'galley');
  return openSea && carriers.length > 0 ? carriers : [...kinds];
}

export interface StepCheck {
  /** The step takes the fleet into open sea (escort galleys are lost). */
  readonly openSea: boolean;
  /** The step leaves or enters a port (closed by fog and high winds). */
  readonly port: boolean;
  /** The step is on a river (rowed rate, day only). */
  readonly river: boolean;
}

/**
 * Whether a fleet of these kinds may go from `from` to the neighbouring `to`, by the standing
 * rules (weather apart):
 * - sea and coast hexes: seagoing vessels only; beyond coastal waters only sailing ships and
 *   troop transports (escort galleys fall away); a mud-flat coast hex only through a channel;
 *   troop transports only into coast hexes with a channel or a port;
 * - out of a land hex onto the water: from a port (any seagoing vessel), from a river mouth
 *   (longships), or off a beach (longships, galleys; sailing ships lie offshore); troop
 *   transports only from a port;
 * - into a land hex: a port (docking, seagoing vessels), or a navigable river hex joined by the
 *   river's flow (river boats and longships only);
 * @see 000 Coastal Waters; 000 Open Sea; 000 Terrain Effects: Rivers
 */
export function checkStep(map: MapModel, kinds: readonly VesselKind[], from: Hex, to: Hex, weather?: Pick<WeatherEffects, 'minorNavigable'>): Result<StepCheck> {
  const id = map.inBounds(to) ? map.format(to) : `${to.q},${to.r}`;
  const tTo = map.terrainAt(to);
  const tFrom = map.terrainAt(from);
  if (tTo === undefined) return fail('sail.offMap', `${id} is off the map.`, { hex: id });
  if (!neighbours(from).some((n) => hexKey(n) === hexKey(to))) return fail('sail.notAdjacent', `${id} is not next to ${map.format(from)}: give the path hex by hex.`, { hex: id });
  if (isWater(tTo)) return checkIntoWater(map, kinds, from, to, id);
  // Into a land hex.
  if (map.portAt(to) !== undefined && isWater(tFrom)) return ok({ openSea: false, port: true, river: false });
  if (map.riverAt(to) !== undefined) {
    if (!riverLinked(map, from, to)) return fail('sail.land', `${id} is not reached from ${map.format(from)} along the river: boats follow the river hex by hex.`, { hex: id });
    const notRiver = kinds.filter((k) => !VESSELS[k].rivers);
    if (notRiver.length > 0) return fail('sail.notRiverVessel', `Only river boats and longships navigate rivers, not ${vesselNames(notRiver)}.`, { hex: id });
    const nav = riverNavigable(map, to, weather);
    if (!nav.ok) return nav;
    return ok({ openSea: false, port: false, river: true });
  }
  return fail('sail.land', `${id} is land (${tTo}): a fleet sails on sea, coast and river hexes and docks at ports. To go ashore use /debark.`, { hex: id, terrain: tTo });
}

const vesselNames = (ks: readonly VesselKind[]): string => ks.map((k) => VESSELS[k].name + 's').join(' and ');

/** A step onto a sea or coast hex: the waters the binding vessels may enter, and putting out from land. */
function checkIntoWater(map: MapModel, kinds: readonly VesselKind[], from: Hex, to: Hex, id: string): Result<StepCheck> {
  const tTo = map.terrainAt(to);
  const openSea = isOpenSea(map, to);
  const rule = binding(kinds, openSea);
  const riverOnly = rule.filter((k) => !VESSELS[k].seagoing);
  if (riverOnly.length > 0) return fail('sail.riverOnly', `${vesselNames(riverOnly)} travel only on rivers; ${id} is ${tTo === 'sea' ? 'open sea' : 'coastal water'}.`, { hex: id });
  const coastal = openSea ? rule.filter((k) => !VESSELS[k].openSea) : [];
  if (coastal.length > 0) return fail('sail.openSeaForbidden', `${id} is open sea beyond coastal waters (more than one sea hex from the coast): only sailing ships and troop transports go there, not ${vesselNames(coastal)}.`, { hex: id });
  if (tTo === 'coast') {
    if (map.isMudflat(to) && !map.hasChannel(to)) return fail('sail.mudflat', `${id} is mud flat: vessels must keep to the marked channels there.`, { hex: id });
    if (rule.some((k) => VESSELS[k].deepDraft) && !map.hasChannel(to) && map.portAt(to) === undefined) {
      return fail('sail.shallowCoast', `Troop transports draw ten feet: they may enter a coast hex only where it has a channel or a port, and ${id} has neither. Keep to the open sea or a channel.`, { hex: id });
    }
  }
  const putOut = isWater(map.terrainAt(from)) ? undefined : putOutViolation(map, rule, from, to, id);
  if (putOut) return { ok: false, violation: putOut };
  const port = map.portAt(from) !== undefined && !isWater(map.terrainAt(from));
  return ok({ openSea, port, river: false });
}

/** Out of a land hex onto the water: from a port, from a river mouth (river vessels), or off a beach (not troop transports). */
function putOutViolation(map: MapModel, rule: readonly VesselKind[], from: Hex, to: Hex, id: string): Violation | undefined {
  if (map.portAt(from) !== undefined) return undefined;
  if (map.riverAt(from) !== undefined && riverLinked(map, from, to)) {
    const notRiver = rule.filter((k) => !VESSELS[k].rivers);
    return notRiver.length > 0 ? { code: 'sail.notRiverVessel', message: `Only river boats and longships navigate rivers, not ${vesselNames(notRiver)}.`, details: { hex: id } } : undefined;
  }
  return rule.some((k) => VESSELS[k].landing === 'portOnly') ? { code: 'sail.needsPort', message: `Troop transports dock only at a port; they cannot put out from ${map.format(from)}.`, details: { hex: id } } : undefined;
}
