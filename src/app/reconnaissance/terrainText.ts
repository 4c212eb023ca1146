import { GRID_COLUMNS, GRID_ROWS, type BattlefieldCell, type HandCard, type TerrainCard } from '../../engine/contact/index.js';

/** How a terrain card reads in a message. */
export const CARD_LABEL: Readonly<Record<TerrainCard, string>> = {
  hill: 'hill',
  woods: 'woods',
  marsh: 'marsh',
  river: 'river',
  stream: 'stream',
  pond: 'pond',
  gully: 'gully',
  roughGround: 'rough ground',
  blank: 'blank (open ground)',
};

export const cellText = (cell: BattlefieldCell | undefined): string => (cell ? `${cell.row} ${cell.column}` : 'not on the table');

export function handCardText(c: HandCard): string {
  return `${c.n}. ${CARD_LABEL[c.card]}: ${cellText(c.cell)}${c.cell ? `, turned ${c.orientation ?? 0}°` : ''}`;
}

export function handText(hand: readonly HandCard[]): string {
  return hand.length > 0 ? hand.map(handCardText).join('; ') : 'no terrain cards';
}

export const VALID_CELLS = `rows ${GRID_ROWS.join(', ')} (near is your own baseline) and columns ${GRID_COLUMNS.join(', ')}`;
