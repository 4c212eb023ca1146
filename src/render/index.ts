export { renderMap, renderMapCanvas, clearRenderCache, renderCacheStats, snapshotLayout, type RenderMapOptions } from './renderMap.js';
export { renderBattlefield, renderBattlefieldCanvas } from './battlefield.js';
export type { TitleText } from './overlay.js';
export { closeRenderPool, configureRenderPool, renderPoolState } from './renderPool.js';
