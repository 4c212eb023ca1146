import { animatedWebp, renderMap, stillWebp } from '../../render/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { readCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { TickFrame } from '../campaignTx.js';
import { viewFor } from './campaignBook.js';
import { fileStem, mapTitle } from './exportBook.js';

/** Frame width: the whole map still reads, and a hundred frames stay well under 8 MB. */
const FRAME_WIDTH = 800;
const FRAME_MS = 700;
const LAST_FRAME_MS = 3000;

function isFrame(x: unknown): x is TickFrame {
  return typeof x === 'object' && x !== null && 'view' in x && 'fog' in x;
}

/**
 * `/campaign timelapse`: the public map through the campaign as an animated WebP, one frame per
 * tick played (from the positions kept with each tick, drawn now on the render threads). In fog of
 * war a frame shows the land and the weather, as the channel saw it; the referee's `secret:true`
 * shows every army (privately).
 */
export async function campaignTimelapse(app: App, actor: Actor, opts: { secret: boolean }): Promise<Reply[]> {
  const job = readCampaign(app, { actor }, (tx) => {
    if (opts.secret) requireReferee(tx, 'see every army in the time-lapse (`secret:true`)');
    const frames = tx.read.playedTicks().flatMap((t) => (isFrame(t.frame) ? [viewFor(t.frame, { kind: opts.secret ? 'referee' : 'public' })] : []));
    if (frames.length === 0) throw new UserError('timelapse.empty', 'No half period has been played yet: the time-lapse has one frame per tick.');
    return { frames, map: tx.map, mapKey: tx.mapKey, name: tx.state.name };
  });
  const pngs = await Promise.all(job.frames.map((view) => renderMap(job.map, view, { title: mapTitle(job.name, view), cacheKey: job.mapKey, width: FRAME_WIDTH, hexIds: 'none' })));
  // One tick played: one frame, a still picture (an animation needs two).
  const webp = pngs.length === 1 ? await stillWebp(pngs[0] as Buffer) : await animatedWebp(pngs, { delayMs: FRAME_MS, lastDelayMs: LAST_FRAME_MS });
  const file = { name: `${fileStem(job.name)}-timelapse.webp`, data: new Uint8Array(webp) };
  const text = job.frames.length === 1
    ? `Time-lapse of **${job.name}**: one half period played so far, so a still picture${opts.secret ? ' (every army: the referee\'s)' : ''}.`
    : `Time-lapse of **${job.name}**: ${job.frames.length} half periods, one frame each${opts.secret ? ' (every army: the referee\'s)' : ''}.`;
  const data = { frames: job.frames.length, bytes: webp.length, file: file.name };
  return [opts.secret ? ephemeral(text, data, [file]) : reply(text, data, [file])];
}
