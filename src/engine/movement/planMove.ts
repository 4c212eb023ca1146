import { echo } from '../events/index.js';
import { isHostile, type Army } from '../forces/index.js';
import { hexEquals, type Hex, hexKey } from '../hex/index.js';
import { isWater, type MapModel } from '../map/index.js';
import { movementProfile, type MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result, type Violation } from '../result.js';
import type { CampaignState, MoveOrder, WeatherEffects } from '../state/index.js';
import { HALVES_PER_DAY } from './crossing.js';
import { findRoute } from './findRoute.js';
import { moveWarnings } from './moveWarnings.js';
import { nocturnalRefusal } from './nocturnal.js';
import { scheduleMove } from './scheduleMove.js';
import type { MoveOptions, MovePlan, MoveRequest, MoveWarning, WalkStep } from './types.js';
import { walkPath } from './walkPath.js';

/** Hex keys of every other commander on the map (one commander per hex). */
function commanderHexes(state: CampaignState, exceptArmyId: string): Map<string, Army> {
  const out = new Map<string, Army>();
  for (const a of Object.values(state.armies)) {
    // Fleets hold their hex as well (a port, a beach, a river hex).
    if (a.id === exceptArmyId || a.status.destroyed) continue;
    out.set(hexKey(a.hex), a);
  }
  return out;
}

/** Why the army cannot take a move order at all, or undefined. */
function cannotMove(army: Army | undefined, armyId: string): Violation | undefined {
  if (!army) return { code: 'army.unknown', message: `There is no army ${echo(armyId)}.` };
  if (army.status.destroyed) return { code: 'move.destroyed', message: `${army.name} has been destroyed.` };
  if (army.status.embarked) return { code: 'move.embarked', message: `${army.name} is aboard ship: use /debark first.` };
  if (army.status.inBattle) return { code: 'move.inBattle', message: `${army.name} is in battle and cannot move until it is resolved.` };
  if (army.march.operation) {
    const op = army.march.operation;
    const days = Math.ceil(op.remainingHalves / HALVES_PER_DAY);
    return { code: 'move.committed', message: `${army.name} is committed to a ${op.kind === 'ferry' ? 'ferry crossing' : 'raft crossing'} (${op.phase}) for about ${days} more day(s).` };
  }
  return undefined;
}

/** What a move is planned on: the map, the weather, the other commanders' hexes and those a march may pass through. */
interface Ground {
  readonly map: MapModel;
  readonly weather: WeatherEffects;
  readonly profile: MovementProfile;
  readonly others: Map<string, Army>;
  /** Hex keys held by allies the march may pass through (passage of lines, a setting). */
  readonly passable: ReadonlySet<string>;
}

/**
 * Passage of lines (advanced, a campaign setting): the hexes of allies ashore, which a march may
 * pass through but not stop on. Whether the ally stands still is judged when the march is made.
 * @see 000 Advanced: Passage of Lines
 */
function passableHexes(state: CampaignState, army: Army, others: ReadonlyMap<string, Army>): Set<string> {
  if (!state.settings.passageOfLines) return new Set();
  return new Set([...others].filter(([, o]) => !o.status.embarked && !isHostile(state.sides, army.side, o.side)).map(([k]) => k));
}

/**
 * Validates a move request and previews it hex by hex: terrain, road or track, entry cost, river
 * crossings (method, points or days), the half period each hex is entered, points left; plus
 * warnings and the order to store. A refusal names the hex and the rule and, where it can, the
 * nearest legal alternative (the furthest reachable hex, unformed:true, or a formed route).
 * 1. the army can take a move order, and this period (dark sight to split; nocturnal folk by night);
 * 2. the path: as given, or the cheapest legal route to the destination;
 * 3. one commander per hex: a hex held now is warned of, and judged at the tick (its holder may leave);
 * 4. the walk: every step legal, every crossing known;
 * 5. the schedule over periods and days (with no overland movement in this weather the order
 *    waits: it is previewed as if the sky cleared);
 * 6. the warnings, and the order.
 * @see 000 Strategic Movement; 000 Overland Travel; 000 Terrain Effects; RULINGS 2-4
 */
export function planMove(state: CampaignState, map: MapModel, weather: WeatherEffects, armyId: string, request: MoveRequest): Result<MovePlan> {
  const army = state.armies[armyId];
  const bad = cannotMove(army, armyId);
  if (bad || !army) return { ok: false, violation: bad ?? { code: 'army.unknown', message: armyId } };
  if (request.period === 'split' && army.sight === 'light') {
    return fail('move.splitNeedsDarkSight', `${army.name} is light-sighted: only dark-seeing forces split a move between day and night. Use period:day or period:night.`);
  }
  const daylight = nocturnalRefusal(army, request.period, state.settings.nocturnalDayMarch);
  if (daylight) return { ok: false, violation: daylight };
  const opts: MoveOptions = { period: request.period, night: request.period === 'night', unformed: request.unformed || army.formation === 'unformed' };
  const others = commanderHexes(state, army.id);
  const profile = movementProfile(state.settings);
  const ground: Ground = { map, weather, profile, others, passable: passableHexes(state, army, others) };
  const chosen = choosePath(ground, army, request, opts);
  if (!chosen.ok) return chosen;
  const path = chosen.value;
  const walk = walkPath({ map, army, from: army.hex, fromBank: army.bank, path, crossAtEnd: request.crossAtEnd, opts, weather, profile: ground.profile });
  if (walk.stop) return { ok: false, violation: withAlternative(walk.stop.violation, ground, army, walk.steps, path, opts) };
  const planWeather = weather.overlandFactor === 0 ? { ...weather, overlandFactor: 1 } : weather;
  const order = moveOrder(state, army, request, path, walk.steps);
  const sched = scheduleMove(state.clock, army, request, order, walk.steps, planWeather, map, profile);
  if (!sched.ok) return sched;
  return ok({
    armyId: army.id,
    steps: sched.value.steps,
    warnings: [...occupiedWarnings(state, ground, army, path), ...moveWarnings({ map, army, clock: state.clock, weather, profile, request, opts, path, steps: walk.steps }), ...passageWarnings(ground, path), ...(sched.value.cut ? [sched.value.cut] : [])],
    totalPoints: walk.steps.reduce((n, s) => n + s.points, 0),
    days: sched.value.days,
    ...(sched.value.fatigue ? { fatigue: sched.value.fatigue } : {}),
    order,
  });
}

/** Step 2: the path as given, or the cheapest legal route to the destination (with a hint when only unformed or by day would do). */
function choosePath(ground: Ground, army: Army, request: MoveRequest, opts: MoveOptions): Result<readonly Hex[]> {
  const { map } = ground;
  if (request.path && request.path.length > 0) return ok(request.path);
  const to = request.to;
  if (!to) {
    if (request.crossAtEnd) return ok([]);
    return fail('move.noDestination', 'Give a path (hex ids in order, e.g. "0712 0713") or a destination (to:0913).');
  }
  if (!map.inBounds(to)) return fail('move.offMap', `Hex ${map.format(to)} is off the map.`);
  if (hexEquals(to, army.hex)) {
    if (!request.crossAtEnd) {
      const hint = map.riverAt(to) ? ' To cross the river here, add cross:true.' : ' Give another hex to move to.';
      return fail('move.alreadyThere', `${army.name} is already at ${map.format(to)}.${hint}`);
    }
    return ok([]);
  }
  // A destination held now is not refused: its holder may leave in the same half period (step 3
  // warns). The route goes round the other hexes held now.
  const blocked = blockedHexes(ground);
  blocked.delete(hexKey(to));
  const route = (o: MoveOptions) => findRoute({ map, army, from: army.hex, fromBank: army.bank, to, opts: o, weather: ground.weather, profile: ground.profile, blocked });
  const found = route(opts);
  if (found) return ok(found.path);
  const unformed = !opts.unformed && route({ ...opts, unformed: true });
  const night = opts.night && army.sight === 'light' && route({ ...opts, night: false, period: 'day' });
  const water = isWater(map.terrainAt(to)) ? ` ${map.format(to)} is water: an army marches on land; to go by sea or river, \`/embark\` at a port (or a beach or river for its vessels), then \`/sail\`.` : '';
  const hint = unformed ? ' A route exists unformed: add unformed:true (stragglers, a day to reform).' : night ? ' A route exists by day: use period:day.' : water;
  return fail('move.noPath', `No legal route for ${army.name} from ${map.format(army.hex)} to ${map.format(to)}.${hint}`, { to: map.format(to) });
}

/** The hexes a route may not enter: every other commander's, less the allies a march may pass through. */
function blockedHexes(ground: Ground): Set<string> {
  return new Set([...ground.others.keys()].filter((k) => !ground.passable.has(k)));
}

/**
 * Step 3: one commander per hex, judged at the tick. All moves of a period are simultaneous, so a
 * hex held when the order is given may be left in the same half period (000 Simultaneous Moves;
 * case 030): the order is accepted, and the march waits before the hex while its holder may still
 * leave, follows if it does, and halts before it otherwise (the order cancelled when the holder
 * stands still). Each hex of the path held now, bar an ally's it may pass through (passage of
 * lines, never its last hex), gets a warning. The state is the one the order is planned on: in fog
 * of war another side's army stands where this army last knew it, so the warning tells nothing
 * the commander does not know, and nothing of the holder's orders.
 * @see 000 Strategic Movement: Hexes; RULINGS 3; docs/rulings.md Movement: Simultaneous resolution
 */
function occupiedWarnings(state: CampaignState, ground: Ground, army: Army, path: readonly Hex[]): MoveWarning[] {
  const { map } = ground;
  const last = path.length - 1;
  return path.flatMap((h, i) => {
    const holder = ground.others.get(hexKey(h));
    if (!holder || (i < last && ground.passable.has(hexKey(h)))) return [];
    const hex = map.format(h);
    const sighted = state.settings.positions === 'fog' && holder.side !== army.side;
    const where = sighted ? `${holder.name} was last known at ${hex}` : `${hex} is held by ${holder.name}`;
    const stop = ground.passable.has(hexKey(h)) ? ' (passage of lines lets a march pass through an ally standing still, never stop on it)' : '';
    const enemy = isHostile(state.sides, army.side, holder.side) ? ' Coming next to an enemy brings map contact first.' : '';
    return [{
      code: 'move.occupied' as const,
      message: `${where}: one commander per hex, and none passes through another's${stop}. The order stands: at the tick the march waits before ${hex} while ${holder.name} may still leave it in the same half period and follows if it does; if ${holder.name} stays, the march halts before ${hex} and the order is cancelled.${enemy}`,
    }];
  });
}

/** Step 6: a march through an ally's hex (passage of lines) passes in and out of it in one half period, or waits before it. */
function passageWarnings(ground: Ground, path: readonly Hex[]): MoveWarning[] {
  return path.filter((h, i) => i < path.length - 1 && ground.passable.has(hexKey(h))).map((h) => ({
    code: 'move.passageOfLines',
    message: `The march passes through ${ground.map.format(h)}, held by ${ground.others.get(hexKey(h))?.name ?? 'an ally'} (passage of lines): it must go in and out in the same half period and waits before the hex until it can; the ally must stand still; contact during the passage leaves both unformed.`,
  }));
}

/** Step 6: the order to store, with the multi-day crossings the commander was shown. */
function moveOrder(state: CampaignState, army: Army, request: MoveRequest, path: readonly Hex[], steps: readonly WalkStep[]): MoveOrder {
  const crossings = steps.flatMap((s) => (s.crossing && s.crossing.halves > 0 ? [{ hex: s.hex, method: s.crossing.method }] : []));
  return {
    armyId: army.id,
    kind: 'move',
    period: request.period,
    path: [...path],
    forced: request.forced,
    unformed: request.unformed,
    save: request.save,
    ...(request.crossAtEnd ? { crossAtEnd: true } : {}),
    ...(crossings.length > 0 ? { crossings } : {}),
    givenBy: request.givenBy ?? army.commander,
    givenAt: state.clock,
  };
}

/** Adds the nearest legal alternative to a refusal. */
function withAlternative(v: Violation, ground: Ground, army: Army, steps: readonly WalkStep[], path: readonly Hex[], opts: MoveOptions): Violation {
  const { map } = ground;
  const hints: string[] = [];
  const reached = [...steps].reverse().find((s) => s.kind === 'enter');
  if (reached) hints.push(`The furthest hex the path reaches legally is ${map.format(reached.hex)}.`);
  const target = path[path.length - 1];
  if (target && !hexEquals(target, army.hex) && !ground.others.has(hexKey(target))) {
    const route = findRoute({ map, army, from: army.hex, fromBank: army.bank, to: target, opts, weather: ground.weather, profile: ground.profile, blocked: blockedHexes(ground) });
    // The hexes on the way, the destination left out (a route of one hex goes via nothing).
    const via = route?.path.slice(0, -1).map((h) => map.format(h)) ?? [];
    if (route) hints.push(`A legal route exists: /move to:${map.format(target)}${via.length > 0 ? ` (via ${via.join(' ')})` : ''}.`);
  }
  return hints.length === 0 ? v : { ...v, message: `${v.message} ${hints.join(' ')}` };
}
