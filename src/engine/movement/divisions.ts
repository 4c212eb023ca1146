import { type GameTime } from '../clock/index.js';
import { echo, namesOf, PUBLIC, tell, toArmy } from '../events/index.js';
import { regimentFigures, type Army, type MarchState, type Regiment } from '../forces/index.js';
import { hexEquals, isAdjacent, type Hex } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { movementProfile } from '../profiles/index.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState } from '../state/index.js';
import { weatherEffects } from '../weather/index.js';
import { moveAtOnce, pointsLeftNow, priceMove, type MoveMoment } from './immediateMove.js';
import { todaysPoints } from './dailyPoints.js';
import { describeMovement } from './describeMovement.js';
import type { MovementEvent, MovementFact } from './movementEvents.js';

/**
 * Divisions and war machines (ACKS): an army may split into divisions that act as armies of
 * their own until they meet in one hex again, and its war machines are assembled or
 * disassembled by a day's work. Only profiles with these rules allow them.
 * @see 004 Movement of Large Armies (divisions); 004 Movement of War Machines
 */

/** The state after a split, merge or order to the machines, and what is told of it (the names of the state before). */
export interface DivisionChange {
  readonly state: CampaignState;
  readonly events: readonly MovementEvent[];
}

const told = (before: CampaignState, facts: readonly MovementFact[]): MovementEvent[] => tell(facts, describeMovement, namesOf(before.armies));

/** Why an army cannot split, merge or work on its machines now, or undefined. */
function busy(army: Army, what: string, state: CampaignState): string | undefined {
  if (army.status.destroyed) return `${army.name} has been destroyed.`;
  if (state.orders[army.id]?.kind === 'debark') return `${army.name} waits at its port for regiments still at sea: it cannot ${what} until they are all ashore.`;
  if (army.status.inContact || army.status.inBattle) return `${army.name} is in contact: it cannot ${what} until the contact is over.`;
  if (army.status.embarked) return `${army.name} is aboard ship: it cannot ${what} until it lands.`;
  if (army.march.operation) return `${army.name} is crossing a river: it cannot ${what} until it is across.`;
  if (army.warMachines?.changing) return `${army.name} is at work on its war machines until day ${army.warMachines.changing.readyDay}.`;
  return undefined;
}

function momentOf(state: CampaignState): MoveMoment {
  return { clock: state.clock, weather: weatherEffects(state.weather, state.settings), profile: movementProfile(state.settings) };
}

/** Regiments with their roles given again by order: the first leads, the second supports, unless one still leads. */
function reRole(regiments: readonly Regiment[]): Regiment[] {
  if (regiments.some((r) => r.role === 'assault' && regimentFigures(r) > 0)) return [...regiments];
  return regiments.map((r, i) => ({ ...r, role: i === 0 ? 'assault' : i === 1 ? 'support' : 'reserve' }));
}

/** Army ids the state still names anywhere (armies, contacts, couriers, what armies know). */
function idsInUse(state: CampaignState): Set<string> {
  const used = new Set(Object.keys(state.armies));
  for (const c of Object.values(state.contacts)) for (const id of c.armyIds) used.add(id);
  for (const c of Object.values(state.couriers)) used.add(c.fromArmy).add(c.toArmy);
  for (const [viewer, seen] of Object.entries(state.knowledge.armies)) {
    used.add(viewer);
    for (const id of Object.keys(seen)) used.add(id);
  }
  return used;
}

/**
 * The first division id of an army that nothing in the state names: `<id>-2`, `<id>-3`, ...
 * (a division merged back does not hand its id, and with it its contact history, to a new one).
 */
function divisionId(state: CampaignState, parent: string): string {
  const used = idsInUse(state);
  for (let n = 2; ; n++) if (!used.has(`${parent}-${n}`)) return `${parent}-${n}`;
}

/** What a division adds to its army's name and commander, taken off again for a division of a division. */
const DIVISION_NAME = / \(division \d+\)$/;
const DIVISION_COMMANDER = /'s division \d+$/;

/** The army a division came from (itself for an army that is no division). */
const originOf = (a: Army): string => a.divisionOf ?? a.id;

/** Stragglers of the given regiments only. */
const stragglersOf = (march: MarchState, regiments: readonly Regiment[]): MarchState['stragglers'] =>
  march.stragglers.filter((s) => regiments.some((r) => r.id === s.regimentId));

export interface SplitInput {
  readonly armyId: string;
  /** Regiment ids that march off as the new division. */
  readonly regiments: readonly string[];
  /** The neighbouring hex the division moves into now. */
  readonly to: Hex;
  readonly name?: string;
}

/**
 * Splits an army: the named regiments march off into a neighbouring free hex as a new division,
 * a move made at once and priced by the movement rules (its points, the hex's cost, rivers,
 * night and weather). The division keeps the army's books (points, rest, fatigue), scouts and
 * what it knew; leaders, vessels and the standing order stay with the army. Roles are given
 * again where the leading regiment left.
 * @see 004 Movement of Large Armies: "split the army into divisions"
 */
export function splitArmy(state: CampaignState, map: MapModel, input: SplitInput): Result<DivisionChange & { readonly divisionId: string }> {
  const army = state.armies[input.armyId];
  if (!army) return fail('army.unknown', `There is no army ${echo(input.armyId)}.`);
  if (!movementProfile(state.settings).divisions) return fail('division.notInProfile', 'These movement rules have no divisions: the ACKS profile (`/campaign settings profile:acks`) has them.');
  const why = busy(army, 'split', state);
  if (why) return fail('division.busy', why);
  const leaving = army.regiments.filter((r) => input.regiments.includes(r.id));
  const unknown = input.regiments.filter((id) => !army.regiments.some((r) => r.id === id));
  if (unknown.length > 0 || leaving.length === 0) return fail('division.regiments', `Name the regiments that march off, by id: ${army.regiments.map((r) => r.id).join(', ')}.`);
  if (leaving.length === army.regiments.length) return fail('division.regiments', `At least one regiment stays with ${army.name}; name the others that march off.`);
  const fail2 = placeDivision(state, map, army, input.to);
  if (!fail2.ok) return fail2;
  const origin = originOf(army);
  const id = divisionId(state, origin);
  const n = id.slice(origin.length + 1);
  const moved = moveAtOnce({ ...army, id }, fail2.value, state.clock).army;
  const staying = army.regiments.filter((r) => !input.regiments.includes(r.id));
  const formed: Army = {
    ...moved,
    name: input.name ?? `${army.name.replace(DIVISION_NAME, '')} (division ${n})`,
    // Led by one of the commander's officers: the chronicle and the map tell the two apart.
    commander: `${army.commander.replace(DIVISION_COMMANDER, '')}'s division ${n}`,
    divisionOf: origin,
    regiments: reRole(leaving),
    individuals: [],
    vessels: {},
    // Stragglers follow their own regiments.
    march: { ...moved.march, stragglers: stragglersOf(moved.march, leaving) },
  };
  // Its points left are its own: its troops' allowance today less what the army had spent (a
  // division of faster troops has more left than the army it leaves), not the army's remainder.
  const moment = momentOf(state);
  const own = Math.max(0, todaysPoints(formed, moment.profile, formed.march.forcedMarchDay === state.clock.day, moment.weather) - formed.march.spentToday);
  const division: Army = { ...formed, march: { ...formed.march, pointsLeft: own } };
  const stay: Army = { ...army, regiments: reRole(staying), march: { ...army.march, stragglers: stragglersOf(army.march, staying) } };
  const known = state.knowledge.armies[army.id];
  const next: CampaignState = {
    ...state,
    armies: { ...state.armies, [army.id]: stay, [id]: division },
    knowledge: known ? { ...state.knowledge, armies: { ...state.knowledge.armies, [id]: known } } : state.knowledge,
  };
  return ok({ state: next, divisionId: id, events: told(next, [{ type: 'armySplit', audience: PUBLIC, data: { armyId: army.id, divisionId: id, hex: map.format(division.hex) } }]) });
}

/** The new division's move into a neighbouring hex, free of any commander. */
function placeDivision(state: CampaignState, map: MapModel, army: Army, to: Hex): Result<Parameters<typeof moveAtOnce>[1]> {
  if (!isAdjacent(army.hex, to)) return fail('division.notAdjacent', `The division marches off into a hex next to ${map.format(army.hex)}.`);
  const holder = Object.values(state.armies).find((a) => !a.status.destroyed && hexEquals(a.hex, to));
  if (holder) return fail('division.occupied', `${map.format(to)} is held by ${holder.name}: one commander per hex.`);
  const moment = momentOf(state);
  const priced = priceMove(map, army, [to], moment);
  if (!priced.ok) return priced;
  if (priced.value.points > pointsLeftNow(army, moment)) return fail('division.noPoints', `Moving into ${map.format(to)} costs ${priced.value.points} points; ${army.name} has ${pointsLeftNow(army, moment)} left today.`);
  return priced;
}

/** Two march books as one: the worse of each (points left, fatigue, rest owed), the days logged together. */
function mergeBooks(a: MarchState, b: MarchState): MarchState {
  const days = Math.max(a.recentDays.length, b.recentDays.length);
  const at = (log: readonly boolean[], i: number): boolean => log[log.length - days + i] === true;
  const forced = Math.max(a.forcedMarchDay ?? -1, b.forcedMarchDay ?? -1);
  return {
    ...a,
    pointsLeft: Math.min(a.pointsLeft, b.pointsLeft),
    spentToday: Math.max(a.spentToday, b.spentToday),
    spentPeriod: Math.max(a.spentPeriod, b.spentPeriod),
    savedPoints: Math.min(a.savedPoints, b.savedPoints),
    restFactor: Math.min(a.restFactor, b.restFactor),
    daysMarched: Math.max(a.daysMarched, b.daysMarched),
    recentDays: Array.from({ length: days }, (_, i) => at(a.recentDays, i) || at(b.recentDays, i)),
    movedToday: a.movedToday || b.movedToday,
    unformedToday: a.unformedToday || b.unformedToday,
    restDays: Math.min(a.restDays, b.restDays),
    stragglers: [...a.stragglers, ...b.stragglers],
    noRaftHexes: [...a.noRaftHexes, ...b.noRaftHexes],
    ...(forced >= 0 ? { forcedMarchDay: forced } : {}),
    ...(a.fatigueReason ?? b.fatigueReason ? { fatigueReason: a.fatigueReason ?? b.fatigueReason } : {}),
  };
}

/**
 * Merges a division into another army of its side: it moves into that army's hex (a move made
 * at once, priced by the movement rules) and its regiments (as reserve), leaders, scouts and
 * vessels join it; the merged army keeps the worse of the two books (points left, fatigue,
 * rest owed). Couriers riding to or from the division ride to or from the army.
 * @see 004 Movement of Large Armies: divisions "regroup by moving back into the same hex"
 */
export function mergeArmies(state: CampaignState, map: MapModel, fromId: string, intoId: string): Result<DivisionChange> {
  const from = state.armies[fromId];
  const into = state.armies[intoId];
  if (!from || !into || from.id === into.id) return fail('army.unknown', 'Name two different armies: the division that moves and the army it joins.');
  if (!movementProfile(state.settings).divisions) return fail('division.notInProfile', 'These movement rules have no divisions: the ACKS profile (`/campaign settings profile:acks`) has them.');
  if (from.side !== into.side) return fail('division.otherSide', `${from.name} and ${into.name} are not of one side.`);
  if (originOf(from) !== originOf(into)) return fail('division.notDivisions', `${from.name} and ${into.name} are not divisions of one army: only divisions split from the same army join again.`);
  const why = busy(from, 'merge', state) ?? busy(into, 'merge', state);
  if (why) return fail('division.busy', why);
  const machines = mergedMachines(from, into);
  if (!machines.ok) return machines;
  if (!isAdjacent(from.hex, into.hex)) return fail('division.notAdjacent', `${from.name} must stand next to ${into.name} to join it.`);
  const moment = momentOf(state);
  const priced = priceMove(map, from, [into.hex], moment);
  if (!priced.ok) return priced;
  const left = pointsLeftNow(from, moment);
  if (priced.value.points > left) return fail('division.noPoints', `Joining ${into.name} at ${map.format(into.hex)} costs ${priced.value.points} points; ${from.name} has ${left} left today.`);
  const paid = moveAtOnce(from, priced.value, state.clock).army;
  const { divisionOf: _origin, ...intoArmy } = into;
  const merged: Army = {
    ...intoArmy,
    // The army keeps being a division of its origin unless the origin itself is what remains.
    ...(originOf(into) !== into.id ? { divisionOf: originOf(into) } : {}),
    ...(machines.value ? { warMachines: machines.value } : {}),
    ...(into.tireless && !from.tireless ? { tireless: false } : {}),
    formation: paid.formation === 'unformed' || into.formation === 'unformed' ? 'unformed' : 'formed',
    status: { ...into.status, fatigued: into.status.fatigued || from.status.fatigued },
    regiments: [...into.regiments, ...from.regiments.map((r): Regiment => ({ ...r, role: 'reserve' }))],
    individuals: [...into.individuals, ...from.individuals],
    scouts: Math.max(into.scouts, from.scouts),
    vessels: Object.fromEntries([...new Set([...Object.keys(into.vessels), ...Object.keys(from.vessels)])].map((k) => [k, (into.vessels[k] ?? 0) + (from.vessels[k] ?? 0)])),
    march: mergeBooks(into.march, paid.march),
  };
  return ok({ state: withoutArmy({ ...state, armies: { ...state.armies, [into.id]: merged } }, from.id, into.id), events: told(state, [{ type: 'armiesMerged', audience: PUBLIC, data: { armyId: from.id, intoId: into.id, hex: map.format(into.hex) } }]) });
}

/**
 * The war machines of two armies joining: those of whichever has them, and when both have them,
 * they must be in one state (assembled or not) first: joining does not assemble anything.
 */
function mergedMachines(from: Army, into: Army): Result<Army['warMachines']> {
  const has = (a: Army): boolean => a.regiments.some((r) => r.companies.some((c) => c.warMachine && c.figures > 0));
  if (!has(from)) return ok(into.warMachines);
  if (!has(into)) return ok(from.warMachines);
  const a = from.warMachines?.state ?? 'disassembled';
  const b = into.warMachines?.state ?? 'disassembled';
  if (a !== b) return fail('division.machines', `${from.name}'s war machines are ${a} and ${into.name}'s ${b}: put them in one state first (\`/army machines\`).`);
  return ok(into.warMachines);
}

/** The state without an army that joined another: its order, what it knew and was known of it, its couriers redirected. */
function withoutArmy(state: CampaignState, gone: string, into: string): CampaignState {
  const { [gone]: _army, ...armies } = state.armies;
  const { [gone]: _order, ...orders } = state.orders;
  const { [gone]: _known, ...viewers } = state.knowledge.armies;
  const knowledge = Object.fromEntries(Object.entries(viewers).map(([v, seen]) => {
    const { [gone]: _seen, ...rest } = seen;
    return [v, rest];
  }));
  const redirect = (id: string): string => (id === gone ? into : id);
  // A courier between the two has nobody left to ride to: it is dropped.
  const between = (c: CampaignState['couriers'][string]): boolean => redirect(c.fromArmy) === redirect(c.toArmy);
  const couriers = Object.fromEntries(Object.entries(state.couriers).filter(([, c]) => !between(c)).map(([k, c]) => [k, { ...c, fromArmy: redirect(c.fromArmy), toArmy: redirect(c.toArmy) }]));
  return { ...state, armies, orders, couriers, knowledge: { ...state.knowledge, armies: knowledge } };
}

/**
 * Orders an army's war machines assembled or disassembled: a day's work at least. Begun in the
 * morning before the army has spent anything today, they are ready at the next daybreak;
 * otherwise at the daybreak after. The army does not march meanwhile, and machines at work are
 * not usable in a battle.
 * @see 004 Movement of War Machines ("minimum one day")
 */
export function orderMachines(state: CampaignState, armyId: string, to: 'assembled' | 'disassembled', clock: GameTime = state.clock): Result<DivisionChange & { readonly readyDay: number }> {
  const army = state.armies[armyId];
  if (!army) return fail('army.unknown', `There is no army ${echo(armyId)}.`);
  if (!movementProfile(state.settings).rates.warMachines) return fail('machines.notInProfile', 'These movement rules do not move war machines assembled or disassembled: the ACKS profile (`/campaign settings profile:acks`) does.');
  if (!army.regiments.some((r) => r.companies.some((c) => c.warMachine && c.figures > 0))) return fail('machines.none', `${army.name} has no war machines.`);
  const why = busy(army, 'work on its war machines', state);
  if (why) return fail('machines.busy', why);
  const now = army.warMachines?.state ?? 'disassembled';
  if (now === to) return fail('machines.already', `${army.name}'s war machines are already ${to}.`);
  const fresh = clock.half === 0 && army.march.spentToday === 0 && !army.march.movedToday;
  const readyDay = clock.day + (fresh ? 1 : 2);
  const next: Army = { ...army, warMachines: { state: now, changing: { to, readyDay } } };
  return ok({ state: { ...state, armies: { ...state.armies, [army.id]: next } }, readyDay, events: told(state, [{ type: 'machinesOrdered', audience: toArmy(army.id), data: { armyId: army.id, to, readyDay } }]) });
}
