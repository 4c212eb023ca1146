import type { WeatherDice, WeatherEvent, WeatherFact } from './weatherEvents.js';
import { dayOfWeek, isPeriodStart, type GameTime } from '../clock/index.js';
import type { Dice, DiceRoll } from '../dice/index.js';
import { namesOf, PUBLIC, tell } from '../events/index.js';
import type { CampaignSettings, TickStep, WeatherState } from '../state/index.js';
import { describeWeatherFact } from './describeWeather.js';
import { closeDroughtPeriod, closeDroughtWeek } from './drought.js';
import { closeRainPeriod } from './rainLevel.js';
import { rollHalfPersistence } from './rollHalfPersistence.js';
import { rollPeriodWeather, type PeriodWeatherRoll } from './rollPeriodWeather.js';
import { defaultWeatherTable, type WeatherTable } from './weatherTable.js';

/** The weather for the half period starting, and the public facts of the step. */
export interface WeatherAdvance {
  readonly weather: WeatherState;
  readonly facts: readonly WeatherFact[];
}

/** Wraps a Dice so the rolls of one step can be listed on its facts. */
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

/** The dice of a period's weather, as the chronicle lists them. */
function diceOf(roll: PeriodWeatherRoll): WeatherDice {
  const p = roll.persistence;
  return {
    tableRolls: roll.tableRolls,
    ...(roll.fogWindDie !== undefined ? { fogWindDie: roll.fogWindDie } : {}),
    ...(roll.windTypeDie !== undefined ? { windTypeDie: roll.windTypeDie } : {}),
    ...(p?.phenomenon !== undefined && p.die !== undefined ? { persistence: { phenomenon: p.phenomenon, die: p.die, persisted: p.persisted } } : {}),
    ...(roll.endedByChange ? { endedByChange: roll.endedByChange } : {}),
  };
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
function advanceWeather(
  weather: WeatherState,
  clock: GameTime,
  settings: Pick<CampaignSettings, 'drought' | 'profile' | 'temperature'>,
  baseDice: Dice,
  table: WeatherTable = defaultWeatherTable(),
): WeatherAdvance {
  const shown = (w: WeatherState, rolls: readonly DiceRoll[]) => ({ time: clock, weather: w, drought: settings.drought, profile: settings.profile, ...(settings.temperature !== 'moderate' ? { temperature: settings.temperature } : {}), rolls });
  if (isFirstMorning(clock)) return { weather, facts: [{ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(weather, []), roll: 'opening' } }] };
  const { dice, rolls } = recording(baseDice);
  if (!isPeriodStart(clock)) {
    const p = rollHalfPersistence(weather, dice, table);
    if (p.phenomenon === undefined || p.die === undefined) return { weather, facts: [] };
    return { weather: p.weather, facts: [{ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(p.weather, rolls), roll: 'persistence', phenomenon: p.phenomenon, die: p.die, persisted: p.persisted } }] };
  }
  const facts: WeatherFact[] = [];
  // 1. Close the period that just ended.
  const rain = closeRainPeriod(weather, weather.sky);
  if (rain.after !== rain.before) facts.push({ type: 'rainLevelChanged', audience: PUBLIC, data: { time: clock, before: rain.before, after: rain.after } });
  const droughtPeriod = closeDroughtPeriod(rain.weather, settings, weather.sky);
  const newWeek = clock.half === 0 && dayOfWeek(clock) === 1;
  const droughtWeek = newWeek ? closeDroughtWeek(droughtPeriod.weather, settings) : droughtPeriod;
  if (droughtWeek.after !== droughtPeriod.before) facts.push({ type: 'droughtChanged', audience: PUBLIC, data: { time: clock, before: droughtPeriod.before, after: droughtWeek.after } });
  // 2. Roll the weather of the new period.
  const roll = rollPeriodWeather(droughtWeek.weather, dice, table);
  facts.push({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(roll.weather, rolls), roll: 'period', change: roll.change, dice: diceOf(roll) } });
  return { weather: roll.weather, facts };
}

/**
 * A weather step for a tick, rolling on the given table (a scenario may bring its own), or on
 * the default one, checked on the first roll (src/engine/weather/weatherTable.ts).
 * The tick should compute WeatherEffects from the returned state for the steps after it.
 */
export function createWeatherStep(table?: WeatherTable): TickStep<WeatherEvent> {
  return ({ state, dice }) => {
    const { weather, facts } = advanceWeather(state.weather, state.clock, state.settings, dice, table ?? defaultWeatherTable());
    return { state: weather === state.weather ? state : { ...state, weather }, events: tell(facts, describeWeatherFact, namesOf(state.armies)) };
  };
}

/** The weather step of a tick, on the default table. @see RULINGS 2a */
export const weatherStep: TickStep<WeatherEvent> = createWeatherStep();
