import type { MarchNote, MovementEvent, MovementFact } from './movementEvents.js';
import { halfPeriodName, timeIndex, type GameTime } from '../clock/index.js';
import { namesOf, PUBLIC, tell, toArmy } from '../events/index.js';
import type { Army, HalfActivity, MarchState } from '../forces/index.js';
import { hexEquals, type Hex } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { movementProfile, type MovementProfile } from '../profiles/index.js';
import { type CampaignState, getArmy, type MoveOrder, type Order, type TickStep } from '../state/index.js';
import { detectContacts, halvesTaken, openContacts } from './contacts.js';
import { HALVES_PER_DAY } from './crossing.js';
import { beginCrossing, operationActivity } from './crossingOperations.js';
import { describeMovement } from './describeMovement.js';
import { withShortOfPoints } from './planHalf.js';
import { resolveHalf, type MoverOutcome } from './resolveHalf.js';
import { fatigueRecovery, logHalf } from './restAndFatigue.js';
import { stragglerCount } from './stragglers.js';
import { isFirstHalfOfPeriod, periodActive } from './timing.js';

/**
 * The movement step of a tick: resolves the current half period's moves simultaneously
 * (resolveHalf), applies them (positions, banks, points, formation, operations begun, orders
 * used up or cancelled, saved points lost), keeps the rest and fatigue books for every army,
 * and opens contacts for forces that came into map contact.
 * @see RULINGS 2, 3, 4; 000 Strategic Movement; 000 Overland Travel
 */
export const movementStep: TickStep<MovementEvent> = ({ state, map, dice, weather }) => {
  const res = resolveHalf(state, map, dice, weather);
  const facts: MovementFact[] = [...res.facts];
  const armies: Record<string, Army> = { ...state.armies };
  const orders: Record<string, Order> = { ...state.orders };
  const moved = new Set<string>();
  const profile = movementProfile(state.settings);
  // 1. Each mover's outcome.
  for (const o of res.outcomes.values()) {
    const applied = applyOutcome(getArmy(state, o.armyId), o, { clock: state.clock, map, profile });
    armies[o.armyId] = applied.army;
    if (applied.order) orders[o.armyId] = applied.order;
    else delete orders[o.armyId];
    facts.push(...applied.facts);
    if (o.made.length > 0) moved.add(o.armyId);
  }
  // Passage of lines: contact during the passage leaves the allies passed through unformed too.
  for (const o of res.outcomes.values()) {
    for (const id of o.passageContact ?? []) armies[id] = { ...getArmy({ armies }, id), formation: 'unformed' };
  }
  // 2. The rest and fatigue books of every army.
  const taken = halvesTaken(state);
  for (const [id, a] of Object.entries(armies).sort(([x], [y]) => (x < y ? -1 : 1))) {
    if (a.status.destroyed) continue;
    const kept = keepBooks(state, a, profile, halfActivity(state, a, { moved: moved.has(id), halfTaken: taken.has(id) }, orders[id] ?? state.orders[id]));
    armies[id] = kept.army;
    facts.push(...kept.facts);
  }
  // 3. Map contact.
  const contacts = openContacts({ ...state, armies, orders }, detectContacts({ ...state, armies, orders }), (h) => map.format(h));
  return { state: contacts.state, events: tell([...facts, ...contacts.facts], describeMovement, namesOf(contacts.state.armies)) };
};

/**
 * What the army did this half period, for the rest rules, from what happened: it entered a hex or
 * spent move points (by its march or by a contact rule: avoid, displacement, exploit, a switch, a
 * maneuver), worked at a crossing, was taken up by a contact (a battle, a delay, an evade: no
 * rest, no march), or rested.
 * @see 000 Overland Travel: Daily Rest; 001 Avoid, Evade, Delay, and Withdraw: No Rest; RULINGS 4
 */
function halfActivity(state: CampaignState, a: Army, half: { readonly moved: boolean; readonly halfTaken: boolean }, order: Order | undefined): HalfActivity {
  const active = a.march.activeHalf?.at === timeIndex(state.clock) ? a.march.activeHalf : undefined;
  if (half.moved || active?.moved) return 'moved';
  if (a.march.operation) return operationActivity(order, state.clock);
  return a.status.inBattle || active !== undefined || half.halfTaken ? 'battle' : 'rested';
}

/**
 * Logs the half period, and fatigues an army that moved or worked when it should have rested
 * (judged by the books as they stood before this half: a forced march today is not yesterday's).
 */
function keepBooks(state: CampaignState, a: Army, profile: MovementProfile, activity: HalfActivity): { army: Army; facts: MovementFact[] } {
  const { army, reason } = logHalf(a, state.armies[a.id] ?? a, activity, state.clock, profile);
  return { army, facts: reason ? [{ type: 'armyFatigued', audience: toArmy(a.id), data: { armyId: a.id, reason, recovery: fatigueRecovery(profile) } }] : [] };
}

/** One army's half period as it is being applied: the march books, the formation, what is said about it. */
interface Applying {
  march: MarchState;
  formation: Army['formation'];
  keep: boolean;
  readonly notes: MarchNote[];
  readonly facts: MovementFact[];
}

/** Where and under what rules a half period is applied. */
interface Applied {
  readonly clock: GameTime;
  readonly map: MapModel;
  readonly profile: MovementProfile;
}

/**
 * Applies one army's half-period outcome; returns the army, its order (undefined = finished or
 * cancelled) and the facts:
 * 1. points spent, forced march (and whether it was ordered before the day's march), unformed
 *    march, leaving the rally point; a march short of the points for its next hex (profiles that
 *    carry unspent points);
 * 2. a multi-day crossing begun;
 * 3. what is left of the order;
 * 4. a halt (contact, a held hex, a lost contest);
 * 5. the public march and the commander's account.
 */
function applyOutcome(a: Army, o: MoverOutcome, at: Applied): { army: Army; order: MoveOrder | undefined; facts: MovementFact[] } {
  const { clock, map } = at;
  const order = o.order;
  // Fatigue that sets in during the day cuts what is left, never what was already spent. A half
  // outside the order's period (a day order in the evening) is no part of its march: its weather
  // does not change the day's allowance, from which points saved or carried are counted.
  const marching = periodActive(order.period, clock);
  const ap: Applying = {
    march: { ...a.march, ...(marching ? { allowanceToday: Math.max(o.plan.allowance, a.march.spentToday) } : {}), ...(order.save ? { saveRequested: true } : {}) },
    formation: a.formation,
    keep: true,
    notes: [],
    facts: [],
  };
  if (o.made.length > 0) spendMarch(ap, a, o, clock, map);
  // Short of the points for its next hex; a later half that ends the march (done, refused, halted) clears it.
  if (at.profile.carryUnspent) ap.march = withShortOfPoints(ap.march, o.plan.stop, o.halt !== undefined);
  if (o.passageContact) disorderedInPassage(ap, a, o, map);
  if (o.plan.operation) beginOperation(ap, a, o.plan.operation, map);
  const entered = o.made.filter((e) => e.step.kind === 'enter').length;
  // An order that entered no hex keeps its path, and itself when kept: the same record, which the
  // save and the journal pass over without comparing (a night tick keeps all 800 orders of a big campaign).
  const remaining = entered === 0 ? order.path : order.path.slice(entered);
  settleOrder(ap, o, remaining);
  if (o.halt) halt(ap, a, o, o.halt, clock, map);
  report(ap, a, o, clock, map);
  const { bank: _bank, ...ashore } = a;
  const army: Army = { ...ashore, hex: o.hex, ...(o.bank ? { bank: o.bank } : {}), formation: ap.formation, march: ap.march };
  return { army, order: !ap.keep ? undefined : remaining === order.path ? order : { ...order, path: remaining }, facts: ap.facts };
}

/** 1. Points spent, a forced march, an unformed march; leaving the rally point loses the stragglers still behind. */
function spendMarch(ap: Applying, a: Army, o: MoverOutcome, clock: GameTime, map: MapModel): void {
  ap.march = { ...ap.march, spentToday: ap.march.spentToday + o.spent, spentPeriod: ap.march.spentPeriod + o.spent };
  if (o.order.forced) ap.march = forcedToday(ap.march, o.order, clock);
  if (o.order.unformed || a.formation === 'unformed') {
    ap.formation = 'unformed';
    ap.march = { ...ap.march, unformedToday: true };
  }
  if (ap.march.rallyPoint && hexEquals(ap.march.rallyPoint, a.hex) && !hexEquals(o.hex, a.hex)) {
    const lost = stragglerCount(a);
    if (lost > 0) ap.notes.push({ kind: 'stragglersLeft', figures: lost, at: map.format(a.hex) });
    const { rallyPoint: _r, ...rest } = ap.march;
    ap.march = { ...rest, stragglers: [] };
  }
}

/**
 * A forced march today, and whether it was ordered before the day's march began (the order given
 * by the morning half of the day at the latest), which some profiles reward at a battle that day.
 * @see 000 Overland Travel: Forced March; 004 Forced Marching
 */
function forcedToday(m: MarchState, order: MoveOrder, clock: GameTime): MarchState {
  const early = m.forcedMarchDay === clock.day ? m.forcedMarchEarly === true : timeIndex(order.givenAt) <= timeIndex({ day: clock.day, half: 0 });
  const { forcedMarchEarly: _e, ...rest } = m;
  return { ...rest, forcedMarchDay: clock.day, ...(early ? { forcedMarchEarly: true } : {}) };
}

/**
 * 1b. Passage of lines: an enemy came into contact while the army passed through an ally's hex:
 * both forces are unformed (the ally is marked by the caller).
 * @see 000 Advanced: Passage of Lines
 */
function disorderedInPassage(ap: Applying, a: Army, o: MoverOutcome, map: MapModel): void {
  ap.formation = 'unformed';
  ap.facts.push({ type: 'passageDisordered', audience: PUBLIC, data: { armyId: a.id, allyIds: o.passageContact ?? [], hex: map.format(o.hex) } });
}

/** 2. A multi-day crossing begun: the army is committed to it (a ferry leaves it unformed). */
function beginOperation(ap: Applying, a: Army, op: NonNullable<MoverOutcome['plan']['operation']>, map: MapModel): void {
  const committed = beginCrossing({ ...a, formation: ap.formation, march: ap.march }, op);
  ap.march = committed.march;
  ap.formation = committed.formation;
  const hex = map.format(op.hex);
  ap.facts.push({ type: 'crossingStarted', audience: PUBLIC, data: { armyId: a.id, hex, kind: op.kind } });
  ap.notes.push({ kind: 'crossingBegun', method: op.kind, at: hex, days: op.totalHalves / HALVES_PER_DAY });
}

/** 3. What is left of the order: done, cancelled as illegal now, or waiting for a crossing the commander did not accept. */
function settleOrder(ap: Applying, o: MoverOutcome, remaining: readonly Hex[]): void {
  const { order, plan, made } = o;
  const stop = plan.stop;
  const allMade = made.length === plan.entries.length;
  const crossedAtEnd = order.crossAtEnd === true && remaining.length === 0 && made[made.length - 1]?.step.kind === 'cross' && stop.kind === 'done' && allMade;
  const finished = remaining.length === 0 && (!order.crossAtEnd || crossedAtEnd);
  if (finished && !plan.operation) ap.keep = false;
  if (stop.kind === 'illegal' && allMade && !o.halt) {
    ap.keep = false;
    ap.notes.push({ kind: 'orderCancelled', violation: stop.violation });
  }
  if (stop.kind === 'crossingChanged' && allMade && !o.halt) ap.notes.push({ kind: 'crossingChanged', method: stop.method });
}

/**
 * 4. A halt voids today's saving. Map contact also loses the points saved and, in the second half
 * of a period, ends the march; a hex held by a commander who stays put cancels the order.
 */
function halt(ap: Applying, a: Army, o: MoverOutcome, h: NonNullable<MoverOutcome['halt']>, clock: GameTime, map: MapModel): void {
  ap.march = { ...ap.march, saveLost: true };
  const at = map.format(o.hex);
  switch (h.kind) {
    case 'contact': {
      ap.march = { ...ap.march, savedPoints: 0 };
      const first = isFirstHalfOfPeriod(clock);
      if (!first) ap.keep = false;
      ap.notes.push({ kind: 'haltedByContact', mayGoOn: first });
      return;
    }
    case 'occupied': {
      if (!h.byMover) ap.keep = false;
      const blockedAt = map.format(h.hex);
      ap.facts.push({ type: 'armyBlocked', audience: PUBLIC, data: { armyId: a.id, hex: at, blockedAt, reason: 'occupied', by: h.by } });
      ap.notes.push({ kind: 'haltedOccupied', at, blockedAt, cancelled: !ap.keep });
      return;
    }
    case 'contested': {
      const contested = map.format(h.hex);
      ap.facts.push({ type: 'armyBlocked', audience: PUBLIC, data: { armyId: a.id, hex: at, blockedAt: contested, reason: 'contested' } });
      ap.notes.push({ kind: 'lostContest', at, contested });
      return;
    }
    case 'passage':
      // The order stands: it passes when a half period lets it go in and out of the ally's hex.
      ap.notes.push({ kind: 'waitingToPass', at, through: map.format(h.hex) });
      return;
  }
}

/** 5. The march in public (hexes and rivers), and the commander's account with the points left today. */
function report(ap: Applying, a: Army, o: MoverOutcome, clock: GameTime, map: MapModel): void {
  const entered = o.made.filter((e) => e.step.kind === 'enter');
  const crossings = o.made.flatMap((e) => (e.step.crossing ? [{ method: e.step.crossing.method, hex: map.format(e.step.crossing.hex) }] : []));
  const to = map.format(o.hex);
  if (entered.length > 0 || crossings.length > 0) {
    ap.facts.push({ type: 'armyMoved', audience: PUBLIC, data: { armyId: a.id, from: map.format(a.hex), to, path: entered.map((e) => map.format(e.step.hex)), crossings } });
  }
  const pointsLeft = Math.max(0, o.plan.allowance - ap.march.spentToday);
  ap.march = { ...ap.march, pointsLeft };
  if (o.made.length === 0 && ap.notes.length === 0) return;
  const moved = entered.length > 0 ? 'marched' : o.made.length > 0 ? 'crossed' : 'stayed';
  ap.facts.push({ type: 'movementOutcome', audience: toArmy(a.id), data: { armyId: a.id, half: halfPeriodName(clock), from: map.format(a.hex), hex: to, moved, pointsLeft, allowance: o.plan.allowance, notes: ap.notes } });
}
