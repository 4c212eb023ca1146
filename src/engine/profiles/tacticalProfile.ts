/**
 * Tactical profiles: the tabletop a battle is fought on, as data. A profile names the table's
 * unit of length, the presets for the table width and the short bow range the baselines are
 * worked from, and how the strategic state reads on that table. The battle itself is fought
 * outside the bot; only what the chapters print is here (their movement-rate tables are blank in
 * the texts as stored: rates are the referee's).
 */

export const TACTICAL_PROFILE_IDS = ['valormr', 'chapter002', 'warlord'] as const;
export type TacticalProfileId = (typeof TACTICAL_PROFILE_IDS)[number];

export type LengthUnit = 'inch' | 'cm';
const CM_PER_INCH = 2.54;

/** The strategic march formations (000 Orders of March), as the contact rules name them. */
export type MarchFormationKey = 'figures2x20' | 'figures4x10' | 'companies' | 'battalions';

/** The formations of the 002 chapter a unit may start the battle in. */
export type TableFormation = 'column' | 'line' | 'openOrder' | 'mass';

/** How a strategic march formation becomes the starting formation on the table. */
export interface StartingFormation {
  readonly byMarch: Readonly<Record<MarchFormationKey, TableFormation>>;
  /** Companies designated as skirmishers start in this formation. */
  readonly skirmishers: TableFormation;
  /** Companies of levy troops (troop type naming levy) must stay in this formation. */
  readonly levy: TableFormation;
}

/**
 * The chapter's forced march on the table: endurance lost per stand by discipline, and the
 * exhaustion check (a die for the whole unit, exhausted from `from` up). The chapter's tables
 * print the numbers; some row labels are blank in the text as stored (`label` says what the bot
 * reads there).
 */
export interface TableForcedMarch {
  readonly attrition: readonly { readonly label: string; readonly endurance: number }[];
  readonly exhaustionDie: number;
  readonly exhaustion: readonly { readonly label: string; readonly from: number }[];
}

/** How a terrain card reads on this table. */
export type CardReading = 'impassableToFormed' | 'bridgesAndFordsOnly' | 'uphillDoubled';

/** How 001's withdrawal and pursuit read in this chapter's terms, and the chapter's own evade. */
export interface Conventions {
  /** A routed unit that leaves the table has fled the field: 001's withdrawal in rout. */
  readonly routFledTheField: boolean;
  /** The chapter's pursuit after a rout; on the map, 001's aggressive pursuit. */
  readonly pursuitAfterRout: boolean;
  /** The chapter's evade is a tabletop move for open order units and characters only. */
  readonly evadeOpenOrderOnly: boolean;
}

/** Flight on the table (003): heights in the table's unit and what taking off, climbing, diving and landing cost. */
export interface FlyingRules {
  readonly combatHeight: readonly [number, number];
  readonly takeOff: string;
  readonly climb: string;
  readonly dive: string;
  readonly land: string;
}

export interface TacticalProfile {
  readonly id: TacticalProfileId;
  readonly name: string;
  readonly source: string;
  readonly unit: LengthUnit;
  /** Table width and short bow range a campaign starts with, in `unit`. */
  readonly presets: { readonly tableWidth: number; readonly shortBowRange: number };
  /** Yards of ground to one unit, where the rules give it. */
  readonly yardsPerUnit?: number;
  /** The chapter's movement rates are not in the text as stored: the referee's. */
  readonly ratesFromReferee: boolean;
  readonly startingFormation?: StartingFormation;
  readonly forcedMarch?: TableForcedMarch;
  /** Dirt roads halve costs while dry and count as muddy ground when wet (from the campaign's rain). */
  readonly dirtRoads?: boolean;
  readonly terrainCards?: Readonly<Partial<Record<'woods' | 'river' | 'stream' | 'hill', CardReading>>>;
  readonly conventions?: Conventions;
  readonly flying?: FlyingRules;
}

/** The Valormr battle (001): inches, a 48" table, the short bow 150 yards at 20 yards to the inch. @see 001 Deployment */
export const VALORMR_TABLE: TacticalProfile = {
  id: 'valormr',
  name: 'Valormr (001)',
  source: '001',
  unit: 'inch',
  presets: { tableWidth: 48, shortBowRange: 7.5 },
  yardsPerUnit: 20,
  ratesFromReferee: false,
};

/**
 * The 002 chapter: inches; the strategic march formation gives the starting formation (columns
 * stay columns, a column of battalions deploys in line, skirmishers in open order, levies in
 * mass); a force that force-marched or is fatigued starts with the chapter's forced-march
 * attrition and exhaustion check; dirt roads; dense trees and rivers for the terrain cards.
 * @see 002 Movement: Formations; Forced march; Forced march attrition; Forced march exhaustion; Terrain effects
 */
export const CHAPTER_002: TacticalProfile = {
  id: 'chapter002',
  name: 'Text 002 movement chapter',
  source: '002',
  unit: 'inch',
  presets: { tableWidth: 48, shortBowRange: 7.5 },
  ratesFromReferee: true,
  startingFormation: {
    byMarch: { figures2x20: 'column', figures4x10: 'column', companies: 'column', battalions: 'line' },
    skirmishers: 'openOrder',
    levy: 'mass',
  },
  forcedMarch: {
    attrition: [
      { label: 'excellent', endurance: -1 },
      { label: 'good', endurance: -2 },
      { label: 'poor or wild', endurance: -4 },
    ],
    exhaustionDie: 10,
    exhaustion: [
      { label: 'the steadier overall morale', from: 9 },
      { label: 'the shakier overall morale', from: 7 },
    ],
  },
  dirtRoads: true,
  terrainCards: { woods: 'impassableToFormed', river: 'bridgesAndFordsOnly', stream: 'bridgesAndFordsOnly', hill: 'uphillDoubled' },
};

/**
 * Fantasy Warlord (003): centimetres; its chapter prints no bow range or ground scale, so the
 * presets are the Valormr table's converted (48" = 122 cm, 7.5" = 19 cm); a routed unit that
 * leaves the table has fled the field; pursuit follows a rout; its evade is for open order units
 * and characters only; flight heights for flying armies.
 * @see 003 Movement: Rout; Pursuit; Evade; Flying
 */
export const WARLORD_003: TacticalProfile = {
  id: 'warlord',
  name: 'Fantasy Warlord (003)',
  source: '003',
  unit: 'cm',
  presets: { tableWidth: 122, shortBowRange: 19 },
  ratesFromReferee: true,
  conventions: { routFledTheField: true, pursuitAfterRout: true, evadeOpenOrderOnly: true },
  flying: {
    combatHeight: [1.5, 20],
    takeOff: 'half the ground move, up to combat height',
    climb: 'a whole turn of airborne movement to flight height',
    dive: 'half the airborne move from flight height to combat height',
    land: 'half the airborne move, from combat height only',
  },
};

export const TACTICAL_PROFILES: Readonly<Record<TacticalProfileId, TacticalProfile>> = { valormr: VALORMR_TABLE, chapter002: CHAPTER_002, warlord: WARLORD_003 };

/** The tactical profile a campaign plays its battles by. */
export function tacticalProfile(settings: { readonly tactical: TacticalProfileId }): TacticalProfile {
  return TACTICAL_PROFILES[settings.tactical] ?? VALORMR_TABLE;
}

/** A length in the table's unit, from inches (rounded to a tenth). */
export function fromInches(inches: number, unit: LengthUnit): number {
  return unit === 'inch' ? inches : Math.round(inches * CM_PER_INCH * 10) / 10;
}

/** A length in inches, from the table's unit. */
export function toInches(length: number, unit: LengthUnit): number {
  return unit === 'inch' ? length : length / CM_PER_INCH;
}

/** A length's mark: `"` for inches, ` cm` for centimetres. */
export function unitMark(unit: LengthUnit | undefined): string {
  return unit === 'cm' ? ' cm' : '"';
}
