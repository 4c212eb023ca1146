/** Waterborne transport and couriers. @see 000 Waterborne Transport; 000 Overland Travel: Courier */
export { COURIER_MESSAGE_LIMIT, courierFinished, type CourierRecord, courierStep, sendCourier } from './courier.js';
export { type Assembly, awaitedRegiments, debark, type DebarkOrder } from './debark.js';
export { berthLanding, berthWhere } from './describeWater.js';
export { embark } from './embark.js';
export { fleetAtAnchor, type FleetState, type SailOrder } from './fleet.js';
export { fleetStep } from './fleetStep.js';
export { planSail } from './sail.js';
export { stopFleet } from './stop.js';
export { describeVessels, parseVessels, VESSEL_KINDS, VESSELS, WATER_HEX_COST } from './vessels.js';
export { type WaterEvent } from './waterEvents.js';
