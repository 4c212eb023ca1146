/** Hex geometry: axial coordinates inside, CCRR ids at the edges. */
export { hexDistance } from './distance.js';
export { type Direction, DIRECTION_VECTORS, DIRECTIONS, type Hex, hexAdd, hexEquals } from './hex.js';
export { formatHex, hexKey, hexToOffset, idWidth, offsetToHex, parseHex } from './hexId.js';
export { directionTo, isAdjacent, neighbour, neighbours } from './neighbours.js';
export { hexRound } from './line.js';
export { hexSpiral } from './ring.js';
