import { formatGameTime } from '../clock/gameTime.js';
import type { Army } from '../forces/army.js';
import { hexEquals, type Hex } from '../hex/hex.js';
import { hexKey } from '../hex/hexId.js';
import type { MapModel } from '../map/mapModel.js';
import { fail, ok, type Result, type Violation } from '../result.js';
import type { CampaignState, Order } from '../state/campaign.js';
import type { WeatherEffects } from '../weather/types.js';
import { HALVES_PER_DAY } from './crossing.js';
import { dailyPoints, periodPoints, todaysPoints } from './dailyPoints.js';
import { findRoute } from './findRoute.js';
import { halvesSinceLongRest, MAX_MARCH_DAYS, REST_MOVE_LIMIT, fatigueOnMoving } from './restAndFatigue.js';
import { halfName, inFirstHalf } from './timing.js';
import type { MovePlan, MoveRequest, MoveWarning, PlannedStep, WalkStep } from './types.js';
import { walkPath } from './walkPath.js';

/** Longest preview the bot computes, in days. */
const MAX_PLAN_DAYS = 60;

/** Hex keys of every other commander on the map (one commander per hex). */
export function commanderHexes(state: CampaignState, exceptArmyId: string): Map<string, Army> {
  const out = new Map<string, Army>();
  for (const a of Object.values(state.armies)) {
    // Fleets hold their hex as well (a port, a beach, a river hex).
    if (a.id === exceptArmyId || a.status.destroyed) continue;
    out.set(hexKey(a.hex), a);
  }
  return out;
}

/** Why the army cannot take a move order at all, or undefined. */
export function cannotMove(army: Army | undefined, armyId: string): Violation | undefined {
  if (!army) return { code: 'army.unknown', message: `There is no army "${armyId}".` };
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

/**
 * Validates a move request and previews it hex by hex: terrain, road or track, entry cost, river
 * crossings (method, points or days), the half period each hex is entered, points left; plus
 * warnings and the order to store. A refusal names the hex and the rule and, where it can, the
 * nearest legal alternative (the furthest reachable hex, unformed:true, or a formed route).
 * @see 000 Strategic Movement; 000 Overland Travel; 000 Terrain Effects; RULINGS 2-4
 */
export function planMove(state: CampaignState, map: MapModel, weather: WeatherEffects, armyId: string, request: MoveRequest): Result<MovePlan> {
  const army = state.armies[armyId];
  const bad = cannotMove(army, armyId);
  if (bad || !army) return { ok: false, violation: bad ?? { code: 'army.unknown', message: armyId } };
  if (request.period === 'split' && army.sight === 'light') {
    return fail('move.splitNeedsDarkSight', `${army.name} is light-sighted: only dark-seeing forces split a move between day and night. Use period:day or period:night.`);
  }
  const opts = { period: request.period, night: request.period === 'night', unformed: request.unformed || army.formation === 'unformed' };
  const others = commanderHexes(state, army.id);
  const flyingIgnoresTerrain = state.settings.flyingIgnoresTerrain;

  // 1. The path: as given, or the cheapest legal route to the destination.
  let path: readonly Hex[];
  if (request.path && request.path.length > 0) {
    path = request.path;
  } else if (request.to) {
    const to = request.to;
    if (!map.inBounds(to)) return fail('move.offMap', `Hex ${map.format(to)} is off the map.`);
    if (hexEquals(to, army.hex)) {
      if (!request.crossAtEnd) return fail('move.alreadyThere', `${army.name} is already at ${map.format(to)}. To cross the river here, add crossAtEnd:true.`);
      path = [];
    } else {
      const holder = others.get(hexKey(to));
      if (holder) return fail('move.occupied', `${map.format(to)} is held by ${holder.name}: only one commander may stand in a hex. Choose a hex next to it.`, { hex: map.format(to) });
      const blocked = new Set(others.keys());
      const route = findRoute({ map, army, from: army.hex, fromBank: army.bank, to, opts, weather, flyingIgnoresTerrain, blocked });
      if (!route) {
        const unformed = !opts.unformed && findRoute({ map, army, from: army.hex, fromBank: army.bank, to, opts: { ...opts, unformed: true }, weather, flyingIgnoresTerrain, blocked });
        const night = opts.night && army.sight === 'light' && findRoute({ map, army, from: army.hex, fromBank: army.bank, to, opts: { ...opts, night: false, period: 'day' }, weather, flyingIgnoresTerrain, blocked });
        const hint = unformed ? ' A route exists unformed: add unformed:true (stragglers, a day to reform).' : night ? ' A route exists by day: use period:day.' : '';
        return fail('move.noPath', `No legal route for ${army.name} from ${map.format(army.hex)} to ${map.format(to)}.${hint}`, { to: map.format(to) });
      }
      path = route.path;
    }
  } else if (request.crossAtEnd) {
    path = [];
  } else {
    return fail('move.noDestination', 'Give a path (hex ids in order, e.g. "0712 0713") or a destination (to:0913).');
  }

  // 2. One commander per hex: the path may not enter or pass another commander.
  for (const h of path) {
    const holder = others.get(hexKey(h));
    if (holder) {
      return fail('move.occupied', `${map.format(h)} is held by ${holder.name}: a force may not enter or pass through a hex with another commander. Route around it (try to:${map.format(path[path.length - 1] as Hex)}).`, { hex: map.format(h) });
    }
  }

  // 3. Walk the path: every step legal, every crossing known.
  const walk = walkPath({ map, army, from: army.hex, fromBank: army.bank, path, crossAtEnd: request.crossAtEnd, opts, weather, flyingIgnoresTerrain });
  if (walk.stop) {
    return { ok: false, violation: withAlternative(walk.stop.violation, map, army, walk.steps, path, opts, { weather, flyingIgnoresTerrain, others }) };
  }

  // 4. Schedule the steps over periods and days.
  // With no overland movement in this weather the order waits; preview it as if the sky cleared.
  const planWeather = weather.overlandFactor === 0 ? { ...weather, overlandFactor: 1 } : weather;
  const sched = schedule(state, army, request, walk.steps, planWeather, map);
  if (!sched.ok) return sched;

  // 5. Warnings.
  const warnings: MoveWarning[] = [];
  for (const s of walk.steps) {
    if (s.closed === 'ford') warnings.push({ code: 'move.fordClosed', message: `The ford at ${map.format(s.hex)} is closed by rain: the plan crosses by ${s.crossing?.method} instead.` });
    if (s.closed === 'ferry') warnings.push({ code: 'move.ferryClosed', message: `The ferry at ${map.format(s.hex)} is out of service in this rain: the plan crosses by ${s.crossing?.method} instead.` });
  }
  if (walk.steps.some((s) => (s.crossing?.halves ?? 0) > 0)) warnings.push({ code: 'move.multiDay', message: 'The route includes a multi-day crossing: the army is committed to it until it is done.' });
  if (request.forced) warnings.push({ code: 'move.fatigueTomorrow', message: 'Forced march: the army must rest all of tomorrow or be fatigued.' });
  const fatigueNow = path.length > 0 || request.crossAtEnd ? fatigueOnMoving(army, state.clock) : undefined;
  if (fatigueNow) warnings.push({ code: 'move.fatigueToday', message: `Moving now fatigues the army: ${fatigueNow}.` });
  else if (!army.march.movedToday && army.march.daysMarched === MAX_MARCH_DAYS - 1) warnings.push({ code: 'move.weeklyRestDue', message: 'This is the sixth day of marching in a row: rest all of tomorrow or be fatigued.' });
  if (halvesSinceLongRest(army.march.recentHalves) === REST_MOVE_LIMIT - 1) warnings.push({ code: 'move.restMoveLimit', message: 'After this half period the army needs two consecutive half periods of rest.' });
  if (opts.unformed || walk.steps.some((s) => s.needsUnformed)) warnings.push({ code: 'move.stragglers', message: 'Unformed march: 5-15 % of each regiment straggles per day; one full day at the end to reform.' });
  if (army.status.fatigued) warnings.push({ code: 'move.fatigued', message: `The army is fatigued (${army.march.fatigueReason ?? 'no reason recorded'}): 25 % fewer points until a full day of rest.` });
  if (weather.overlandFactor === 0) warnings.push({ code: 'move.weatherHalted', message: `No overland movement in this weather${weather.overlandReason ? ` (${weather.overlandReason})` : ''}: the order waits.` });
  if (army.status.inContact) warnings.push({ code: 'move.inContact', message: 'The army is in contact: it moves once the contact is resolved.' });

  const crossings = walk.steps.filter((s) => (s.crossing?.halves ?? 0) > 0).map((s) => ({ hex: s.hex, method: s.crossing?.method ?? 'rafts' }));
  const order: Order = {
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
  return ok({
    armyId: army.id,
    steps: sched.value.steps,
    warnings,
    totalPoints: walk.steps.reduce((n, s) => n + s.points, 0),
    days: sched.value.days,
    order,
  });
}

/** Adds the nearest legal alternative to a refusal. */
function withAlternative(
  v: Violation,
  map: MapModel,
  army: Army,
  steps: readonly WalkStep[],
  path: readonly Hex[],
  opts: { period: MoveRequest['period']; night: boolean; unformed: boolean },
  ctx: { weather: WeatherEffects; flyingIgnoresTerrain: boolean; others: Map<string, Army> },
): Violation {
  const hints: string[] = [];
  const reached = [...steps].reverse().find((s) => s.kind === 'enter');
  if (reached) hints.push(`The furthest hex the path reaches legally is ${map.format(reached.hex)}.`);
  const target = path[path.length - 1];
  if (target && !hexEquals(target, army.hex) && !ctx.others.has(hexKey(target))) {
    const route = findRoute({ map, army, from: army.hex, fromBank: army.bank, to: target, opts, weather: ctx.weather, flyingIgnoresTerrain: ctx.flyingIgnoresTerrain, blocked: new Set(ctx.others.keys()) });
    if (route) hints.push(`A legal route exists: /move to:${map.format(target)} (via ${route.path.map((h) => map.format(h)).join(' ')}).`);
  }
  return hints.length === 0 ? v : { ...v, message: `${v.message} ${hints.join(' ')}` };
}

interface Scheduled {
  readonly steps: PlannedStep[];
  readonly days: number;
}

/**
 * Lays the walk out over the order's periods: today's remaining points first, then a fresh day's
 * points each following day (plus what was saved, with save:true); a multi-day crossing starts at
 * the opening of a period in which nothing was spent yet. The weather is assumed to hold.
 */
function schedule(state: CampaignState, army: Army, req: MoveRequest, steps: readonly WalkStep[], weather: WeatherEffects, map: MapModel): Result<Scheduled> {
  const out: PlannedStep[] = [];
  const clock = state.clock;
  const periods: ('day' | 'night')[] = req.period === 'split' ? ['day', 'night'] : [req.period];
  const fresh = dailyPoints(army, req.forced, weather, 1);
  const currentPeriod = clock.half < 2 ? 'day' : 'night';
  let today = todaysPoints(army, req.forced, weather);
  let spentToday = army.march.spentToday;
  let idx = 0;
  let lastDay = 0;
  let dayOffset = 0;
  while (idx < steps.length) {
    if (dayOffset >= MAX_PLAN_DAYS) break;
    let progressed = false;
    let jump = 1;
    for (const p of periods) {
      if (idx >= steps.length || jump > 1) break;
      const night = p === 'night';
      if (dayOffset === 0 && p === 'day' && clock.half >= 2) continue;
      const isCurrent = dayOffset === 0 && p === currentPeriod;
      const secondHalfOnly = isCurrent && (clock.half === 1 || clock.half === 3);
      let spent = isCurrent ? army.march.spentPeriod : 0;
      const pts = periodPoints(today, spentToday - spent, req.period, night);
      while (idx < steps.length) {
        const s = steps[idx] as WalkStep;
        const halves = s.crossing?.halves ?? 0;
        if (halves > 0) {
          // A multi-day crossing starts at the opening of a period with nothing spent yet.
          if (spent > 0 || secondHalfOnly) break;
          out.push(row(map, s, dayOffset, halfName(night, true), today - spentToday));
          idx++;
          jump = Math.ceil(halves / HALVES_PER_DAY);
          lastDay = dayOffset + jump - 1;
          progressed = true;
          break;
        }
        if (spent + s.points > pts || spentToday + s.points > today) break;
        spent += s.points;
        spentToday += s.points;
        out.push(row(map, s, dayOffset, halfName(night, !secondHalfOnly && inFirstHalf(spent, pts)), today - spentToday));
        lastDay = dayOffset;
        progressed = true;
        idx++;
      }
    }
    if (!progressed && dayOffset > 0) {
      const s = steps[idx] as WalkStep;
      const why = weather.overlandFactor === 0
        ? 'there is no overland movement in this weather'
        : `it costs ${s.points} points, more than the army has in one ${req.period === 'split' ? 'half move' : 'period'}${s.enter && req.period === 'night' && army.sight === 'light' ? ' at night (double cost)' : ''}`;
      const at = out.length > 0 ? (out[out.length - 1] as PlannedStep).hex : map.format(army.hex);
      return fail('move.tooCostly', `${army.name} cannot enter ${map.format(s.hex)} on this order: ${why}. The furthest it gets is ${at}.${req.period === 'night' ? ' Move by day instead.' : ' Follow a road where there is one.'}`, { hex: map.format(s.hex), at: formatGameTime(clock) });
    }
    const leftover = Math.max(0, today - spentToday);
    today = fresh + (req.save && progressed ? leftover : 0);
    spentToday = 0;
    dayOffset += jump;
  }
  if (idx < steps.length) return fail('move.tooLong', `The route is longer than ${MAX_PLAN_DAYS} days: give a nearer destination.`);
  return ok({ steps: out, days: lastDay + 1 });
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
