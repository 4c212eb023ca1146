import { DIRECTIONS, DIRECTION_VECTORS, hexAdd, type Direction, type Hex } from './hex.js';

/** The neighbour of `h` across edge `d`. */
export function neighbour(h: Hex, d: Direction): Hex {
  return hexAdd(h, DIRECTION_VECTORS[d]);
}

/** All six neighbours, clockwise from north. */
export function neighbours(h: Hex): Hex[] {
  return DIRECTIONS.map((d) => neighbour(h, d));
}

/** The edge of `from` that leads to the adjacent hex `to`, or undefined when they are not adjacent. */
export function directionTo(from: Hex, to: Hex): Direction | undefined {
  const dq = to.q - from.q;
  const dr = to.r - from.r;
  return DIRECTIONS.find((d) => DIRECTION_VECTORS[d].q === dq && DIRECTION_VECTORS[d].r === dr);
}

export function isAdjacent(a: Hex, b: Hex): boolean {
  return directionTo(a, b) !== undefined;
}
