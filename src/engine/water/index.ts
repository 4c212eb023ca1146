export * from './vessels.js';
export * from './navigation.js';
export * from './fleet.js';
export * from './embark.js';
export * from './sail.js';
export * from './debark.js';
export * from './fleetStep.js';
export * from './courier.js';
