import type { Army } from '../forces/index.js';
import type { Violation } from '../result.js';
import type { MovePeriod } from '../state/index.js';

/**
 * Nocturnal folk. Goblins, kobolds and orcs suffer in sunlight and "always choose nocturnal
 * activity" (000): they march by night. Their scenario entry marks them `nocturnal`; whether they
 * see in the dark is their `sight`, a separate matter (dark-seeing forces may also split a march).
 * @see 000 Overland Travel: Nocturnal Movement; RULINGS 4
 */

/** The period of a march whose order names none: night for nocturnal folk, day for everyone else. */
export function defaultPeriod(army: Army): MovePeriod {
  return army.nocturnal ? 'night' : 'day';
}

/**
 * Why a march in `period` is refused to a nocturnal army, or undefined: a day march, or a split
 * one (half of it in daylight), unless the referee's setting allows them.
 */
export function nocturnalRefusal(army: Army, period: MovePeriod, dayMarchAllowed: boolean): Violation | undefined {
  if (!army.nocturnal || period === 'night' || dayMarchAllowed) return undefined;
  const what = period === 'day' ? 'a day march' : 'a split march (half of it by day)';
  return {
    code: 'move.nocturnalByDay',
    message: `${army.name} will not take ${what}: goblins, kobolds and orcs suffer in sunlight and always march by night. Use period:night (the referee's setting \`nocturnal-day-march\` allows day marches).`,
    details: { period },
  };
}
