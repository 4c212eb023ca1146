import { describeSky } from '../../engine/weather/index.js';
import { publicMapView } from '../../engine/views/index.js';
import { renderMap } from '../../render/index.js';
import type { App } from '../app.js';
import { gameTimeLabel } from '../format.js';
import { inCampaign } from '../session.js';

/**
 * Renders the public map of a campaign and queues it for the channel. Rendering is asynchronous,
 * so it runs after the tick's transaction has committed: the view is read in one transaction,
 * drawn, then queued in a second one. A failed render is logged and skipped (the chronicle is
 * already queued).
 */
export async function postSnapshot(app: App, campaignId: string, caption: string): Promise<void> {
  try {
    const job = inCampaign(app, { campaignId }, (tx) => ({
      result: {
        map: tx.map,
        mapKey: tx.mapKey,
        view: publicMapView(tx.state),
        title: { campaign: tx.state.name, time: gameTimeLabel(tx.state), weather: describeSky(tx.state.weather) },
        name: `map-day${tx.state.clock.day}-${['morning', 'afternoon', 'evening', 'night'][tx.state.clock.half]}.png`,
      },
    }));
    const png = await renderMap(job.map, job.view, { title: job.title, cacheKey: job.mapKey, hexIds: 'subset' });
    inCampaign(app, { campaignId }, () => ({ outbox: [{ to: 'channel', content: caption, data: { map: job.name }, files: [{ name: job.name, data: png }] }], result: undefined }));
  } catch (err) {
    app.logger.error({ campaignId, err: (err as Error).message }, 'map snapshot failed');
  }
}
