import { timeIndex, type GameTime } from '../clock/index.js';
import type { Army, MarchState } from '../forces/index.js';
import { hexEquals, type Hex } from '../hex/index.js';
import type { Bank, MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { ok, type Result, type Violation } from '../result.js';
import { periodPoints, todaysPoints } from './dailyPoints.js';
import { enterCost } from './terrainCost.js';
import { stragglerCount } from './stragglers.js';
import { inFirstHalf, isFirstHalfOfPeriod, isNightHalf } from './timing.js';
import type { MoveOptions, WalkStep } from './types.js';
import { walkPath } from './walkPath.js';
import type { WeatherEffects } from '../state/index.js';

/**
 * Moves that other rules make at once (the contact rules' avoid, displacement, exploit, relief and
 * support switches, the maneuver and the aggressive pursuit) are priced here by the movement
 * rules themselves: the same hex entry and crossing costs, the clock (a light-sighted force at
 * night: double cost, clear hexes or roads only), the weather (closed fords and ferries, halved
 * points, no movement at all from rain level 4), the formed limits (the move goes unformed where
 * the hex demands it, with stragglers and a rally day) and the flying setting. What a march may
 * not do, such a move may not do, with the same code and sentence; a crossing that takes days
 * (a ferry, rafts) cannot be made at once.
 * @see 000 Terrain Effects; 000 Overland Travel: Nocturnal Movement; 000 Hard Rain; RULINGS 4
 */

/** When and under what sky a move made at once happens, and the campaign's movement profile. */
export interface MoveMoment {
  readonly clock: GameTime;
  readonly weather: WeatherEffects;
  readonly profile: MovementProfile;
}

/** One hex of a move made at once, as the movement rules price it. */
export interface PricedHex {
  readonly hex: Hex;
  /** Entry cost plus any river crossing made on the way into it. */
  readonly points: number;
  /** The hex may only be entered unformed (forest or swamp off road for cavalry, mountain off road). */
  readonly unformed: boolean;
}

/** A move made at once: its hexes, what it costs, and how the army stands after it. */
export interface PricedMove {
  readonly hexes: readonly PricedHex[];
  readonly points: number;
  readonly to: Hex;
  readonly bank: Bank | undefined;
  /** Some hex of the move demands unformed movement. */
  readonly unformed: boolean;
}

/** The refusal when the weather stops all overland movement (the sentence the march preview warns with). */
function weatherHalt(weather: WeatherEffects): Violation {
  return { code: 'move.weatherHalted', message: `No overland movement in this weather${weather.overlandReason ? ` (${weather.overlandReason})` : ''}.` };
}

/** Why a river crossing on the way cannot be made at once: closed by rain, or a crossing of days. */
function slowCrossing(map: MapModel, step: WalkStep & { readonly closed?: 'ford' | 'ferry' }): Violation {
  const at = map.format(step.hex);
  const method = step.crossing?.method ?? 'rafts';
  const instead = `the river there can now be crossed only by ${method === 'ferry' ? 'ferry' : 'building rafts'}, which takes days`;
  if (step.closed === 'ford') return { code: 'move.fordClosed', message: `The ford at ${at} is closed by rain: ${instead}.`, details: { hex: at } };
  if (step.closed === 'ferry') return { code: 'move.ferryClosed', message: `The ferry at ${at} is out of service in this rain: ${instead}.`, details: { hex: at } };
  return { code: 'move.crossingTakesDays', message: `Crossing the river at ${at} takes days (${method}): a move made at once cannot cross it there.`, details: { hex: at, method } };
}

/** The options a move made now is priced with: the period the clock is in, unformed where need be. */
function optionsAt(clock: GameTime): MoveOptions {
  const night = isNightHalf(clock);
  return { period: night ? 'night' : 'day', night, unformed: true };
}

/**
 * Prices a move made at once along `path` (adjacent hexes in order, from the army's hex), or
 * refuses it as the movement rules would: no overland movement in this weather, a hex the army
 * may not enter now (water, off the map, at night for a light-sighted force), a crossing closed
 * by rain or one that takes days.
 */
export function priceMove(map: MapModel, army: Army, path: readonly Hex[], moment: MoveMoment): Result<PricedMove> {
  if (moment.weather.overlandFactor === 0) return { ok: false, violation: weatherHalt(moment.weather) };
  const walk = walkPath({ map, army, from: army.hex, fromBank: army.bank, path, crossAtEnd: false, opts: optionsAt(moment.clock), weather: moment.weather, profile: moment.profile });
  if (walk.stop) return { ok: false, violation: walk.stop.violation };
  const slow = walk.steps.find((s) => (s.crossing?.halves ?? 0) > 0);
  if (slow) return { ok: false, violation: slowCrossing(map, slow) };
  const hexes: PricedHex[] = [];
  let crossing = 0;
  for (const s of walk.steps) {
    if (s.kind === 'cross') {
      crossing += s.points;
      continue;
    }
    hexes.push({ hex: s.hex, points: crossing + s.points, unformed: s.needsUnformed });
    crossing = 0;
  }
  const last = walk.steps[walk.steps.length - 1];
  return ok({
    hexes,
    points: walk.steps.reduce((n, s) => n + s.points, 0),
    to: hexes[hexes.length - 1]?.hex ?? army.hex,
    bank: last ? last.bank : army.bank,
    unformed: hexes.some((h) => h.unformed),
  });
}

/**
 * Prices a move into the army's own hex (the maneuver action, and the aggressive pursuit that is
 * one): the hex's terrain cost as entered from itself, doubled at night for a light-sighted
 * force, which may maneuver at night only in clear terrain. The force stays where and as it is.
 * @see 001 Support, Reserve, Maneuver: Maneuver
 */
export function priceOwnHex(map: MapModel, army: Army, moment: MoveMoment): Result<number> {
  if (moment.weather.overlandFactor === 0) return { ok: false, violation: weatherHalt(moment.weather) };
  const e = enterCost(map, army, army.hex, army.hex, optionsAt(moment.clock), moment.profile);
  return e.ok ? ok(e.value.cost) : e;
}

/**
 * The points an army has for a move made at once: the points left in its books, never more than
 * today's points under the weather now allow (counting a forced march if it force-marched today).
 */
export function pointsLeftNow(army: Army, moment: MoveMoment): number {
  const forced = army.march.forcedMarchDay === moment.clock.day;
  const now = todaysPoints(army, moment.profile, forced, moment.weather) - army.march.spentToday;
  return Math.max(0, Math.min(army.march.pointsLeft, now));
}

/**
 * Whether a move of `points` made now still falls in the current half period, timed as a march's
 * hex entry is: in the first half of a period, the points spent in the period with this move
 * must be at most half of the period's points; in the second half, the rest of them will do.
 * @see RULINGS 2 Time
 */
export function fitsThisHalf(army: Army, points: number, moment: MoveMoment): boolean {
  if (!isFirstHalfOfPeriod(moment.clock)) return true;
  const forced = army.march.forcedMarchDay === moment.clock.day;
  const today = todaysPoints(army, moment.profile, forced, moment.weather);
  const period = periodPoints(today, army.march.spentToday - army.march.spentPeriod, 'day', isNightHalf(moment.clock));
  return inFirstHalf(army.march.spentPeriod + points, period);
}

/** The half period (time index) marked on the army's books, keeping a move made earlier in it. */
function markHalf(m: MarchState, clock: GameTime, moved: boolean): MarchState['activeHalf'] {
  const at = timeIndex(clock);
  return { at, moved: moved || (m.activeHalf?.at === at && m.activeHalf.moved) };
}

/** Charges move points made at once: points left down, points spent today and in the period up, the half period marked as movement. */
export function spendAtOnce(army: Army, points: number, clock: GameTime): Army {
  const m = army.march;
  return {
    ...army,
    march: { ...m, pointsLeft: Math.max(0, m.pointsLeft - points), spentToday: m.spentToday + points, spentPeriod: m.spentPeriod + points, activeHalf: markHalf(m, clock, true) },
  };
}

/**
 * The army after a move made at once: the points charged (`charge`, when a rule waives or limits
 * them: the first switch of a turn is free, an exploit pays only its last hex), the hex and bank
 * reached, unformed when a hex demanded it or it already was (stragglers are rolled at daybreak,
 * and a day without movement reforms it), the stragglers still out lost when it leaves its rally
 * point, and the half period counted as movement.
 * @see 000 Terrain Effects: Units, Formed and Unformed; 001 Avoid, Evade, Delay, and Withdraw: No Rest
 */
export function moveAtOnce(army: Army, move: PricedMove, clock: GameTime, charge: number = move.points): { army: Army; stragglersLost: number } {
  const spent = spendAtOnce(army, charge, clock);
  const unformed = move.unformed || army.formation === 'unformed';
  let march: MarchState = unformed ? { ...spent.march, unformedToday: true } : spent.march;
  let stragglersLost = 0;
  if (march.rallyPoint && hexEquals(march.rallyPoint, army.hex) && !hexEquals(move.to, army.hex)) {
    stragglersLost = stragglerCount(army);
    const { rallyPoint: _r, ...rest } = march;
    march = { ...rest, stragglers: [] };
  }
  const { bank: _b, ...ashore } = spent;
  const moved: Army = { ...ashore, hex: move.to, ...(move.bank ? { bank: move.bank } : {}), formation: unformed ? 'unformed' : army.formation, march };
  return { army: moved, stragglersLost };
}

/**
 * Marks a half period in which the army conducted a disengagement without moving (an evade): it
 * may not rest in it, though it did not march.
 * @see 001 Avoid, Evade, Delay, and Withdraw: No Rest
 */
export function markDisengaged(army: Army, clock: GameTime): Army {
  return { ...army, march: { ...army.march, activeHalf: markHalf(army.march, clock, false) } };
}
