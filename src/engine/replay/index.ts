/** Replay's pure parts: a state's changes as path operations, and where two states differ (docs/replay.md). */
export { applyOps, diffJson, firstDifference, type Json, type PathOp } from './stateDiff.js';
