/**
 * Axial hex coordinates for flat-top hexes. `q` is the column axis, `r` the diagonal row axis;
 * the third cube coordinate is `s = -q - r`. Offset ids (`CCRR`) only exist at the edges of the
 * system (input, output, data files); see hexId.ts.
 * @see RULINGS 1 Map and coordinates
 */
export interface Hex {
  readonly q: number;
  readonly r: number;
}

/** The six edge directions of a flat-top hex, clockwise from north. */
export const DIRECTIONS = ['n', 'ne', 'se', 's', 'sw', 'nw'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Axial offsets for each direction (flat-top: north is r - 1). */
export const DIRECTION_VECTORS: Readonly<Record<Direction, Hex>> = {
  n: { q: 0, r: -1 },
  ne: { q: 1, r: -1 },
  se: { q: 1, r: 0 },
  s: { q: 0, r: 1 },
  sw: { q: -1, r: 1 },
  nw: { q: -1, r: 0 },
};

export function hexEquals(a: Hex, b: Hex): boolean {
  return a.q === b.q && a.r === b.r;
}

export function hexAdd(a: Hex, b: Hex): Hex {
  return { q: a.q + b.q, r: a.r + b.r };
}
