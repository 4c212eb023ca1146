import type { GameTime } from '../clock/index.js';
import type { DiceRoll } from '../dice/index.js';
import type { ArmyAudience, Fact, PublicAudience, RefereeAudience, Told } from '../events/index.js';
import type { Phenomenon } from './rollHalfPersistence.js';
import type { TableRoll } from './rollPeriodWeather.js';
import type { MovementProfileId } from '../profiles/index.js';
import type { Temperature, WeatherState } from '../state/index.js';

/** The weather a half period opens with, and whether the optional drought rule is on (it shows the drought's week). */
type WeatherShown = {
  readonly time: GameTime;
  readonly weather: WeatherState;
  readonly drought: boolean;
  /** The movement profile whose weather rules the effects are told by (absent in facts told before profiles: Valormr's). */
  readonly profile?: MovementProfileId;
  /** The season's temperature the referee set (absent in facts told before it: moderate). */
  readonly temperature?: Temperature;
  /** Every die rolled for it, with its purpose. */
  readonly rolls: readonly DiceRoll[];
};

/** What the dice of a period's weather said, for the chronicle. */
export interface WeatherDice {
  readonly tableRolls: readonly TableRoll[];
  readonly fogWindDie?: number;
  readonly windTypeDie?: number;
  /** Without a change, the persistence roll for the fog or wind still about. */
  readonly persistence?: { readonly phenomenon: Phenomenon; readonly die: number; readonly persisted: boolean };
  /** Fog or wind of the last period that the change blew away. */
  readonly endedByChange?: Phenomenon;
}

/** One army's drought losses in one regiment. */
export interface RegimentLoss {
  readonly regimentId: string;
  readonly name: string;
  readonly before: number;
  readonly lost: number;
}

/** One army's drought losses for a week. */
export type DroughtLoss = {
  readonly armyId: string;
  readonly percent: number;
  readonly figuresLost: number;
  readonly regiments: readonly RegimentLoss[];
};

/**
 * What the weather rules report, as typed facts. Their sentences are written by
 * describeWeatherFact. @see 000 Determining Weather; 000 Weather Effects; 000 Advanced: Drought
 */
export type WeatherFact =
  | Fact<'weatherRolled', WeatherShown & { readonly roll: 'opening' }, PublicAudience>
  | Fact<'weatherRolled', WeatherShown & { readonly roll: 'persistence'; readonly phenomenon: Phenomenon; readonly die: number; readonly persisted: boolean }, PublicAudience>
  | Fact<'weatherRolled', WeatherShown & { readonly roll: 'period'; readonly change: boolean; readonly dice: WeatherDice }, PublicAudience>
  | Fact<'rainLevelChanged', { readonly time: GameTime; readonly before: number; readonly after: number }, PublicAudience>
  | Fact<'droughtChanged', { readonly time: GameTime; readonly before: number; readonly after: number }, PublicAudience>
  | Fact<'droughtTookToll', { readonly time: GameTime }, PublicAudience>
  | Fact<'droughtCasualties', { readonly time: GameTime } & DroughtLoss, ArmyAudience>
  | Fact<'droughtCasualtiesSummary', { readonly time: GameTime; readonly losses: readonly DroughtLoss[] }, RefereeAudience>;

export type WeatherEvent = Told<WeatherFact>;
