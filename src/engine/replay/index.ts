/** Replay's pure parts: a state's changes as path operations, where two states differ (docs/replay.md), and whether two values are the same JSON. */
export { applyOps, diffJson, firstDifference, type Json, type PathOp } from './stateDiff.js';
export { sameJson } from './sameJson.js';
