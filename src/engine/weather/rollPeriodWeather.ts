import type { Dice } from '../dice/index.js';
import { currentPhenomenon, rollHalfPersistence, type Phenomenon, type PersistenceRoll } from './rollHalfPersistence.js';
import { defaultWeatherTable, weatherColumn, type WeatherColumn, type WeatherResult, type WeatherTable } from './weatherTable.js';
import type { Sky, WeatherState } from '../state/index.js';

/** One roll on a column of the weather table. */
export interface TableRoll {
  readonly column: WeatherColumn;
  readonly die: number;
  readonly result: WeatherResult;
  readonly change: boolean;
}

/** The outcome of rolling a period's weather, with every die for the chronicle. */
export interface PeriodWeatherRoll {
  /** Sky, fog and wind for the new period; rain level and bookkeeping are left as they were. */
  readonly weather: WeatherState;
  /** The roll on the current column, then (after a 'rain' result) the roll on the rainy column. */
  readonly tableRolls: readonly TableRoll[];
  /** The table showed a change of weather. */
  readonly change: boolean;
  /** The fog/wind die (only after a change). */
  readonly fogWindDie?: number;
  /** The wind type die (only after a 'wind' face). */
  readonly windTypeDie?: number;
  /** Fog or wind that the change brought. */
  readonly newPhenomenon?: Phenomenon;
  /** Fog or wind of the last period that the change blew away. */
  readonly endedByChange?: Phenomenon;
  /** Without a change, the persistence roll for fog or wind still about. */
  readonly persistence?: PersistenceRoll;
}

function skyAfter(sky: Sky, result: WeatherResult): Sky {
  switch (result) {
    case 'noChange':
      return sky;
    case 'cloudy':
      return 'cloudy';
    case 'clears':
      return 'clear';
    case 'lightRain':
      return 'lightRain';
    case 'hardRain':
      return 'hardRain';
    case 'rain':
      // Resolved by a second roll on the rainy column before this is reached.
      throw new Error('weather table: a "rain" result must be resolved on the rainy column');
  }
}

function rollColumn(column: WeatherColumn, table: WeatherTable, dice: Dice, purpose: string): TableRoll {
  const rows = table.columns[column];
  const die = dice.roll(rows.length, purpose);
  const row = rows[die - 1];
  if (row === undefined) throw new Error(`weather table: no row ${die} in the ${column} column`);
  return { column, die, result: row.result, change: row.change === true };
}

/**
 * Rolls the weather for a new period (morning or evening).
 * 1. Roll the column of the current sky. A 'rain' result rolls the rainy column at once.
 * 2. If the table showed a change, any fog or wind ends and the fog/wind die is rolled
 *    (1 fog, 6 wind; after wind the wind type die: 1 calm, 5 high winds, 6 gale).
 * 3. Without a change, fog or wind still about rolls for persistence as at any half period.
 * @see 000 Determining Weather
 * @see 000 Fog and Wind Dice
 * @see RULINGS 2a
 */
export function rollPeriodWeather(weather: WeatherState, dice: Dice, table: WeatherTable = defaultWeatherTable()): PeriodWeatherRoll {
  // 1. The weather table.
  const column = weatherColumn(weather.sky);
  const first = rollColumn(column, table, dice, `weather (${column} column)`);
  const tableRolls: TableRoll[] = [first];
  let sky: Sky;
  if (first.result === 'rain') {
    const second = rollColumn('rainy', table, dice, 'weather (rainy column, after Rain)');
    tableRolls.push(second);
    sky = skyAfter(weather.sky, second.result);
  } else {
    sky = skyAfter(weather.sky, first.result);
  }
  const change = tableRolls.some((r) => r.change);

  // 3. No change: fog or wind carries on only if its persistence roll says so.
  if (!change) {
    const persistence = rollHalfPersistence(weather, dice, table);
    return { weather: { ...persistence.weather, sky }, tableRolls, change, ...(persistence.phenomenon ? { persistence } : {}) };
  }

  // 2. A change: the old phenomenon ends, the fog/wind die decides on a new one.
  const ended = currentPhenomenon(weather);
  const fogWindDie = dice.roll(table.fogWindDie.length, 'fog/wind die (weather changed)');
  const face = table.fogWindDie[fogWindDie - 1] ?? 'none';
  let newPhenomenon: Phenomenon | undefined;
  let windTypeDie: number | undefined;
  if (face === 'fog') newPhenomenon = 'fog';
  if (face === 'wind') {
    windTypeDie = dice.roll(table.windTypeDie.length, 'wind type die');
    const windFace = table.windTypeDie[windTypeDie - 1] ?? 'none';
    if (windFace !== 'none') newPhenomenon = windFace;
  }
  const next: WeatherState = {
    ...weather,
    sky,
    fog: newPhenomenon === 'fog',
    wind: newPhenomenon === undefined || newPhenomenon === 'fog' ? 'none' : newPhenomenon,
  };
  return {
    weather: next,
    tableRolls,
    change,
    fogWindDie,
    ...(windTypeDie !== undefined ? { windTypeDie } : {}),
    ...(newPhenomenon !== undefined ? { newPhenomenon } : {}),
    ...(ended !== undefined ? { endedByChange: ended } : {}),
  };
}
