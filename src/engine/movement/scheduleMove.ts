import { formatGameTime, type GameTime } from '../clock/index.js';
import type { Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result, BrokenData } from '../result.js';
import { HALVES_PER_DAY } from './crossing.js';
import { dailyPoints, periodPoints, todaysPoints } from './dailyPoints.js';
import { halfName, inFirstHalf } from './timing.js';
import type { MoveRequest, PlannedStep, WalkStep } from './types.js';
import type { MovePeriod, WeatherEffects } from '../state/index.js';

/** Longest preview the bot computes, in days. */
const MAX_PLAN_DAYS = 60;

export interface Scheduled {
  readonly steps: PlannedStep[];
  readonly days: number;
}

/** What the whole schedule is laid out from. */
interface Layout {
  readonly map: MapModel;
  readonly army: Army;
  readonly clock: GameTime;
  readonly period: MovePeriod;
  readonly steps: readonly WalkStep[];
}

/** Where the schedule stands: the next step to place, the day's points, what is placed. */
interface Cursor {
  idx: number;
  lastDay: number;
  today: number;
  spentToday: number;
  readonly out: PlannedStep[];
}

/**
 * Lays the walk out over the order's periods: today's remaining points first, then a fresh day's
 * points each following day (plus what was saved, with save:true, or carried, under a profile
 * that carries unspent points: a slow army then covers a dear hex over several days; fatigued
 * after a day of forced march); a multi-day crossing starts at the opening of a period in which
 * nothing was spent yet. The weather is assumed to hold.
 */
export function scheduleMove(clock: GameTime, army: Army, req: MoveRequest, steps: readonly WalkStep[], weather: WeatherEffects, map: MapModel, profile: MovementProfile): Result<Scheduled> {
  const layout: Layout = { map, army, clock, period: req.period, steps };
  // A forced march fatigues the army when it moves the next day (it does not rest): every later
  // day of a forced-march order is previewed with a fatigued army's points, as it will be played.
  const marching = req.forced ? { ...army, status: { ...army.status, fatigued: true } } : army;
  const fresh = dailyPoints(marching, profile, req.forced, weather, 1);
  const c: Cursor = { idx: 0, lastDay: 0, today: todaysPoints(army, profile, req.forced, weather), spentToday: army.march.spentToday, out: [] };
  let dayOffset = 0;
  while (c.idx < steps.length && dayOffset < MAX_PLAN_DAYS) {
    const day = scheduleDay(c, layout, dayOffset);
    // As the tick carries them (beginHalfStep): only points a march left because its next hex cost
    // more (today, perhaps under the order before this one: the army's own flag), not a day it did
    // not march (a day order given in the evening starts tomorrow).
    const carried = profile.carryUnspent && fresh > 0 && day.shortOfPoints;
    if (!day.progressed && dayOffset > 0 && !carried) return tooCostly(c, layout, weather);
    const leftover = Math.max(0, c.today - c.spentToday);
    c.today = fresh + ((req.save && day.progressed) || carried ? leftover : 0);
    c.spentToday = 0;
    dayOffset += day.jump;
  }
  if (c.idx < steps.length) return fail('move.tooLong', `The route is longer than ${MAX_PLAN_DAYS} days: give a nearer destination.`);
  return ok({ steps: c.out, days: c.lastDay + 1 });
}

/**
 * One day of the schedule, period by period; a multi-day crossing jumps over its days.
 * `shortOfPoints` follows the army's flag as the tick keeps it (movementStep's applyOutcome): today
 * it starts as the army's (set by an earlier half's march, under this order or the one before),
 * later days unset (daybreak clears it); a period whose march stopped for points sets it, one that
 * finished the walk clears it, one that did not march leaves it.
 */
function scheduleDay(c: Cursor, layout: Layout, dayOffset: number): { progressed: boolean; jump: number; shortOfPoints: boolean } {
  const periods: readonly ('day' | 'night')[] = layout.period === 'split' ? ['day', 'night'] : [layout.period];
  let progressed = false;
  let jump = 1;
  let shortOfPoints = dayOffset === 0 && layout.army.march.shortOfPoints === true;
  for (const p of periods) {
    if (c.idx >= layout.steps.length || jump > 1) break;
    if (dayOffset === 0 && p === 'day' && layout.clock.half >= 2) continue;
    const r = schedulePeriod(c, layout, dayOffset, p);
    progressed = progressed || r.progressed;
    jump = r.jump;
    shortOfPoints = r.shortOfPoints ?? shortOfPoints;
  }
  return { progressed, jump, shortOfPoints };
}

/** The steps that fit in one period of one day; `shortOfPoints` undefined: the flag is left as it was. */
function schedulePeriod(c: Cursor, layout: Layout, dayOffset: number, p: 'day' | 'night'): { progressed: boolean; jump: number; shortOfPoints?: boolean } {
  const { army, clock, steps, map } = layout;
  const night = p === 'night';
  const isCurrent = dayOffset === 0 && p === (clock.half < 2 ? 'day' : 'night');
  const secondHalfOnly = isCurrent && (clock.half === 1 || clock.half === 3);
  let spent = isCurrent ? army.march.spentPeriod : 0;
  const pts = periodPoints(c.today, c.spentToday - spent, layout.period, night);
  let progressed = false;
  while (c.idx < steps.length) {
    const s = stepAt(steps, c.idx);
    const halves = s.crossing?.halves ?? 0;
    if (halves > 0) {
      // A multi-day crossing starts at the opening of a period with nothing spent yet.
      if (spent > 0 || secondHalfOnly) return { progressed, jump: 1 };
      c.out.push(row(map, s, dayOffset, halfName(night, true), c.today - c.spentToday));
      c.idx++;
      const jump = Math.ceil(halves / HALVES_PER_DAY);
      c.lastDay = dayOffset + jump - 1;
      return { progressed: true, jump };
    }
    if (spent + s.points > pts || c.spentToday + s.points > c.today) return { progressed, jump: 1, shortOfPoints: true };
    spent += s.points;
    c.spentToday += s.points;
    c.out.push(row(map, s, dayOffset, halfName(night, !secondHalfOnly && inFirstHalf(spent, pts)), c.today - c.spentToday));
    c.lastDay = dayOffset;
    progressed = true;
    c.idx++;
  }
  return { progressed, jump: 1, shortOfPoints: false };
}

function stepAt(steps: readonly WalkStep[], i: number): WalkStep {
  const s = steps[i];
  if (!s) throw new BrokenData(`no step ${i} in a walk of ${steps.length}`);
  return s;
}

/** A fresh day's points do not cover the next step: the order cannot be carried out. */
function tooCostly(c: Cursor, layout: Layout, weather: WeatherEffects): Result<never> {
  const { map, army, period, clock } = layout;
  const s = stepAt(layout.steps, c.idx);
  const why = weather.overlandFactor === 0
    ? 'there is no overland movement in this weather'
    : `it costs ${s.points} points, more than the army has in one ${period === 'split' ? 'half move' : 'period'}${s.enter && period === 'night' && army.sight === 'light' ? ' at night (double cost)' : ''}`;
  const at = c.out[c.out.length - 1]?.hex ?? map.format(army.hex);
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
