/** The contact, intelligence and battle rules. @see 001 Contact and Deployment; RULINGS 5 and 6 */
export * from './tables.js';
export * from './baselines.js';
export * from './deployment.js';
export * from './estimate.js';
export * from './terrainDeck.js';
export * from './moveCost.js';
export * from './disengage.js';
export * from './contactRecord.js';
export * from './queries.js';
export * from './procedure.js';
export * from './supportReserve.js';
export * from './contactStep.js';
export * from './view.js';
export * from './sketch.js';
export { describeStep, STEP_TEXT } from './stepNames.js';
export * from './terrainPlacement.js';
