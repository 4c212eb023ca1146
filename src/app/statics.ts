import { createHash } from 'node:crypto';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import { scenarioText } from '../db/campaignRepo.js';
import type { App } from './app.js';
import { attachRouteTables } from './movement/routeTableFile.js';
import { mapOf } from './scenarios.js';
import { stateCacheOf } from './stateCache.js';

/**
 * The scenario and map of a campaign never change after creation: cache them per campaign, and
 * share one copy between campaigns created from the same scenario.
 */
export function staticsOf(app: App, id: string): { scenario: ScenarioDoc; map: MapModel; mapKey: string } {
  let s = app.statics.get(id);
  if (!s) {
    const text = scenarioText(app.db, id);
    if (text === undefined) throw new Error(`campaign ${id} has no scenario`);
    // Campaigns drawn on the same map share one cached picture of it (and one map model, and one
    // parsed document: a thousand campaigns of one scenario parse it once). The key is the hash of
    // the document's JSON as stored, which is JSON.stringify of the document.
    const mapKey = createHash('sha1').update(text).digest('hex');
    s = sharedStatics(app).get(mapKey);
    if (!s) {
      s = parsed(text, mapKey);
      attachRouteTables(app, s.map, mapKey);
      sharedStatics(app).set(mapKey, s);
    }
    app.statics.set(id, s);
  }
  return s;
}

type Statics = { readonly scenario: ScenarioDoc; readonly map: MapModel; readonly mapKey: string };

function parsed(text: string, mapKey: string): Statics {
  const scenario = JSON.parse(text) as ScenarioDoc;
  return { scenario, map: mapOf(scenario), mapKey };
}

/** The statics by their map key, per app: what campaigns of one scenario share. */
const shared = new WeakMap<App, Map<string, Statics>>();
function sharedStatics(app: App): Map<string, Statics> {
  let m = shared.get(app);
  if (!m) {
    m = new Map();
    shared.set(app, m);
  }
  return m;
}

/** Forgets what this process keeps of a deleted campaign: its statics and its state copy. */
export function forgetCampaign(app: App, id: string): void {
  app.statics.delete(id);
  stateCacheOf(app).delete(id);
}
