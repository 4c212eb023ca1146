import { formatGameTime, nextHalf, type GameTime } from '../clock/index.js';
import type { MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result, BrokenData, type Violation } from '../result.js';
import { hexEquals } from '../hex/index.js';
import type { Dice } from '../dice/index.js';
import type { Army, HalfActivity, MarchState } from '../forces/index.js';
import { daybreakBooks, reformed } from './beginHalfStep.js';
import { HALVES_PER_DAY } from './crossing.js';
import { beginCrossing, operationActivity, progressOperation, TIMBER_SHORT_MAX } from './crossingOperations.js';
import { dailyPoints } from './dailyPoints.js';
import { type HalfPlan, planHalf, withShortOfPoints } from './planHalf.js';
import { moverAsPlanned } from './resolveHalf.js';
import { logHalf } from './restAndFatigue.js';
import { halfName, periodActive } from './timing.js';
import type { MoveRequest, MoveWarning, PlannedFatigue, PlannedStep, WalkStep } from './types.js';
import type { MoveOrder, WeatherEffects } from '../state/index.js';

/** Longest preview the bot computes, in days. */
const MAX_PLAN_DAYS = 60;

export interface Scheduled {
  readonly steps: PlannedStep[];
  readonly days: number;
  /**
   * Why the steps end before the route does: where the tick will stop the march, or the preview's
   * last day (the order stands for the whole route).
   */
  readonly cut?: MoveWarning;
  /** The half from which the army marches fatigued, and why, when moving fatigues it within the days shown. */
  readonly fatigue?: PlannedFatigue;
}

/**
 * The one die of a multi-day crossing, the timber for rafts outside forest and swamp: the preview
 * lays the crossing out as if timber is found (a die of 1-4 cancels the order at the end of its
 * first day, which the preview's warning says). No other die is rolled by a crossing.
 */
const TIMBER_FOUND: Dice = { d6: () => TIMBER_SHORT_MAX + 1, roll: (sides) => sides };

/** What the whole schedule is laid out from. */
interface Layout {
  readonly map: MapModel;
  readonly clock: GameTime;
  readonly req: MoveRequest;
  readonly steps: readonly WalkStep[];
  readonly weather: WeatherEffects;
  readonly profile: MovementProfile;
}

/** The march as the schedule plays it: the army's books, what is left of the order, what is placed. */
interface March {
  army: Army;
  order: MoveOrder;
  readonly out: PlannedStep[];
  lastDay: number;
  /** The army entered a hex or worked at a crossing today, or could not march (its war machines at work). */
  movedDay: boolean;
  /** When moving first fatigued the army. */
  fatigue?: PlannedFatigue;
}

/**
 * Lays the walk out half period by half period as the tick will play `order` (the order to be
 * stored), with the tick's own functions: each half is planned by planHalf (today's points and
 * the period's, the first or second half, a multi-day crossing at the opening of a period with
 * nothing spent), on the army as the tick plans it (fatigued from its first step when moving fatigues it: a forced
 * march yesterday, too many marching days, too long without rest); the army's books are kept as
 * the tick keeps them (points spent, forced march, the half logged, unformed, fatigue) and closed
 * at daybreak by the tick's daybreakBooks (fatigue recovered, the share of points yesterday's
 * rest restores, points saved with save:true or carried by a profile that carries unspent
 * points, war machines ready). A multi-day crossing goes on half by half as the tick's
 * progressOperation has it (the halves worked or rested, each daybreak's books closed), and an
 * army at work on its war machines waits as the tick has it wait. No other army and the weather
 * held: dice are not foreseen (stragglers of an unformed march; rafts outside forest and swamp
 * are laid out as if the timber die finds timber). The first half in which moving fatigues the
 * army, and why, is returned for the preview to say.
 */
export function scheduleMove(clock: GameTime, army: Army, req: MoveRequest, order: MoveOrder, steps: readonly WalkStep[], weather: WeatherEffects, map: MapModel, profile: MovementProfile): Result<Scheduled> {
  const layout: Layout = { map, clock, req, steps, weather, profile };
  const m: March = { army, order, out: [], lastDay: 0, movedDay: false };
  const done = (cut?: MoveWarning): Result<Scheduled> => ok({ steps: m.out, days: m.lastDay + 1, ...(cut ? { cut } : {}), ...(m.fatigue ? { fatigue: m.fatigue } : {}) });
  let t = clock;
  for (let k = 0; t.day - clock.day < MAX_PLAN_DAYS; k++) {
    if (k > 0 && t.half === 0) {
      const ended = m.army;
      m.army = daybreakBooks(ended, reformed(ended), { profile, weather, day: t.day, marching: true }).army;
      if (stuck(m, ended, layout, t.day - 1 - clock.day)) return tooCostly(m, layout);
      m.movedDay = false;
    }
    if (k > 0 && (t.half === 0 || t.half === 2)) m.army = { ...m.army, march: { ...m.army.march, spentPeriod: 0 } };
    // A multi-day crossing goes on by a half period (beginHalfStep), and may end the order.
    if (m.army.march.operation && !progress(m, layout.map)) return done();
    const r = playHalf(m, layout, t);
    if (typeof r === 'object') return done(stopsAt(r, m, army, t));
    if (r === 'done') return done();
    t = nextHalf(t);
  }
  // Taken as the tick takes it (it marches until the route is done), the first days shown: an
  // order the preview once laid out in fewer days (before it counted the fatigue of marching day
  // after day) is never refused now, and a journal that recorded one replays the same.
  const at = m.out[m.out.length - 1]?.hex ?? layout.map.format(army.hex);
  const left = m.order.path.length;
  return ok({ steps: m.out, days: MAX_PLAN_DAYS, ...(m.fatigue ? { fatigue: m.fatigue } : {}), cut: { code: 'move.pastPreview', message: `The march takes more than the ${MAX_PLAN_DAYS} days the preview lays out; it shows them (to ${at}), and the order stands for the rest of the route (${left} more hex${left === 1 ? '' : 'es'}).` } });
}

/** The crossing under way goes on by a half period as the tick's progressOperation has it; false when it ends the order (no hex left to enter). */
function progress(m: March, map: MapModel): boolean {
  const p = progressOperation(m.army, m.order, map, TIMBER_FOUND);
  m.army = p.army;
  return p.order !== undefined;
}

/**
 * A whole day of the order passed without a step, nothing carried into the next, though the army
 * had its full rested points: a fresh day does not cover the next step, the order cannot be carried out.
 */
function stuck(m: March, ended: Army, layout: Layout, dayOffset: number): boolean {
  if (m.movedDay || dayOffset < 1 || m.army.march.savedPoints > 0) return false;
  const rested: Army = { ...ended, status: { ...ended.status, fatigued: false } };
  return ended.march.allowanceToday >= dailyPoints(rested, layout.profile, layout.req.forced, layout.weather, 1);
}

/**
 * One half period of the march, as movementStep plays it for an army alone: an army at work on a
 * crossing or on its war machines is no mover (the half logged, worked or rested); otherwise the
 * entries planHalf gives, then the books (applyOutcome, keepBooks), and a multi-day crossing
 * begun. Returns 'done' when the walk is over, the refusal when the march becomes illegal (an
 * unformed army reformed at daybreak on a path only an unformed march takes), else 'on'.
 */
function playHalf(m: March, layout: Layout, t: GameTime): 'done' | 'on' | Violation {
  const { map, profile, weather } = layout;
  const dayOffset = t.day - layout.clock.day;
  if (m.army.march.operation || m.army.warMachines?.changing) {
    const working = m.army.march.operation !== undefined;
    logged(m, m.army, m.army, working ? operationActivity(m.order, t) : 'rested', t, layout);
    if (working) m.lastDay = dayOffset;
    m.movedDay = true;
    return 'on';
  }
  const plan = planHalf(map, moverAsPlanned(m.army, t, profile), m.order, t, weather, profile);
  for (const e of plan.entries) m.out.push(row(map, e.step, dayOffset, halfName(t.half >= 2, t.half % 2 === 0), e.remainingAfter));
  if (plan.entries.length > 0 || plan.operation) {
    m.lastDay = dayOffset;
    m.movedDay = true;
  }
  booksAfter(m, plan, t, layout);
  const entered = plan.entries.filter((e) => e.step.kind === 'enter').length;
  if (entered > 0) m.order = { ...m.order, path: m.order.path.slice(entered) };
  if (plan.operation) crossingBegun(m, layout, plan.operation.hex, t);
  if (plan.stop.kind === 'done') return 'done';
  if (plan.stop.kind === 'illegal') return plan.stop.violation;
  return 'on';
}

/**
 * The army after its half as movementStep keeps it: where it stands, points spent, a forced or
 * unformed march, short of the points for its next hex (profiles that carry unspent points), a
 * multi-day crossing begun, the half logged and fatigue when moving fatigues it (applyOutcome,
 * keepBooks).
 */
function booksAfter(m: March, plan: HalfPlan, t: GameTime, layout: Layout): void {
  const { req, profile } = layout;
  const before = m.army;
  const spent = plan.entries.reduce((n, e) => n + e.step.points, 0);
  const moved = plan.entries.length > 0;
  // As applyOutcome: a half outside the order's period leaves the day's allowance as it was.
  const marching = periodActive(m.order.period, t);
  let march: MarchState = { ...before.march, ...(marching ? { allowanceToday: Math.max(plan.allowance, before.march.spentToday) } : {}), ...(req.save ? { saveRequested: true } : {}) };
  const unformed = moved && (req.unformed || before.formation === 'unformed');
  if (moved) march = { ...march, spentToday: march.spentToday + spent, spentPeriod: march.spentPeriod + spent, ...(req.forced ? { forcedMarchDay: t.day } : {}), ...(unformed ? { unformedToday: true } : {}) };
  if (profile.carryUnspent) march = withShortOfPoints(march, plan.stop, false);
  const last = plan.entries[plan.entries.length - 1]?.step;
  const { bank: _bank, ...placed } = before;
  const at: Army = last ? { ...placed, hex: last.hex, ...(last.bank ? { bank: last.bank } : {}) } : before;
  const after: Army = { ...at, formation: unformed ? 'unformed' : before.formation, march };
  const applied = plan.operation ? beginCrossing(after, plan.operation) : after;
  logged(m, applied, before, moved ? 'moved' : plan.operation ? 'worked' : 'rested', t, layout);
}

/** The half logged as keepBooks logs it; the first fatigue it brings is what the preview tells. */
function logged(m: March, a: Army, judged: Army, activity: HalfActivity, t: GameTime, layout: Layout): void {
  const kept = logHalf(a, judged, activity, t, layout.profile);
  m.army = kept.army;
  if (kept.reason && !m.fatigue) m.fatigue = { dayOffset: t.day - layout.clock.day, half: halfName(t.half >= 2, t.half % 2 === 0), reason: kept.reason };
}

/** A multi-day crossing begun: its row, with the points the army had left when it began. */
function crossingBegun(m: March, layout: Layout, hex: WalkStep['hex'], t: GameTime): void {
  const s = layout.steps.find((x) => hexEquals(x.hex, hex) && (x.crossing?.halves ?? 0) > 0);
  if (!s) throw new BrokenData(`no multi-day crossing at ${layout.map.format(hex)} in the walk`);
  const a = m.army.march;
  m.out.push(row(layout.map, s, t.day - layout.clock.day, halfName(t.half >= 2, true), a.allowanceToday - a.spentToday));
}

function stepAt(steps: readonly WalkStep[], i: number): WalkStep {
  const s = steps[i];
  if (!s) throw new BrokenData(`no step ${i} in a walk of ${steps.length}`);
  return s;
}

/**
 * The walk planMove checked is refused on the way when the tick plays it: an unformed army reformed
 * at daybreak (a day without movement) meets a hex only an unformed march enters. The order is
 * taken, as the tick takes it (it marches as far as it may, then the order ends), with the warning.
 */
function stopsAt(v: Violation, m: March, army: Army, t: GameTime): MoveWarning {
  const reformed = army.formation === 'unformed' && m.army.formation === 'formed';
  const why = reformed ? `${army.name} reforms at daybreak after a day without movement, and on ${formatGameTime(t)} the march stops and the order ends: ${v.message}` : `On ${formatGameTime(t)} the march stops and the order ends: ${v.message}`;
  return { code: 'move.stopsOnTheWay', message: reformed ? `${why} To march on unformed, give the order with unformed:true.` : why };
}

/** A fresh day's points do not cover the next step: the order cannot be carried out. */
function tooCostly(m: March, layout: Layout): Result<never> {
  const { map, clock, weather, req } = layout;
  const army = m.army;
  const period = req.period;
  const s = stepAt(layout.steps, m.out.length);
  const why = weather.overlandFactor === 0
    ? 'there is no overland movement in this weather'
    : `it costs ${s.points} points, more than the army has in one ${period === 'split' ? 'half move' : 'period'}${s.enter && period === 'night' && army.sight === 'light' ? ' at night (double cost)' : ''}`;
  const at = m.out[m.out.length - 1]?.hex ?? map.format(army.hex);
  return fail('move.tooCostly', `${army.name} cannot enter ${map.format(s.hex)} on this order: ${why}. The furthest it gets is ${at}.${period === 'night' ? ' Move by day instead.' : ' Follow a road where there is one.'}`, { hex: map.format(s.hex), at: formatGameTime(clock) });
}

function row(map: MapModel, s: WalkStep, dayOffset: number, half: PlannedStep['half'], pointsLeft: number): PlannedStep {
  const c = s.crossing;
  return {
    hex: map.format(s.hex),
    ...(s.enter ? { terrain: s.enter.terrain } : {}),
    link: s.enter?.link ?? 'none',
    enterCost: s.enter?.cost ?? 0,
    ...(c
      ? {
          crossing: {
            where: map.format(c.hex),
            method: c.method,
            ...(c.site ? { site: c.site } : {}),
            size: c.size,
            ...(c.halves > 0 ? { days: c.halves / HALVES_PER_DAY } : { points: c.points }),
          },
        }
      : {}),
    dayOffset,
    half,
    pointsLeft: Math.max(0, pointsLeft),
  };
}
