import { type GameTime, timeIndex } from '../clock/index.js';
import type { Army, MarchState, Operation } from '../forces/index.js';
import { hexEquals } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { BrokenData, type Violation } from '../result.js';
import { periodPoints, todaysPoints } from './dailyPoints.js';
import { inFirstHalf, isFirstHalfOfPeriod, isNightHalf, periodActive } from './timing.js';
import type { WalkStep } from './types.js';
import { walkSteps } from './walkPath.js';
import type { CrossingMethod, MoveOrder, WeatherEffects } from '../state/index.js';

/** One hex entry (or in-place river crossing) an army's order makes in this half period. */
export interface HalfEntry {
  readonly step: WalkStep;
  /** Points spent in the period including this step, over the period's points. */
  readonly moment: number;
  /** Points the army has left today after this step. */
  readonly remainingAfter: number;
}

export type PlanStop =
  | { readonly kind: 'done' }
  | { readonly kind: 'halfEnd' }
  | { readonly kind: 'points' }
  | { readonly kind: 'waitPeriod' }
  | { readonly kind: 'illegal'; readonly violation: Violation }
  | { readonly kind: 'crossingChanged'; readonly method: CrossingMethod };

export interface HalfPlan {
  readonly entries: readonly HalfEntry[];
  readonly stop: PlanStop;
  /** Today's points for this order (with saved points). */
  readonly allowance: number;
  readonly periodPoints: number;
  /** A multi-day crossing that starts now instead of any entry. */
  readonly operation?: Operation;
}

/** Multi-day methods ranked by length, to accept a shorter one than was shown. */
const DAYS_RANK: Readonly<Record<CrossingMethod, number>> = { bridge: 0, ford: 0, swim: 0, ferry: 1, rafts: 2 };

function accepted(order: MoveOrder, step: WalkStep): boolean {
  const method = step.crossing?.method;
  if (!method) return true;
  return (order.crossings ?? []).some((c) => hexEquals(c.hex, step.hex) && DAYS_RANK[c.method] >= DAYS_RANK[method]);
}

/**
 * The entries an order makes in the half period `clock`: the order's remaining path walked from
 * the army's position, each step paid from today's points and the period's points, kept to the
 * steps whose moment falls in this half (RULINGS 2). A multi-day crossing starts only at the
 * opening of a period in which nothing was spent, and only if the commander accepted it.
 * @see RULINGS 2, 3; 000 Strategic Movement
 */
export function planHalf(map: MapModel, army: Army, order: MoveOrder, clock: GameTime, weather: WeatherEffects, profile: MovementProfile): HalfPlan {
  const allowance = todaysPoints(army, profile, order.forced, weather);
  const night = isNightHalf(clock);
  const spentBefore = army.march.spentToday - army.march.spentPeriod;
  const pts = periodPoints(allowance, spentBefore, order.period, night);
  const plan = (entries: readonly HalfEntry[], stop: PlanStop, operation?: Operation): HalfPlan => ({ entries, stop, allowance, periodPoints: pts, ...(operation ? { operation } : {}) });
  if (!periodActive(order.period, clock)) return plan([], { kind: 'waitPeriod' });
  const opts = { period: order.period, night, unformed: order.unformed || army.formation === 'unformed' };
  // Walked only as far as this half period goes: a long order's later hexes wait for later halves.
  const walk = walkSteps({ map, army, from: army.hex, fromBank: army.bank, path: order.path, crossAtEnd: order.crossAtEnd === true, opts, weather, profile });
  const first = isFirstHalfOfPeriod(clock);
  const entries: HalfEntry[] = [];
  let spent = army.march.spentPeriod;
  let left = allowance - army.march.spentToday;
  for (let next = walk.next(); ; next = walk.next()) {
    if (next.done) return next.value ? plan(entries, { kind: 'illegal', violation: next.value.violation }) : plan(entries, { kind: 'done' });
    const step = next.value;
    if ((step.crossing?.halves ?? 0) > 0) {
      const start = startMultiDay(order, step, clock, { entries: entries.length, spentPeriod: army.march.spentPeriod, first, allowance });
      return plan(entries, start.stop, start.operation);
    }
    if (spent + step.points > pts || step.points > left) return plan(entries, { kind: 'points' });
    if (first && !inFirstHalf(spent + step.points, pts)) return plan(entries, { kind: 'halfEnd' });
    spent += step.points;
    left -= step.points;
    entries.push({ step, moment: pts > 0 ? spent / pts : 1, remainingAfter: left });
  }
}

/**
 * A multi-day crossing reached: refused when the commander did not accept it (the crossing
 * changed since the order), put off until a period opens with nothing spent, else begun.
 */
function startMultiDay(order: MoveOrder, step: WalkStep, clock: GameTime, now: { entries: number; spentPeriod: number; first: boolean; allowance: number }): { stop: PlanStop; operation?: Operation } {
  const c = step.crossing;
  if (!c) throw new BrokenData('a multi-day step without its crossing');
  if (!accepted(order, step)) return { stop: { kind: 'crossingChanged', method: c.method } };
  if (now.entries > 0 || now.spentPeriod > 0 || !now.first || now.allowance <= 0) return { stop: { kind: 'waitPeriod' } };
  const operation: Operation = {
    kind: c.method === 'ferry' ? 'ferry' : 'rafts',
    hex: step.hex,
    ...(c.fromBank ? { fromBank: c.fromBank } : {}),
    ...(c.toBank ? { toBank: c.toBank } : {}),
    startedAt: timeIndex(clock),
    totalHalves: c.halves,
    remainingHalves: c.halves,
    phase: c.method === 'ferry' ? 'cross' : 'timber',
  };
  return { stop: { kind: 'waitPeriod' }, operation };
}

/**
 * The march's books after a half under a profile that carries unspent points (004): short of the
 * points for its next hex when the march stopped for points and was not halted; cleared by a half
 * that ends the march (done, refused, its crossing changed, halted); else as they were.
 */
export function withShortOfPoints(march: MarchState, stop: PlanStop, halted: boolean): MarchState {
  const { shortOfPoints: _was, ...books } = march;
  if (stop.kind === 'points' && !halted) return { ...books, shortOfPoints: true };
  if (halted || stop.kind === 'done' || stop.kind === 'illegal' || stop.kind === 'crossingChanged') return books;
  return march;
}
