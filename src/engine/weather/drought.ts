import { halfDice, type Dice } from '../dice/index.js';
import type { CampaignSettings, Sky, WeatherEffects, WeatherState } from '../state/index.js';

/**
 * Drought bookkeeping kept in WeatherState.track (only while the optional rule is on).
 * - dryWeeks: consecutive finished weeks with fewer than four periods of rain (before a drought).
 * - week: 0 without a drought; otherwise the week of drought whose conditions apply (4 to 8).
 * - rainPeriods: periods of rain (light or hard) so far this week.
 */
export interface DroughtTrack {
  readonly dryWeeks: number;
  readonly week: number;
  readonly rainPeriods: number;
}

/** Keys of the drought bookkeeping in WeatherState.track. */
const DROUGHT_TRACK_KEYS = { dryWeeks: 'drought.dryWeeks', week: 'drought.week', rainPeriods: 'drought.rainPeriods' } as const;

/** Rain periods a week needs not to count as dry. */
const RAIN_PERIODS_PER_WEEK = 4;
/** Dry weeks in a row that bring a drought; the week after them is its first week with effects. */
const DRY_WEEKS_TO_DROUGHT = 4;
/** The worst week of drought; later weeks keep its conditions. */
const LAST_DROUGHT_WEEK = 8;

/** What one week of drought does. @see 000 Advanced: Drought */
export interface DroughtStage {
  readonly overlandFactor: number;
  readonly majorAsMinor: boolean;
  readonly minorFordable: boolean;
  readonly majorFordable: boolean;
  readonly minorNavigable: boolean;
  readonly casualties?: 'halfDice' | 'dice';
}

/**
 * Drought conditions by week of drought (weeks 5 to 8; week 4 and earlier have none).
 * @see 000 Advanced: Drought
 */
export const DROUGHT_STAGES: Readonly<Record<5 | 6 | 7 | 8, DroughtStage>> = {
  5: { overlandFactor: 0.75, majorAsMinor: true, minorFordable: true, majorFordable: false, minorNavigable: true },
  6: { overlandFactor: 0.5, majorAsMinor: true, minorFordable: true, majorFordable: false, minorNavigable: true },
  7: { overlandFactor: 0.25, majorAsMinor: true, minorFordable: true, majorFordable: true, minorNavigable: false, casualties: 'halfDice' },
  8: { overlandFactor: 0.25, majorAsMinor: true, minorFordable: true, majorFordable: true, minorNavigable: false, casualties: 'dice' },
};

type DroughtSetting = Pick<CampaignSettings, 'drought'>;

function num(weather: WeatherState, key: string): number {
  const v = weather.track[key];
  return typeof v === 'number' ? v : 0;
}

/** Reads the drought bookkeeping (missing keys count as 0). */
export function droughtTrack(weather: WeatherState): DroughtTrack {
  return {
    dryWeeks: num(weather, DROUGHT_TRACK_KEYS.dryWeeks),
    week: num(weather, DROUGHT_TRACK_KEYS.week),
    rainPeriods: num(weather, DROUGHT_TRACK_KEYS.rainPeriods),
  };
}

function withTrack(weather: WeatherState, t: DroughtTrack): WeatherState {
  return {
    ...weather,
    track: {
      ...weather.track,
      [DROUGHT_TRACK_KEYS.dryWeeks]: t.dryWeeks,
      [DROUGHT_TRACK_KEYS.week]: t.week,
      [DROUGHT_TRACK_KEYS.rainPeriods]: t.rainPeriods,
    },
  };
}

/** The drought conditions in force, or undefined (rule off, no drought, or only its fourth week). */
export function droughtStage(weather: WeatherState, settings: DroughtSetting): DroughtStage | undefined {
  if (!settings.drought) return undefined;
  const { week } = droughtTrack(weather);
  if (week < 5) return undefined;
  return DROUGHT_STAGES[Math.min(week, LAST_DROUGHT_WEEK) as 5 | 6 | 7 | 8];
}

export interface DroughtChange {
  readonly weather: WeatherState;
  /** Week of drought conditions before and after (0 = no drought). */
  readonly before: number;
  readonly after: number;
}

/**
 * Closes a period for the drought rule, from the sky of the period that just ended: a rain
 * period counts toward the week's four, and during a drought eases it by one week (light rain)
 * or two (hard rain). Easing below the fourth week ends the drought and the count of dry weeks
 * starts again. Does nothing when the optional rule is off.
 * @see 000 Advanced: Drought
 */
export function closeDroughtPeriod(weather: WeatherState, settings: DroughtSetting, endedSky: Sky = weather.sky): DroughtChange {
  const t = droughtTrack(weather);
  if (!settings.drought) return { weather, before: t.week, after: t.week };
  const rain = endedSky === 'lightRain' ? 1 : endedSky === 'hardRain' ? 2 : 0;
  if (rain === 0) return { weather: withTrack(weather, t), before: t.week, after: t.week };
  let { week, dryWeeks } = t;
  if (week > 0) {
    week -= rain;
    if (week < DRY_WEEKS_TO_DROUGHT) {
      week = 0;
      dryWeeks = 0;
    }
  }
  return { weather: withTrack(weather, { week, dryWeeks, rainPeriods: t.rainPeriods + 1 }), before: t.week, after: week };
}

/**
 * Closes a week for the drought rule. A week with fewer than four periods of rain is dry: before
 * a drought it adds to the dry weeks (the fourth brings the drought, whose fifth week starts
 * now); during a drought it deepens it by a week, to the eighth at most. A wet week ends the
 * count of dry weeks; during a drought its rain has already eased it period by period.
 * Does nothing when the optional rule is off.
 * @see 000 Advanced: Drought
 */
export function closeDroughtWeek(weather: WeatherState, settings: DroughtSetting): DroughtChange {
  const t = droughtTrack(weather);
  if (!settings.drought) return { weather, before: t.week, after: t.week };
  const dry = t.rainPeriods < RAIN_PERIODS_PER_WEEK;
  let { week, dryWeeks } = t;
  if (week > 0) {
    if (dry) week = Math.min(LAST_DROUGHT_WEEK, week + 1);
  } else if (dry) {
    dryWeeks += 1;
    if (dryWeeks >= DRY_WEEKS_TO_DROUGHT) week = DRY_WEEKS_TO_DROUGHT + 1;
  } else {
    dryWeeks = 0;
  }
  return { weather: withTrack(weather, { week, dryWeeks, rainPeriods: 0 }), before: t.week, after: week };
}

/**
 * Rolls one week's drought casualties for a force, as a percentage of its figures: half-dice x 5
 * in the seventh week, dice x 5 from the eighth. 0 when the weather brings no such losses.
 * @see 000 Advanced: Drought
 */
export function rollDroughtCasualties(effects: WeatherEffects, dice: Dice, forceName: string): number {
  if (effects.droughtCasualties === 'halfDice') return halfDice(dice, `drought casualties of ${forceName} (half-dice x 5 %)`) * 5;
  if (effects.droughtCasualties === 'dice') return dice.d6(`drought casualties of ${forceName} (dice x 5 %)`) * 5;
  return 0;
}
