import { formatGameTime, fromIndex } from '../../engine/clock/index.js';
import { describeSky } from '../../engine/weather/index.js';
import { renderMap } from '../../render/index.js';
import { NOT_IN_BOOK } from '../book/campaignBook.js';
import { channelFrameView, webMayReadLogged, type WebReader } from '../deliveries/webReads.js';
import type { App } from '../app.js';
import { readCampaign } from '../unitOfWork.js';
import { isStoreUnavailable } from '../handleError.js';
import type { CampaignTx, TickFrame } from '../campaignTx.js';
import { chronicleLines } from './chronicleLines.js';
import { readerVersion } from './readerVersion.js';
import { CHRONICLE_LINES, WEB_MAP_WIDTH, webMapScale, type PageData } from './webPage.js';

/*
 * The spectator page (issue 28, item 5): when the referee turns it on (`/campaign settings
 * spectators:N`), anyone with its public link sees the campaign's public map and chronicle as
 * they stood N half periods ago, and nothing newer: what the channel was shown then, read
 * through the deliveries' `mayRead` as the channel.
 */

const SPECTATOR: WebReader = { kind: 'spectator' };

/** The played half period the spectators see, with its map. */
interface Shown {
  readonly timeIndex: number;
  readonly lastEventId: number;
  readonly frame: TickFrame;
}

/** Whether the campaign has a spectator page, and how many half periods behind it is. */
function delayOf(tx: CampaignTx): number | undefined {
  return tx.state.settings.spectatorDelay;
}

/** The half period `delay` half periods before the latest one played; undefined while fewer have been played. */
function shownTick(tx: CampaignTx, delay: number): Shown | undefined {
  // The index first (no frame parsed), then the one frame shown.
  const index = tx.read.tickIndex();
  const at = index[index.length - 1 - delay];
  const t = at === undefined ? undefined : tx.read.playedTickAt(at.timeIndex);
  const f = t?.frame as Partial<TickFrame> | null | undefined;
  if (!t || !f || typeof f !== 'object' || !f.view || typeof f.fog !== 'boolean') return undefined;
  return { timeIndex: t.timeIndex, lastEventId: t.lastEventId, frame: { view: f.view, fog: f.fog } };
}

/**
 * The server's fingerprint of what the spectator page shows (the delay and the half period shown,
 * with its last event id: it may count hidden events, so it is never sent; the newest public line
 * up to it not withdrawn; the campaign's name); undefined when the
 * campaign is gone or has no spectator page. The page's updates poll it, then compare
 * `spectatorShown`'s version.
 */
export function spectatorVersion(app: App, campaignId: string): string | undefined {
  try {
    return readCampaign(app, { campaignId }, (tx) => {
      const delay = delayOf(tx);
      if (delay === undefined) return undefined;
      const t = shownTick(tx, delay);
      // Besides the half period shown: its newest line not withdrawn by an undo, and what the page shows of the campaign itself.
      const audiences = ['public'].filter((a) => webMayReadLogged(tx, SPECTATOR, a));
      const newest = t ? tx.read.chronicle(audiences, NOT_IN_BOOK, { upToId: t.lastEventId, last: 1 })[0]?.id ?? 0 : 0;
      return `${delay}|${t ? `${t.timeIndex}|${t.lastEventId}` : 'none'}|${newest}|${readerVersion(tx.state.name, t ? null : tx.state.settings.positions, audiences)}`;
    });
  } catch (err) {
    // No such campaign is no page (a 404); a store that cannot be reached is the route's 503, not "no page".
    if (isStoreUnavailable(err)) throw err;
    return undefined;
  }
}

/** The spectator page's data: the public chronicle up to the half period shown, and no army, intel or inbox; undefined when there is no such page. */
function spectatorPage(app: App, campaignId: string): PageData | undefined {
  return readCampaign(app, { campaignId }, (tx) => {
    const delay = delayOf(tx);
    if (delay === undefined) return undefined;
    const t = shownTick(tx, delay);
    const lines = t
      ? tx.read.chronicle(['public'].filter((a) => webMayReadLogged(tx, SPECTATOR, a)), NOT_IN_BOOK, { upToId: t.lastEventId, last: CHRONICLE_LINES })
      : [];
    return {
      campaign: {
        name: tx.state.name,
        time: t ? formatGameTime(fromIndex(t.timeIndex)) : 'before its first half period',
        status: 'running',
        weather: t ? describeSky(t.frame.view.weather) : '',
        fog: t?.frame.fog ?? tx.state.settings.positions === 'fog',
      },
      referee: false,
      viewing: { as: null, armies: [] },
      viewAs: [],
      days: [],
      day: null,
      armies: [],
      intel: [],
      chronicle: chronicleLines(lines, () => 'everyone').map((l) => ({ time: formatGameTime(l.time), day: l.time.day, to: 'everyone', text: l.text })),
      inbox: null,
      spectator: { behind: delay, shown: t !== undefined },
    };
  });
}

/** The spectator page's data with the version sent to spectators (a hash of that data and of the map shown); undefined when there is no such page. */
export function spectatorShown(app: App, campaignId: string): { data: PageData; version: string } | undefined {
  const data = spectatorPage(app, campaignId);
  if (!data) return undefined;
  return { data, version: readerVersion(data, spectatorMap(app, campaignId)?.version ?? null) };
}

/** The spectator page's map (the public map of the half period shown), its cache key, or undefined when there is none. */
export function spectatorMap(app: App, campaignId: string): { key: string; version: string; render: (width?: number) => Promise<Buffer> } | undefined {
  const job = readCampaign(app, { campaignId }, (tx) => {
    const delay = delayOf(tx);
    const t = delay === undefined ? undefined : shownTick(tx, delay);
    if (!t) return undefined;
    const view = channelFrameView(t.frame);
    return { map: tx.map, mapKey: tx.mapKey, view, title: { campaign: tx.state.name, time: formatGameTime(view.time), weather: describeSky(view.weather) } };
  });
  if (!job) return undefined;
  // Kept under the hash of what it draws (the frame as the channel may see it, its title): a picture changes only with its key.
  const version = readerVersion(job.mapKey, job.view, job.title);
  return { key: `spectator|${campaignId}|${version}`, version, render: (width = WEB_MAP_WIDTH) => renderMap(job.map, job.view, { title: job.title, cacheKey: job.mapKey, ...webMapScale(width), hexIds: 'all' }) };
}
