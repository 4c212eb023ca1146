/**
 * What reconnaissance leaves on a contact's record: scouts' outcomes, the contact dice's modifier
 * codes, each commander's estimates and the truth behind them, and the terrain cards dealt. Plain
 * JSON; the tables and rules that produce them are the contact rules' (src/engine/contact).
 */

/** What one commander learns about one opponent. Numbers here are secret (army audience only). */
export interface Estimate {
  readonly observerId: string;
  readonly targetId: string;
  readonly modifiedDie: number;
  readonly awareness: ContactTableRow['awareness'];
  readonly sizeBand: SizeBand;
  readonly compositionLevel: CompositionLevel;
  /** The 2d6 rolled on the size estimation table, when a size was estimated. */
  readonly sizeRoll?: number;
  /** Percentage error applied (0 = accurate). */
  readonly sizeErrorPercent?: number;
  /** Estimated figures of the engaging regiment (one figure = 40 troops). */
  readonly estimatedFigures?: number;
  readonly estimatedTroops?: number;
  readonly composition?: EstimatedComposition;
}

export interface EstimatedComposition {
  /** Basic types present in the engaging regiment (level basic and up). */
  readonly basic: readonly ('infantry' | 'cavalry')[];
  /** Troop types of the engaging regiment (level types and up). */
  readonly troopTypes?: readonly string[];
  /** Share of each troop type in whole percent (level proportions and up). */
  readonly proportions?: Readonly<Record<string, number>>;
  /** Regiments besides the engaging one (level proportions and up). */
  readonly otherRegiments?: number;
  /** Exact companies (level exact). */
  readonly companies?: readonly { readonly troopType: string; readonly figures: number }[];
  /** Leaders, heroes, creatures (level exact). */
  readonly individuals?: readonly { readonly name: string; readonly kind: string }[];
}

/** The truth about a force, for the referee. */
export interface ForceTruth {
  readonly armyId: string;
  readonly regiment?: string;
  readonly figures: number;
  readonly troops: number;
  readonly regiments: number;
  readonly companies: readonly { readonly troopType: string; readonly figures: number }[];
  readonly individuals: readonly { readonly name: string; readonly kind: string }[];
}

/** One result of the Scout table. @see 000 Scouts Out: Scout Table */
export type ScoutOutcome = 'captured' | 'killed' | 'unsuccessful' | 'successful';

/** Contact dice modifiers. @see 001 Contact Dice: Contact Modifiers */
export const CONTACT_MODIFIERS = {
  morePoints: { value: 1, label: 'more move points than all opponents' },
  smallest: { value: 1, label: 'smallest force by at least one regiment' },
  scouts: { value: 1, label: 'successful scout(s)' },
  capturedScouts: { value: 1, label: 'captured scout(s)' },
  previousContact: { value: 1, label: 'previous contact this or the last period' },
  opponentsClear: { value: 1, label: 'all opponents in clear terrain' },
  opponentsMountain: { value: -1, label: 'all opponents in mountain terrain' },
} as const;

/**
 * A contact dice modifier: one of the table's, or the weather's under a movement profile that
 * has one (ACKS: rain limits reconnaissance; its value comes from the profile).
 */
export type ContactModifierCode = keyof typeof CONTACT_MODIFIERS | 'weather';

/** Size bands of the contact table. */
export type SizeBand = 'none' | 'pm50' | 'pm25' | 'pm10' | 'accurate';

/** Composition levels of the contact table. */
export type CompositionLevel = 'none' | 'basic' | 'types' | 'proportions' | 'exact';

export interface ContactTableRow {
  readonly awareness: 'unaware' | 'aware' | 'estimate';
  readonly size: SizeBand;
  readonly composition: CompositionLevel;
}

/**
 * The terrain deck of Chainmail's terrain selection: 20 cards. @see RULINGS 5 Terrain
 * reconnaissance; 001 Terrain Reconnaissance
 */
export const TERRAIN_DECK = {
  hill: 4,
  woods: 2,
  marsh: 1,
  river: 1,
  stream: 1,
  pond: 1,
  gully: 1,
  roughGround: 1,
  blank: 8,
} as const;

export type TerrainCard = keyof typeof TERRAIN_DECK;

export interface DealtCard {
  readonly armyId: string;
  readonly card: TerrainCard;
  /** Where the commander placed it on the 3 x 3 battlefield grid, once placed. */
  readonly cell?: BattlefieldCell;
  /** Orientation in degrees (0, 90, 180, 270). */
  readonly orientation?: number;
}

export const GRID_ROWS = ['near', 'middle', 'far'] as const;

export const GRID_COLUMNS = ['left', 'centre', 'right'] as const;

export interface BattlefieldCell {
  readonly row: (typeof GRID_ROWS)[number];
  readonly column: (typeof GRID_COLUMNS)[number];
}
