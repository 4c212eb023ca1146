import { commanderMapView, publicMapView } from '../../engine/views/index.js';
import { describeSky } from '../../engine/weather/index.js';
import { renderMap } from '../../render/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { hexOrPlace } from '../places.js';
import { gameTimeLabel } from '../format.js';
import { ephemeral, type Reply } from '../messages.js';
import { armiesOf } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import { requireControl } from '../armies.js';
import { commanderKnowledge } from './knowledge.js';

export interface MapRequest {
  readonly view?: string | undefined;
  readonly around?: string | undefined;
  readonly radius?: number | undefined;
  readonly labels?: string | undefined;
  /** With view:mine, one army's view: your own, or any army's for the referee ("see it as"). */
  readonly army?: string | undefined;
}

/**
 * `/map`: the public map, or (`view:mine`) the caller's own view with their armies highlighted,
 * their ordered paths and what they know privately. Always answered privately so the channel only
 * gets the map after each tick.
 */
export async function mapSnapshot(app: App, actor: Actor, req: MapRequest): Promise<Reply[]> {
  const job = inCampaign(app, { actor }, (tx) => {
    const around = req.around === undefined ? undefined : hexOrPlace(tx.map, req.around, 'around', 'map.badHex');
    const mine = armiesOf(tx, actor.userId);
    let view;
    let knowledge;
    if (req.view === 'mine' || req.army !== undefined) {
      const ids = req.army !== undefined ? [requireControl(tx, req.army).army.id] : mine.length > 0 ? mine : tx.isReferee ? Object.keys(tx.state.armies) : [];
      if (ids.length === 0) throw new UserError('map.noArmy', 'You command no army here, so there is no "mine" view; `/map` shows the public map.');
      knowledge = commanderKnowledge(tx, ids);
      view = commanderMapView(tx.state, ids, knowledge);
    } else {
      view = publicMapView(tx.state);
    }
    return {
      result: {
        map: tx.map, mapKey: tx.mapKey, view, around, knowledge,
        title: { campaign: tx.state.name, time: gameTimeLabel(tx.state), weather: describeSky(tx.state.weather) },
        name: `map-${knowledge ? 'private' : 'public'}-day${tx.state.clock.day}.png`,
      },
    };
  });
  const png = await renderMap(job.map, job.view, {
    title: job.title,
    cacheKey: job.mapKey,
    labels: req.labels !== 'off',
    hexIds: job.around ? 'all' : 'subset',
    ...(job.around ? { around: job.around, radius: req.radius ?? 5 } : {}),
  });
  const what = req.army !== undefined ? `The view of ${req.army}` : req.view === 'mine' ? 'Your view' : 'The map';
  return [ephemeral(`${what}, ${job.title.time}${job.around ? `, around ${req.around}` : ''}.`, { view: job.knowledge ? 'mine' : 'public', around: req.around ?? null, ...(job.knowledge ? { estimates: job.knowledge.estimates, stepTimes: job.knowledge.stepTimes } : {}) }, [{ name: job.name, data: png }])];
}
