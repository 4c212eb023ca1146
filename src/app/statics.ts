import { createHash } from 'node:crypto';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import { loadScenario } from '../db/campaignRepo.js';
import type { App } from './app.js';
import { mapOf } from './scenarios.js';
import { stateCacheOf } from './stateCache.js';

/**
 * The scenario and map of a campaign never change after creation: cache them per campaign, and
 * share one copy between campaigns created from the same scenario.
 */
export function staticsOf(app: App, id: string): { scenario: ScenarioDoc; map: MapModel; mapKey: string } {
  let s = app.statics.get(id);
  if (!s) {
    const loaded = loadScenario(app.db, id);
    if (!loaded) throw new Error(`campaign ${id} has no scenario`);
    // Campaigns drawn on the same map share one cached picture of it (and one map model).
    const mapKey = createHash('sha1').update(JSON.stringify(loaded)).digest('hex');
    s = [...app.statics.values()].find((v) => v.mapKey === mapKey) ?? { scenario: loaded, map: mapOf(loaded), mapKey };
    app.statics.set(id, s);
  }
  return s;
}

/** Forgets what this process keeps of a deleted campaign: its statics and its state copy. */
export function forgetCampaign(app: App, id: string): void {
  app.statics.delete(id);
  stateCacheOf(app).delete(id);
}
