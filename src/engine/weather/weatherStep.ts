import { dayOfWeek, formatGameTime, isPeriodStart, type GameTime } from '../clock/gameTime.js';
import type { Dice, DiceRoll } from '../dice/dice.js';
import { event, PUBLIC, type EngineEvent } from '../events/events.js';
import type { CampaignSettings } from '../state/settings.js';
import type { TickStep } from '../tick/step.js';
import { describeSky, describeWeather } from './describeWeather.js';
import { closeDroughtPeriod, closeDroughtWeek } from './drought.js';
import { closeRainPeriod } from './rainLevel.js';
import { rollHalfPersistence, type Phenomenon } from './rollHalfPersistence.js';
import { rollPeriodWeather, type PeriodWeatherRoll, type TableRoll } from './rollPeriodWeather.js';
import type { WeatherState } from './types.js';
import { DEFAULT_WEATHER_TABLE, type WeatherTable } from './weatherTable.js';

/** The weather for the half period starting, and the public events of the step. */
export interface WeatherAdvance {
  readonly weather: WeatherState;
  readonly events: readonly EngineEvent[];
}

const PHENOMENON_NAME: Readonly<Record<Phenomenon, string>> = {
  fog: 'fog',
  calm: 'calm',
  highWinds: 'high winds',
  gale: 'gale',
};

const RESULT_TEXT: Readonly<Record<TableRoll['result'], string>> = {
  noChange: 'no change',
  cloudy: 'cloudy',
  clears: 'clears',
  rain: 'rain',
  lightRain: 'light rain',
  hardRain: 'hard rain',
};

/** Wraps a Dice so the rolls of one step can be listed on its events. */
function recording(dice: Dice): { dice: Dice; rolls: DiceRoll[] } {
  const rolls: DiceRoll[] = [];
  const roll = (sides: number, purpose: string): number => {
    const value = dice.roll(sides, purpose);
    rolls.push({ purpose, sides, value });
    return value;
  };
  return { dice: { roll, d6: (purpose) => roll(6, purpose) }, rolls };
}

function isFirstMorning(clock: GameTime): boolean {
  return clock.day === 1 && clock.half === 0;
}

function rollSummary(roll: PeriodWeatherRoll): string {
  const parts = roll.tableRolls.map((r) => `${r.column} column ${r.die}: ${RESULT_TEXT[r.result]}${r.change ? ' (change)' : ''}`);
  if (roll.fogWindDie !== undefined) parts.push(`fog/wind die ${roll.fogWindDie}`);
  if (roll.windTypeDie !== undefined) parts.push(`wind type die ${roll.windTypeDie}`);
  if (roll.persistence?.phenomenon) {
    parts.push(`${PHENOMENON_NAME[roll.persistence.phenomenon]} persistence ${roll.persistence.die}: ${roll.persistence.persisted ? 'holds' : 'ends'}`);
  }
  return parts.join('; ');
}

function weatherData(clock: GameTime, weather: WeatherState, rolls: readonly DiceRoll[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { time: clock, sky: weather.sky, fog: weather.fog, wind: weather.wind, rainLevel: weather.rainLevel, rolls, ...extra };
}

/**
 * Moves the weather on to the half period that is starting (`clock`).
 * - The campaign's first morning keeps its starting weather; nothing is rolled.
 * - Morning and evening (a period starts):
 *   1. the period just ended settles the rain level and curing (cumulative effects begin at
 *      the end of the period that triggers them), and, with the optional rule, the drought
 *      count; the morning of a new week also closes the week for the drought rule;
 *   2. the weather for the new period is rolled on the table.
 * - Afternoon and night (the half of a period): fog or wind rolls for persistence.
 * @see 000 Determining Weather
 * @see 000 Fog and Wind Dice
 * @see 000 Weather Effects
 * @see RULINGS 2 Time
 */
export function advanceWeather(
  weather: WeatherState,
  clock: GameTime,
  settings: Pick<CampaignSettings, 'drought'>,
  baseDice: Dice,
  table: WeatherTable = DEFAULT_WEATHER_TABLE,
): WeatherAdvance {
  const when = formatGameTime(clock);
  if (isFirstMorning(clock)) {
    const text = `${when}: ${describeWeather(weather, settings)} The campaign opens in this weather; nothing is rolled.`;
    return { weather, events: [event('weatherRolled', PUBLIC, text, weatherData(clock, weather, [], { firstMorning: true }))] };
  }
  const { dice, rolls } = recording(baseDice);

  if (!isPeriodStart(clock)) {
    const persistence = rollHalfPersistence(weather, dice, table);
    if (persistence.phenomenon === undefined) return { weather, events: [] };
    const plural = persistence.phenomenon === 'highWinds';
    const verb = persistence.persisted ? (plural ? 'hold' : 'holds') : plural ? 'end' : 'ends';
    const verdict = `the ${PHENOMENON_NAME[persistence.phenomenon]} ${verb} (die ${persistence.die})`;
    const text = `${when}: ${verdict}. ${describeWeather(persistence.weather, settings)}`;
    return { weather: persistence.weather, events: [event('weatherRolled', PUBLIC, text, weatherData(clock, persistence.weather, rolls, { persistence: true }))] };
  }

  const events: EngineEvent[] = [];
  // 1. Close the period that just ended.
  const endedSky = weather.sky;
  const rain = closeRainPeriod(weather, endedSky);
  if (rain.after !== rain.before) {
    const text = rain.after > rain.before
      ? `The rain of the last period raises the rain level to ${rain.after}.`
      : `The ground dries: the rain level falls to ${rain.after}.`;
    events.push(event('rainLevelChanged', PUBLIC, text, { time: clock, before: rain.before, after: rain.after }));
  }
  const droughtPeriod = closeDroughtPeriod(rain.weather, settings, endedSky);
  const newWeek = clock.half === 0 && dayOfWeek(clock) === 1;
  const droughtWeek = newWeek ? closeDroughtWeek(droughtPeriod.weather, settings) : droughtPeriod;
  const droughtBefore = droughtPeriod.before;
  const droughtAfter = droughtWeek.after;
  if (droughtAfter !== droughtBefore) {
    const text = droughtAfter === 0
      ? 'The rain ends the drought.'
      : droughtAfter > droughtBefore
        ? `Drought: the land enters week ${droughtAfter} without enough rain.`
        : `Rain eases the drought to the conditions of week ${droughtAfter}.`;
    events.push(event('droughtChanged', PUBLIC, text, { time: clock, before: droughtBefore, after: droughtAfter }));
  }

  // 2. Roll the weather of the new period.
  const roll = rollPeriodWeather(droughtWeek.weather, dice, table);
  const ended = roll.endedByChange
    ? ` The ${PHENOMENON_NAME[roll.endedByChange]} ${roll.endedByChange === 'highWinds' ? 'end' : 'ends'} with the change.`
    : '';
  const text = `${when}: ${describeWeather(roll.weather, settings)}${ended} (${rollSummary(roll)})`;
  events.push(event('weatherRolled', PUBLIC, text, weatherData(clock, roll.weather, rolls, { change: roll.change, summary: describeSky(roll.weather) })));
  return { weather: roll.weather, events };
}

/**
 * A weather step for a tick, rolling on the given table (a scenario may bring its own).
 * The tick should compute WeatherEffects from the returned state for the steps after it.
 */
export function createWeatherStep(table: WeatherTable = DEFAULT_WEATHER_TABLE): TickStep {
  return ({ state, dice }) => {
    const { weather, events } = advanceWeather(state.weather, state.clock, state.settings, dice, table);
    return { state: weather === state.weather ? state : { ...state, weather }, events };
  };
}

/** The weather step of a tick, on the default table. @see RULINGS 2a */
export const weatherStep: TickStep = createWeatherStep();
