export { type MoveOrder, type MovePeriod } from '../state/index.js';
/**
 * Strategic movement: costs, crossings, daily points, rest and fatigue, stragglers, march
 * formations, routes, move previews and the simultaneous resolution of a half period.
 * @see 000 Strategic Movement; 000 Overland Travel; 000 Terrain Effects; RULINGS 1-4
 */
export { assignRoles } from './assignRoles.js';
export { beginHalfStep } from './beginHalfStep.js';
export { crossesAsCavalry, CROSSING_DAYS, crossingCost, HALVES_PER_DAY } from './crossing.js';
export { defenceShare, TIMBER_SHORT_MAX } from './crossingOperations.js';
export { dailyPoints, halfDayPoints } from './dailyPoints.js';
export { describeRoute } from './describeMovement.js';
export { mergeArmies, orderMachines, splitArmy } from './divisions.js';
export { findRoute } from './findRoute.js';
export { fitsThisHalf, markDisengaged, type MoveMoment, moveAtOnce, pointsLeftNow, priceMove, priceOwnHex, type PricedMove, spendAtOnce } from './immediateMove.js';
export { marchFormation } from './marchFormation.js';
export { marchStatus, type MarchStatus } from './marchStatus.js';
export { type MovementEvent } from './movementEvents.js';
export { movementStep } from './movementStep.js';
export { defaultPeriod } from './nocturnal.js';
export { planMove } from './planMove.js';
export { keepRouteTables, type RouteTables, type RouteTableStore } from './routeProfile.js';
export { fatigueRecovery, restFactorFromDay } from './restAndFatigue.js';
export { stragglerPercent } from './stragglers.js';
export { enterCost, TERRAIN_COST } from './terrainCost.js';
export { type MoveOptions, type MovePlan, type PlannedFatigue, type PlannedStep } from './types.js';
export { walkPath } from './walkPath.js';
