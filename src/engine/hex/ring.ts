import { DIRECTION_VECTORS, type Hex } from './hex.js';
import { neighbour } from './neighbours.js';

/** The hexes at exactly `radius` steps from `center`, clockwise. Radius 0 is the centre itself. */
export function hexRing(center: Hex, radius: number): Hex[] {
  if (radius === 0) return [{ q: center.q, r: center.r }];
  const out: Hex[] = [];
  const start = DIRECTION_VECTORS.sw;
  let h: Hex = { q: center.q + start.q * radius, r: center.r + start.r * radius };
  // From the south-west corner, walk the six sides clockwise.
  const walk = ['n', 'ne', 'se', 's', 'sw', 'nw'] as const;
  for (const d of walk) {
    for (let i = 0; i < radius; i++) {
      out.push(h);
      h = neighbour(h, d);
    }
  }
  return out;
}

/** Every hex within `radius` steps of `center`, the centre first. */
export function hexSpiral(center: Hex, radius: number): Hex[] {
  const out: Hex[] = [];
  for (let k = 0; k <= radius; k++) out.push(...hexRing(center, k));
  return out;
}

