/** The force model: armies, regiments, companies, individuals, and their losses. @see 000 Orders of March */
export { type Army, type ArmySeat, assaultRegiment, type Company, type FatigueReason, FRESH_MARCH, FRESH_STATUS, type HalfActivity, type HomeTerrain, isHostile, loneForce, type MarchState, MOVE_POINTS, type MovementClass, type Operation, type Regiment, regimentCount, regimentFigures, type RegimentRole, regimentStrength, type SideInfo, type Straggler, troopFigures, TROOPS_PER_FIGURE } from './army.js';
export { percentOfFigures, scaleCompanies, takeFigures } from './losses.js';
