/**
 * Strategic movement: costs, crossings, daily points, rest and fatigue, stragglers, march
 * formations, routes, move previews and the simultaneous resolution of a half period.
 * @see 000 Strategic Movement; 000 Overland Travel; 000 Terrain Effects; RULINGS 1-4
 */
export * from './types.js';
export { TERRAIN_COST, enterCost, linkBetween, isHomeTerrain, fliesOver, marchesInFormation } from './terrainCost.js';
export { crossingCost, crossesAsCavalry, CROSSING_DAYS, HALVES_PER_DAY, type CrossingContext } from './crossing.js';
export { dailyPoints, todaysPoints, periodPoints, halfDayPoints } from './dailyPoints.js';
export { walkPath, otherBank, type Walk, type WalkInput } from './walkPath.js';
export { findRoute, type Route, type RouteInput } from './findRoute.js';
export { planMove, cannotMove, commanderHexes } from './planMove.js';
export { planHalf, type HalfEntry, type HalfPlan, type PlanStop } from './planHalf.js';
export { rankContenders, TIE_BREAK_WORDS, type Contender, type ContestResult, type TieBreak } from './contest.js';
export { resolveHalf, mayMove, type HalfResult, type HaltReason, type MoverOutcome } from './resolveHalf.js';
export { movementStep } from './movementStep.js';
export { beginHalfStep } from './beginHalfStep.js';
export { detectContacts, openContacts, armiesOnMap } from './contacts.js';
export { progressOperation, raftPhase, defenceShare, TIMBER_SHORT_MAX } from './crossingOperations.js';
export { loseStragglers, recoverStragglers, stragglerCount, stragglerFigures, stragglerPercent, takeStragglers } from './stragglers.js';
export { marchFormation, describeMarchFormation, hexHasLink, MARCH_FORMATIONS, type MarchFormationId } from './marchFormation.js';
export { appendHalf, halvesSinceLongRest, fatigueOnMoving, restFactorFromDay, MAX_MARCH_DAYS, REST_MOVE_LIMIT } from './restAndFatigue.js';
export { inFirstHalf, halfName, periodActive, isFirstHalfOfPeriod, isNightHalf } from './timing.js';
export { marchStatus, type MarchStatus } from './marchStatus.js';
export { assignRoles } from './assignRoles.js';
export { ensureMarch } from './ensureMarch.js';
