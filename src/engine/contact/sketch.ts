import type { BattlefieldSketch, PlacedCard } from '../views/index.js';
import { formatGameTime } from '../clock/index.js';
import type { BattlefieldCell, CampaignState, ContactRecord, DealtCard } from '../state/index.js';
import { isHostile } from '../forces/index.js';

/**
 * Where a dealt card lies until its commander moves it: cards fill the grid from the centre
 * outwards in deal order, seen from the contact dice winner's side, orientation 0. A ruling: the
 * texts let commanders place cards; this default keeps a battlefield when nobody does.
 */
const DEFAULT_CELLS: readonly BattlefieldCell[] = [
  { row: 'middle', column: 'centre' },
  { row: 'near', column: 'left' },
  { row: 'far', column: 'right' },
  { row: 'near', column: 'right' },
  { row: 'far', column: 'left' },
  { row: 'middle', column: 'left' },
  { row: 'middle', column: 'right' },
  { row: 'near', column: 'centre' },
  { row: 'far', column: 'centre' },
];

export function withDefaultPlacement(cards: readonly DealtCard[]): DealtCard[] {
  return cards.map((c, i) => {
    const cell = DEFAULT_CELLS[i % DEFAULT_CELLS.length];
    return c.cell || !cell ? c : { ...c, cell, orientation: 0 };
  });
}

const FLIP_ROW = { near: 'far', middle: 'middle', far: 'near' } as const;
const FLIP_COLUMN = { left: 'right', centre: 'centre', right: 'left' } as const;

/**
 * The battlefield sketch of a contact as one commander sees it. Cells are stored from the side of
 * the contact dice winner (the first to draw); a viewer hostile to it sees the table turned round,
 * its allies see it from the same side.
 */
export function battlefieldSketchOf(state: CampaignState, record: ContactRecord, viewerArmyId?: string): BattlefieldSketch {
  const cards = record.data.terrain ?? [];
  const winner = cards[0]?.armyId;
  // Allies of the first drawer stand on its side of the table (as seesTableTurned).
  const w = winner ? state.armies[winner] : undefined;
  const v = viewerArmyId ? state.armies[viewerArmyId] : undefined;
  const allied = w !== undefined && v !== undefined && !isHostile(state.sides, w.side, v.side);
  const turned = viewerArmyId !== undefined && winner !== undefined && viewerArmyId !== winner && !allied;
  const name = (id: string | undefined): string | undefined => (id ? state.armies[id]?.name ?? id : undefined);
  const placed: PlacedCard[] = cards.flatMap((c) => {
    const cell = c.cell;
    if (!cell) return [];
    const placedBy = name(c.armyId);
    return [{
      row: turned ? FLIP_ROW[cell.row] : cell.row,
      column: turned ? FLIP_COLUMN[cell.column] : cell.column,
      card: c.card,
      orientation: ((c.orientation ?? 0) + (turned ? 180 : 0)) % 360,
      ...(placedBy ? { placedBy } : {}),
    }];
  });
  const near = viewerArmyId ?? winner;
  const nearArmy = near ? state.armies[near] : undefined;
  const onFarSide = (id: string): boolean => {
    const other = state.armies[id];
    return id !== near && (!nearArmy || !other || isHostile(state.sides, nearArmy.side, other.side));
  };
  const far = record.armyIds.filter(onFarSide).map((id) => name(id)).join(', ');
  const nearSide = name(near);
  return {
    title: `Contact ${record.id}, ${formatGameTime(record.openedAt)}`,
    ...(nearSide ? { nearSide } : {}),
    ...(far ? { farSide: far } : {}),
    cards: placed,
  };
}
