import { echo } from '../events/index.js';
import { isHostile, type Army } from '../forces/index.js';
import { hexEquals, type Hex } from '../hex/index.js';
import { isFog, knownPositions } from '../knowledge/index.js';
import { defaultBank, type MapModel } from '../map/index.js';
import { defaultPeriod, findRoute } from '../movement/index.js';
import { movementProfile } from '../profiles/index.js';
import { fail, ok, type Result } from '../result.js';
import type { ArmyPlan, CampaignState, ContactPolicy, PlanOrder } from '../state/index.js';
import { NO_WEATHER_EFFECTS } from '../weather/index.js';
import { placeName } from './summary.js';

/** Most points a patrol takes: enough for any circuit a referee would draw. */
const MAX_PATROL_POINTS = 8;

/** Whether the army could walk from one hex to another at all (fair weather, nobody in the way, formed or unformed). */
function walkable(state: CampaignState, map: MapModel, army: Army, from: Hex, to: Hex): boolean {
  if (hexEquals(from, to)) return true;
  const profile = movementProfile(state.settings);
  const period = defaultPeriod(army);
  const route = (unformed: boolean): boolean => findRoute({
    map, army, from, fromBank: hexEquals(from, army.hex) ? army.bank : defaultBank(map, from), to,
    opts: { period, night: period === 'night', unformed }, weather: NO_WEATHER_EFFECTS, profile, blocked: new Set(),
  }) !== undefined;
  return route(false) || route(true);
}

type Check = Result<true>;
const PASS: Check = ok(true);

/** Step 2: the place is on the map and the army could walk there at all. */
function checkPlace(state: CampaignState, map: MapModel, army: Army, to: Hex, what: string): Check {
  if (!map.inBounds(to)) return fail('plan.offMap', `${what} ${map.format(to)} is off the map.`);
  if (!walkable(state, map, army, army.hex, to)) return fail('plan.noRoute', `${army.name} has no route from ${map.format(army.hex)} to ${placeName(map, to)} (${what.toLowerCase()}): give a place it can walk to.`);
  return PASS;
}

/** Step 2 for a garrison: the place is a town. */
function checkTown(state: CampaignState, map: MapModel, army: Army, town: Hex): Check {
  if (!map.townAt(town)) {
    const towns = map.data.towns.slice(0, 12).map((t) => `${t.name} (${t.hex})`).join(', ');
    return fail('plan.notATown', `${map.format(town)} is not a town: a garrison holds a town${towns ? `, e.g. ${towns}` : ''}.`);
  }
  return checkPlace(state, map, army, town, 'The town');
}

/** Step 3: the patrol's points, and every leg of its circuit walkable. */
function checkPatrol(state: CampaignState, map: MapModel, army: Army, pts: readonly Hex[]): Check {
  if (pts.length < 2 || pts.length > MAX_PATROL_POINTS) return fail('plan.patrolPoints', `A patrol walks between 2 and ${MAX_PATROL_POINTS} places (it got ${pts.length}), e.g. places:"0712 0915".`);
  for (const p of pts) if (!map.inBounds(p)) return fail('plan.offMap', `Patrol point ${map.format(p)} is off the map.`);
  const legs = pts.map((a, i) => [a, pts[(i + 1) % pts.length] as Hex] as const);
  const repeated = legs.find(([a, b]) => hexEquals(a, b));
  if (repeated) return fail('plan.patrolRepeat', `The patrol names ${map.format(repeated[0])} twice in a row: give each next point apart from the last (the circuit returns to the first by itself).`);
  const first = pts[0] as Hex;
  if (!walkable(state, map, army, army.hex, first)) return fail('plan.noRoute', `${army.name} has no route from ${map.format(army.hex)} to the patrol's first point ${placeName(map, first)}.`);
  const broken = legs.findIndex(([a, b]) => !walkable(state, map, army, a, b));
  const leg = legs[broken];
  if (leg) {
    return fail('plan.patrolNoRoute', `The patrol cannot be walked: ${army.name} has no route from ${placeName(map, leg[0])} to ${placeName(map, leg[1])} (leg ${broken + 1} of ${pts.length}, the circuit returning to its first point). Give points joined by land it can cross.`);
  }
  return PASS;
}

/** Step 4: the quarry is an enemy its side knows of. */
function checkQuarry(state: CampaignState, army: Army, targetId: string): Check {
  const target = Object.hasOwn(state.armies, targetId) ? state.armies[targetId] : undefined;
  if (!target || target.status.destroyed) return fail('plan.unknownArmy', `There is no army ${echo(targetId)} on the map to shadow.`);
  if (target.id === army.id || !isHostile(state.sides, army.side, target.side)) return fail('plan.notAnEnemy', `${target.name} is not an enemy of ${army.name}: a plan shadows an army of a hostile side.`);
  if (isFog(state) && !knownPositions(state, [army.id])[target.id]) return fail('plan.enemyNotKnown', `${army.name}'s side knows nothing of where ${target.name} is: a plan shadows an enemy its army knows of.`);
  return PASS;
}

/**
 * Checks a plan before it is stored, as far as the rules can tell now (the weather and other
 * armies in the way are met when it is followed, like a commander's orders):
 * 1. the army is on the map (not destroyed);
 * 2. every place is on the map, and the army could walk there at all (a garrison's place is a town);
 * 3. a patrol has 2 to MAX_PATROL_POINTS points, and each leg of its circuit, the last back to
 *    the first, can be walked;
 * 4. a shadowed army is another side's, hostile, and one the army's side knows of (in fog of war,
 *    one it has seen or been told of).
 */
export function checkPlan(state: CampaignState, map: MapModel, input: { armyId: string; order: PlanOrder; contact: ContactPolicy; setBy: string }): Result<ArmyPlan> {
  const army = Object.hasOwn(state.armies, input.armyId) ? state.armies[input.armyId] : undefined;
  if (!army) return fail('plan.unknownArmy', `There is no army ${echo(input.armyId)}.`);
  // 1. On the map.
  if (army.status.destroyed) return fail('plan.destroyed', `${army.name} has been destroyed: it follows no plan.`);
  const order = input.order;
  const checked = order.kind === 'march' ? checkPlace(state, map, army, order.to, 'The destination')
    : order.kind === 'withdraw' ? checkPlace(state, map, army, order.to, 'The place to fall back to')
      : order.kind === 'garrison' ? checkTown(state, map, army, order.town)
        : order.kind === 'patrol' ? checkPatrol(state, map, army, order.points)
          : order.kind === 'shadow' ? checkQuarry(state, army, order.target)
            : PASS;
  if (!checked.ok) return checked;
  return ok({ armyId: army.id, order, contact: input.contact, setBy: input.setBy, setAt: state.clock });
}
