import { formatGameTime, nextHalf, type GameTime } from '../clock/index.js';
import type { MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result, BrokenData, type Violation } from '../result.js';
import { hexEquals } from '../hex/index.js';
import type { Army, MarchState } from '../forces/index.js';
import { closeDayBooks, reformed } from './beginHalfStep.js';
import { HALVES_PER_DAY } from './crossing.js';
import { dailyPoints } from './dailyPoints.js';
import { type HalfPlan, planHalf, withShortOfPoints } from './planHalf.js';
import { moverAsPlanned } from './resolveHalf.js';
import { appendHalf, fatigueOnMoving } from './restAndFatigue.js';
import { halfName } from './timing.js';
import type { MoveRequest, MoveWarning, PlannedStep, WalkStep } from './types.js';
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
}

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
  /** The army entered a hex (or began a crossing) today. */
  movedDay: boolean;
}

/**
 * Lays the walk out half period by half period as the tick will play `order` (the order to be
 * stored), with the tick's own functions: each half is planned by planHalf (today's points and
 * the period's, the first or second half, a multi-day crossing at the opening of a period with
 * nothing spent), on the
 * army as the tick plans it (fatigued from its first step when moving fatigues it: a forced
 * march yesterday, too many marching days, too long without rest); the army's books are kept as
 * the tick keeps them (points spent, forced march, the half logged, unformed) and closed at
 * daybreak by the tick's closeDayBooks (fatigue recovered, the share of points yesterday's rest
 * restores, points saved with save:true or carried by a profile that carries unspent points).
 * No other army and the weather held: dice (stragglers of an unformed march, the work of a
 * multi-day crossing) are not foreseen; a multi-day crossing is laid out as whole days.
 */
export function scheduleMove(clock: GameTime, army: Army, req: MoveRequest, order: MoveOrder, steps: readonly WalkStep[], weather: WeatherEffects, map: MapModel, profile: MovementProfile): Result<Scheduled> {
  const layout: Layout = { map, clock, req, steps, weather, profile };
  const m: March = { army, order, out: [], lastDay: 0, movedDay: false };
  let t = clock;
  for (let k = 0; t.day - clock.day < MAX_PLAN_DAYS; k++) {
    if (k > 0 && t.half === 0) {
      const ended = m.army;
      m.army = closeDayBooks(ended, reformed(ended), profile, true).army;
      if (stuck(m, ended, layout, t.day - 1 - clock.day)) return tooCostly(m, layout);
      m.movedDay = false;
    }
    if (k > 0 && (t.half === 0 || t.half === 2)) m.army = { ...m.army, march: { ...m.army.march, spentPeriod: 0 } };
    const r = playHalf(m, layout, t);
    if (typeof r === 'object') return ok({ steps: m.out, days: m.lastDay + 1, cut: stopsAt(r, m, army, t) });
    if (r === 'done') return ok({ steps: m.out, days: m.lastDay + 1 });
    t = typeof r === 'number' ? { day: t.day + r, half: 0 } : nextHalf(t);
  }
  // Taken as the tick takes it (it marches until the route is done), the first days shown: an
  // order the preview once laid out in fewer days (before it counted the fatigue of marching day
  // after day) is never refused now, and a journal that recorded one replays the same.
  const at = m.out[m.out.length - 1]?.hex ?? layout.map.format(army.hex);
  const left = m.order.path.length;
  return ok({ steps: m.out, days: MAX_PLAN_DAYS, cut: { code: 'move.pastPreview', message: `The march takes more than the ${MAX_PLAN_DAYS} days the preview lays out; it shows them (to ${at}), and the order stands for the rest of the route (${left} more hex${left === 1 ? '' : 'es'}).` } });
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
 * One half period of the march, as movementStep plays it for an army alone: the entries planHalf
 * gives, then the books (applyOutcome, keepBooks). Returns 'done' when the walk is over, the
 * days a multi-day crossing takes when one begins, the refusal when the march becomes illegal
 * (an unformed army reformed at daybreak on a path only an unformed march takes), else 'on'.
 */
function playHalf(m: March, layout: Layout, t: GameTime): 'done' | 'on' | number | Violation {
  const { map, profile, weather } = layout;
  const plan = planHalf(map, moverAsPlanned(m.army, t, profile), m.order, t, weather, profile);
  const dayOffset = t.day - layout.clock.day;
  for (const e of plan.entries) m.out.push(row(map, e.step, dayOffset, halfName(t.half >= 2, t.half % 2 === 0), e.remainingAfter));
  if (plan.entries.length > 0) {
    m.lastDay = dayOffset;
    m.movedDay = true;
  }
  m.army = booksAfter(m.army, plan, t, layout);
  const entered = plan.entries.filter((e) => e.step.kind === 'enter').length;
  if (entered > 0) m.order = { ...m.order, path: m.order.path.slice(entered) };
  if (plan.stop.kind === 'done') return 'done';
  if (plan.stop.kind === 'illegal') return plan.stop.violation;
  const next = plan.operation ? layout.steps.find((s) => hexEquals(s.hex, plan.operation?.hex ?? s.hex) && (s.crossing?.halves ?? 0) > 0) : undefined;
  return next ? crossFor(m, layout, next, t) : 'on';
}

/**
 * The army after its half as movementStep keeps it: where it stands, points spent, a forced or
 * unformed march, short of the points for its next hex (profiles that carry unspent points), the
 * half logged and fatigue when moving fatigues it (applyOutcome, keepBooks).
 */
function booksAfter(before: Army, plan: HalfPlan, t: GameTime, layout: Layout): Army {
  const { req, profile } = layout;
  const spent = plan.entries.reduce((n, e) => n + e.step.points, 0);
  const moved = plan.entries.length > 0;
  let march: MarchState = { ...before.march, allowanceToday: Math.max(plan.allowance, before.march.spentToday), ...(req.save ? { saveRequested: true } : {}) };
  const unformed = moved && (req.unformed || before.formation === 'unformed');
  if (moved) march = { ...march, spentToday: march.spentToday + spent, spentPeriod: march.spentPeriod + spent, ...(req.forced ? { forcedMarchDay: t.day } : {}), ...(unformed ? { unformedToday: true } : {}) };
  if (profile.carryUnspent) march = withShortOfPoints(march, plan.stop, false);
  const busy = moved || plan.operation !== undefined;
  const reason = busy && !before.status.fatigued ? fatigueOnMoving(before, t, profile) : undefined;
  march = { ...march, recentHalves: appendHalf(march.recentHalves, moved ? 'moved' : busy ? 'worked' : 'rested'), movedToday: march.movedToday || busy };
  const last = plan.entries[plan.entries.length - 1]?.step;
  const { bank: _bank, ...placed } = before;
  const at: Army = last ? { ...placed, hex: last.hex, ...(last.bank ? { bank: last.bank } : {}) } : before;
  return { ...at, formation: unformed ? 'unformed' : before.formation, status: reason ? { ...before.status, fatigued: true } : before.status, march };
}

/** A multi-day crossing begun: laid out as whole days, the army over it at the next day's opening ('done' when it ends the order). */
function crossFor(m: March, layout: Layout, s: WalkStep, t: GameTime): number | 'done' {
  const dayOffset = t.day - layout.clock.day;
  const a = m.army;
  m.out.push(row(layout.map, s, dayOffset, halfName(t.half >= 2, true), a.march.allowanceToday - a.march.spentToday));
  const days = Math.ceil((s.crossing?.halves ?? 0) / HALVES_PER_DAY);
  m.lastDay = dayOffset + days - 1;
  m.movedDay = true;
  const { bank: _bank, ...placed } = a;
  m.army = { ...placed, hex: s.hex, ...(s.bank ? { bank: s.bank } : {}), march: { ...a.march, movedToday: true } };
  if (s.kind === 'enter') m.order = { ...m.order, path: m.order.path.slice(1) };
  // As progressOperation: the order is finished with the crossing when no hex is left to enter.
  return m.order.path.length === 0 ? 'done' : days;
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
