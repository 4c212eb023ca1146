import type { Dice } from '../dice/index.js';
import { defaultWeatherTable, type WeatherTable } from './weatherTable.js';
import type { WeatherState } from '../state/index.js';

/** What a persistence roll was for: fog, a wind phenomenon, or nothing to roll for. */
export type Phenomenon = 'fog' | 'calm' | 'highWinds' | 'gale';

/** The outcome of one persistence roll. */
export interface PersistenceRoll {
  /** The weather after the roll: the fog or wind cleared if it did not persist. */
  readonly weather: WeatherState;
  /** The fog or wind that was rolled for; absent when there was none (and no die was rolled). */
  readonly phenomenon?: Phenomenon;
  readonly die?: number;
  readonly persisted: boolean;
}

/** The fog or wind phenomenon in the weather, if any. */
export function currentPhenomenon(weather: WeatherState): Phenomenon | undefined {
  if (weather.fog) return 'fog';
  return weather.wind === 'none' ? undefined : weather.wind;
}

/**
 * Rolls whether fog or a wind phenomenon goes on for the next half period. Fog goes on on 1-2,
 * wind on 1 (faces from the table). Without fog or wind nothing is rolled.
 * Called at each half period (and at a period start whose weather roll showed no change).
 * @see 000 Fog and Wind Dice
 */
export function rollHalfPersistence(weather: WeatherState, dice: Dice, table: WeatherTable = defaultWeatherTable()): PersistenceRoll {
  const phenomenon = currentPhenomenon(weather);
  if (phenomenon === undefined) return { weather, persisted: false };
  const isFog = phenomenon === 'fog';
  const faces = isFog ? table.persistence.fog : table.persistence.wind;
  const die = dice.roll(table.persistence.sides, `${isFog ? 'fog' : 'wind'} persistence (goes on on ${faces.join(' or ')})`);
  const persisted = faces.includes(die);
  if (persisted) return { weather, phenomenon, die, persisted };
  return { weather: { ...weather, fog: false, wind: 'none' }, phenomenon, die, persisted };
}
