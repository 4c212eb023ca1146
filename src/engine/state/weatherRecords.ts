/**
 * The weather as the campaign state carries it from period to period, and what it does to the
 * other rules this half period. The weather rules (src/engine/weather) roll the one and compute
 * the other. @see RULINGS 2a
 */

export type Sky = 'clear' | 'cloudy' | 'lightRain' | 'hardRain';

export type Wind = 'none' | 'calm' | 'highWinds' | 'gale';

export interface WeatherState {
  readonly sky: Sky;
  readonly fog: boolean;
  readonly wind: Wind;
  /** Cumulative rain level (0 = dry). */
  readonly rainLevel: number;
  /** Extra bookkeeping of the weather rules (consecutive light rain, curing progress, drought). */
  readonly track: Readonly<Record<string, number | boolean | string>>;
}

/**
 * What the current weather does to the rest of the rules. Computed by the weather rules from a
 * WeatherState; read by movement, crossings, ships and the battle briefing.
 */
export interface WeatherEffects {
  /** Multiplier on overland daily move points (1, 0.75, 0.5, 0.25 or 0); fractions dropped by the caller. */
  readonly overlandFactor: number;
  /** Why overland movement is reduced, for messages. */
  readonly overlandReason?: string;
  readonly fordsClosed: boolean;
  readonly ferriesClosed: boolean;
  /** Drought: major rivers count as minor; minor rivers fordable along their length. */
  readonly majorAsMinor: boolean;
  readonly minorFordable: boolean;
  readonly majorFordable: boolean;
  readonly minorNavigable: boolean;
  /** Seagoing vessels may not enter or leave port (fog, high winds). */
  readonly portsClosed: boolean;
  /** Multiplier on sailed ships' points at sea this half period (fog 0.5, high winds 1.5, calm/gale 0). */
  readonly sailFactor: number;
  /** Rowed vessels (galleys, longships at the oars) in calm. */
  readonly rowOnly: boolean;
  /** Gale: no ship at sea moves (a ship on a coast hex may beach). */
  readonly shipsHalted: boolean;
  /**
   * Drought in its seventh week or later: forces lose a percentage of their figures each week,
   * half-dice x 5 ('halfDice') or dice x 5 ('dice'). Absent when there are no such losses.
   * @see 000 Advanced: Drought
   */
  readonly droughtCasualties?: 'halfDice' | 'dice';
  /** Contact dice modifier for every army in this weather (ACKS rain limits reconnaissance); absent: none. */
  readonly reconnaissance?: number;
  /** Battlefield notes for a contact. */
  readonly battlefield: {
    readonly fog: boolean;
    /** Missile-fire hit modifier (high winds -1; catapults unaffected). */
    readonly missileHits: number;
    /** Missile attack throw modifier of the profile's severe weather (ACKS); absent: none. */
    readonly missileAttack?: number;
    /** Fog: visibility is one die times this many yards (30). Absent without fog. */
    readonly visibilityYardsPerPip?: number;
    /** Short notes for the battle briefing (visibility, wind, light). */
    readonly notes?: readonly string[];
  };
}
