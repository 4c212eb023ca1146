import type { Army } from '../forces/index.js';
import { hexEquals, type Hex } from '../hex/index.js';
import type { Bank, MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result } from '../result.js';
import { halfDayPoints } from './dailyPoints.js';
import type { CrossingCost } from './types.js';
import type { WeatherEffects } from '../state/index.js';

/** Half periods of work per day. */
export const HALVES_PER_DAY = 4;

/**
 * Days of work for the multi-day crossings: a ferry takes one day on a minor river and two on a
 * major one; rafts take three (timber, build, cross).
 * @see 000 Terrain Effects: Ferries; Major Rivers
 */
export const CROSSING_DAYS = { ferryMinor: 1, ferryMajor: 2, rafts: 3 } as const;

/** Cavalry for the river rules: mounted troops and lone riders. */
export function crossesAsCavalry(army: Army): boolean {
  return army.movementClass === 'cavalry' || army.movementClass === 'courier';
}

export interface CrossingContext {
  readonly weather: WeatherEffects;
  /** The step happens at night for a light-sighted force: double points and time. */
  readonly nightDouble: boolean;
  /** The campaign's movement profile (the army's rate, for the half-day crossings). */
  readonly profile: MovementProfile;
}

/**
 * How `army` crosses the river in hex `h` from `fromBank` to `toBank`, and at what cost (on top
 * of entering the hex). A closed ford or ferry (rain) falls back to the crossing the river allows
 * without it and reports `closed`.
 * - bridge: free, all arms;
 * - ferry: one day on a minor river, two on a major one;
 * - ford (minor rivers only): cavalry free, infantry half its daily points;
 * - minor river, no usable site: cavalry half its daily points, infantry builds rafts;
 * - major river without bridge or ferry: rafts, three days, not where timber already ran out.
 * Light-sighted forces at night pay double points and take double time.
 * Drought flags: major rivers count as minor, and rivers may be fordable anywhere.
 * @see 000 Terrain Effects: Rivers, Bridges, Ferries, Fords, Major Rivers, Minor Rivers; RULINGS 4
 */
export function crossingCost(map: MapModel, army: Army, h: Hex, fromBank: Bank | undefined, toBank: Bank | undefined, ctx: CrossingContext): Result<CrossingCost & { readonly closed?: 'ford' | 'ferry' }> {
  const river = map.riverAt(h);
  const id = map.format(h);
  if (!river) return fail('crossing.noRiver', `There is no river to cross in ${id}.`, { hex: id });
  const size = ctx.weather.majorAsMinor && river.size === 'major' ? 'minor' : river.size;
  const site = river.crossing;
  const mul = ctx.nightDouble ? 2 : 1;
  const base = { hex: h, size, ...(site ? { site } : {}), ...(fromBank ? { fromBank } : {}), ...(toBank ? { toBank } : {}) };
  if (site === 'bridge') return ok({ ...base, method: 'bridge', points: 0, halves: 0 });
  let closed: 'ford' | 'ferry' | undefined;
  if (site === 'ferry') {
    if (!ctx.weather.ferriesClosed) {
      const days = size === 'minor' ? CROSSING_DAYS.ferryMinor : CROSSING_DAYS.ferryMajor;
      return ok({ ...base, method: 'ferry', points: 0, halves: days * HALVES_PER_DAY * mul });
    }
    closed = 'ferry';
  }
  const fordable = (site === 'ford' && size === 'minor')
    || (size === 'minor' && ctx.weather.minorFordable)
    || (size === 'major' && ctx.weather.majorFordable);
  if (fordable) {
    if (!ctx.weather.fordsClosed) {
      const points = crossesAsCavalry(army) ? 0 : halfDayPoints(army, ctx.profile) * mul;
      return ok({ ...base, method: 'ford', points, halves: 0 });
    }
    closed = closed ?? 'ford';
  }
  const closedPart = closed ? { closed } : {};
  if (size === 'minor' && crossesAsCavalry(army)) {
    return ok({ ...base, method: 'swim', points: halfDayPoints(army, ctx.profile) * mul, halves: 0, ...closedPart });
  }
  if (army.march.noRaftHexes.some((x) => hexEquals(x, h))) {
    return fail('crossing.noTimber', `Timber ran out at ${id}: rafts cannot be built there. Cross at another hex.`, { hex: id });
  }
  return ok({ ...base, method: 'rafts', points: 0, halves: CROSSING_DAYS.rafts * HALVES_PER_DAY * mul, ...closedPart });
}
