export * from './embarkArmy.js';
export * from './orderSail.js';
export * from './debarkArmy.js';
export * from './sendCourierMessage.js';
export * from './stopSail.js';
