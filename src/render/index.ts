/** Map and battlefield pictures, drawn and encoded off the main thread. */
export { renderMap } from './renderMap.js';
export { renderBattlefield } from './battlefield.js';
export { closeRenderPool } from './renderPool.js';
export { animatedWebp, stillWebp } from './animate.js';
