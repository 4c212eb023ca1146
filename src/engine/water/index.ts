export { type CourierRecord, type FleetState, VESSEL_KINDS } from '../state/index.js';
/** Waterborne transport and couriers. @see 000 Waterborne Transport; 000 Overland Travel: Courier */
export { COURIER_MESSAGE_LIMIT, courierFinished, courierStep, sendCourier } from './courier.js';
export { awaitedRegiments, debark } from './debark.js';
export { berthLanding, berthWhere } from './describeWater.js';
export { embark } from './embark.js';
export { fleetAtAnchor } from './fleet.js';
export { fleetStep } from './fleetStep.js';
export { planSail } from './sail.js';
export { stopFleet } from './stop.js';
export { describeVessels, parseVessels, VESSELS, WATER_HEX_COST } from './vessels.js';
export { type WaterEvent } from './waterEvents.js';
