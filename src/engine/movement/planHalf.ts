import type { GameTime } from '../clock/gameTime.js';
import { timeIndex } from '../clock/gameTime.js';
import type { Army, Operation } from '../forces/army.js';
import { hexEquals } from '../hex/hex.js';
import type { MapModel } from '../map/mapModel.js';
import type { Violation } from '../result.js';
import type { WeatherEffects } from '../weather/types.js';
import { periodPoints, todaysPoints } from './dailyPoints.js';
import { inFirstHalf, isFirstHalfOfPeriod, isNightHalf, periodActive } from './timing.js';
import type { CrossingMethod, MoveOrder, WalkStep } from './types.js';
import { walkPath } from './walkPath.js';

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
export function planHalf(map: MapModel, army: Army, order: MoveOrder, clock: GameTime, weather: WeatherEffects, flyingIgnoresTerrain: boolean): HalfPlan {
  const allowance = todaysPoints(army, order.forced, weather);
  const night = isNightHalf(clock);
  const spentBefore = army.march.spentToday - army.march.spentPeriod;
  const pts = periodPoints(allowance, spentBefore, order.period, night);
  const none = (stop: PlanStop): HalfPlan => ({ entries: [], stop, allowance, periodPoints: pts });
  if (!periodActive(order.period, clock)) return none({ kind: 'waitPeriod' });
  const opts = { period: order.period, night, unformed: order.unformed || army.formation === 'unformed' };
  const walk = walkPath({ map, army, from: army.hex, fromBank: army.bank, path: order.path, crossAtEnd: order.crossAtEnd === true, opts, weather, flyingIgnoresTerrain });
  const first = isFirstHalfOfPeriod(clock);
  const entries: HalfEntry[] = [];
  let spent = army.march.spentPeriod;
  let left = allowance - army.march.spentToday;
  for (const step of walk.steps) {
    const halves = step.crossing?.halves ?? 0;
    if (halves > 0) {
      if (!accepted(order, step)) return { entries, stop: { kind: 'crossingChanged', method: step.crossing?.method ?? 'rafts' }, allowance, periodPoints: pts };
      if (entries.length > 0 || army.march.spentPeriod > 0 || !first || allowance <= 0) return { entries, stop: { kind: 'waitPeriod' }, allowance, periodPoints: pts };
      const c = step.crossing;
      const operation: Operation = {
        kind: c?.method === 'ferry' ? 'ferry' : 'rafts',
        hex: step.hex,
        ...(c?.fromBank ? { fromBank: c.fromBank } : {}),
        ...(c?.toBank ? { toBank: c.toBank } : {}),
        startedAt: timeIndex(clock),
        totalHalves: halves,
        remainingHalves: halves,
        phase: c?.method === 'ferry' ? 'cross' : 'timber',
      };
      return { entries, stop: { kind: 'waitPeriod' }, allowance, periodPoints: pts, operation };
    }
    if (spent + step.points > pts || step.points > left) return { entries, stop: { kind: 'points' }, allowance, periodPoints: pts };
    if (first && !inFirstHalf(spent + step.points, pts)) return { entries, stop: { kind: 'halfEnd' }, allowance, periodPoints: pts };
    spent += step.points;
    left -= step.points;
    entries.push({ step, moment: pts > 0 ? spent / pts : 1, remainingAfter: left });
  }
  if (walk.stop) return { entries, stop: { kind: 'illegal', violation: walk.stop.violation }, allowance, periodPoints: pts };
  return { entries, stop: { kind: 'done' }, allowance, periodPoints: pts };
}
