export * from './hex.js';
export * from './neighbours.js';
export * from './distance.js';
export * from './line.js';
export * from './ring.js';
export * from './hexId.js';
