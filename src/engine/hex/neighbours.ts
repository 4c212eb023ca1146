import { DIRECTIONS, DIRECTION_VECTORS, hexAdd, type Direction, type Hex } from './hex.js';

/** The neighbour of `h` across edge `d`. */
export function neighbour(h: Hex, d: Direction): Hex {
  return hexAdd(h, DIRECTION_VECTORS[d]);
}

/** All six neighbours, clockwise from north. */
export function neighbours(h: Hex): Hex[] {
  return DIRECTIONS.map((d) => neighbour(h, d));
}

/** The direction of each axial offset with both parts in -1..1, at `(dq + 1) * 3 + dr + 1` (none for (0, 0), (1, 1), (-1, -1)). */
const BY_OFFSET: readonly (Direction | undefined)[] = (() => {
  const table: (Direction | undefined)[] = Array.from({ length: 9 }, () => undefined);
  for (const d of DIRECTIONS) table[(DIRECTION_VECTORS[d].q + 1) * 3 + DIRECTION_VECTORS[d].r + 1] = d;
  return table;
})();

/** The edge of `from` that leads to the adjacent hex `to`, or undefined when they are not adjacent (looked up, not searched: every step of every path asks). */
export function directionTo(from: Hex, to: Hex): Direction | undefined {
  const dq = to.q - from.q;
  const dr = to.r - from.r;
  if (!(dq >= -1 && dq <= 1 && dr >= -1 && dr <= 1 && Number.isInteger(dq) && Number.isInteger(dr))) return undefined;
  return BY_OFFSET[(dq + 1) * 3 + dr + 1];
}

export function isAdjacent(a: Hex, b: Hex): boolean {
  return directionTo(a, b) !== undefined;
}
