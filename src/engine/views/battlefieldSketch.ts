/**
 * The lay of the land from the terrain reconnaissance, as plain data for a picture: the table is
 * split into a 3x3 grid (near/middle/far from the viewer's baseline, left/centre/right), and each
 * placed terrain card sits in one cell with an orientation.
 * @see 001 Terrain Reconnaissance
 */
/** The terrain deck's card names (as src/engine/contact deals them). */
export type BattlefieldCard = 'hill' | 'woods' | 'marsh' | 'river' | 'stream' | 'pond' | 'gully' | 'roughGround' | 'blank';

export const BATTLEFIELD_ROWS = ['far', 'middle', 'near'] as const;
export type BattlefieldRow = (typeof BATTLEFIELD_ROWS)[number];

export const BATTLEFIELD_COLUMNS = ['left', 'centre', 'right'] as const;
export type BattlefieldColumn = (typeof BATTLEFIELD_COLUMNS)[number];

/**
 * Degrees clockwise (0, 90, 180 or 270; other values are rounded to the nearest quarter turn).
 * At 0 a card's long side runs left-right across the table and a watercourse flows left to right.
 */
export type CardOrientation = number;

export interface PlacedCard {
  readonly row: BattlefieldRow;
  readonly column: BattlefieldColumn;
  readonly card: BattlefieldCard;
  readonly orientation: CardOrientation;
  /** Commander who placed it, for the caption (optional). */
  readonly placedBy?: string;
}

export interface BattlefieldSketch {
  /** e.g. "Contact at 0712, Day 3 afternoon". */
  readonly title: string;
  /** Who stands at the near edge and the far edge (e.g. commander names). */
  readonly nearSide?: string;
  readonly farSide?: string;
  /** Cards in the order they were placed. */
  readonly cards: readonly PlacedCard[];
}
