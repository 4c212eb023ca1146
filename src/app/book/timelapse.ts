import { escapeName } from '../../engine/events/index.js';
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
import { fits, sizeText } from '../uploads.js';

/** Frame width: the whole map still reads, and a hundred frames stay well under 8 MB. */
const FRAME_WIDTH = 800;
const FRAME_MS = 700;
const LAST_FRAME_MS = 3000;

function isFrame(x: unknown): x is TickFrame {
  return typeof x === 'object' && x !== null && 'view' in x && 'fog' in x;
}

/** Every `step`-th of `items`, the last one always kept (the campaign as it stands); only the last one when `step` spans them all. */
export function everyNth<T>(items: readonly T[], step: number): T[] {
  if (step >= items.length) return items.slice(-1);
  const kept = items.filter((_, i) => i % step === 0);
  const last = items.at(-1);
  if (last !== undefined && kept.at(-1) !== last) kept.push(last);
  return kept;
}

async function encode(pngs: readonly Buffer[]): Promise<Buffer> {
  // One tick played: one frame, a still picture (an animation needs two).
  return pngs.length === 1 ? stillWebp(pngs[0] as Buffer) : animatedWebp(pngs, { delayMs: FRAME_MS, lastDelayMs: LAST_FRAME_MS });
}

/**
 * `/campaign timelapse`: the public map through the campaign as an animated WebP, one frame per
 * tick played (from the positions kept with each tick, drawn now on the render threads). In fog of
 * war a frame shows the land and the weather, as the channel saw it; the referee's `secret:true`
 * shows every army (privately). Larger than the reader may upload (`uploadLimit`, Discord's limit
 * for the server; undefined on the console: any size), it keeps one frame in every few (the last
 * always) until it fits, and says so.
 */
export async function campaignTimelapse(app: App, actor: Actor, opts: { secret: boolean; uploadLimit?: number }): Promise<Reply[]> {
  const job = readCampaign(app, { actor, orEnded: true }, (tx) => {
    if (opts.secret) requireReferee(tx, 'see every army in the time-lapse (`secret:true`)');
    const frames = tx.read.playedTicks().flatMap((t) => (isFrame(t.frame) ? [viewFor(t.frame, { kind: opts.secret ? 'referee' : 'public' })] : []));
    if (frames.length === 0) throw new UserError('timelapse.empty', 'No half period has been played yet: the time-lapse has one frame per tick.');
    return { frames, map: tx.map, mapKey: tx.mapKey, name: tx.state.name };
  });
  const pngs = await Promise.all(job.frames.map((view) => renderMap(job.map, view, { title: mapTitle(job.name, view), cacheKey: job.mapKey, width: FRAME_WIDTH, hexIds: 'none' })));
  let step = 1;
  let webp = await encode(pngs);
  const full = webp.length;
  while (!fits(webp.length, opts.uploadLimit) && step < pngs.length) {
    // Frames cost about the same each: thin them by the overshoot, a little more than needed so one more encode is rare.
    step = Math.min(pngs.length, Math.max(step + 1, Math.ceil(step * webp.length / (opts.uploadLimit ?? webp.length) * 1.1)));
    webp = await encode(everyNth(pngs, step));
  }
  const secret = opts.secret ? ' (every army: the referee\'s)' : '';
  if (!fits(webp.length, opts.uploadLimit)) {
    return [ephemeral(`The time-lapse of **${escapeName(job.name)}** is ${sizeText(full)}, and ${sizeText(webp.length)} with a single frame, more than the ${sizeText(opts.uploadLimit ?? 0)} Discord lets the bot upload here.`,
      { frames: job.frames.length, tooLarge: { bytes: full, limit: opts.uploadLimit } })];
  }
  const shown = step === 1 ? job.frames.length : everyNth(pngs, step).length;
  const file = { name: `${fileStem(job.name)}-timelapse.webp`, data: new Uint8Array(webp) };
  const text = job.frames.length === 1
    ? `Time-lapse of **${escapeName(job.name)}**: one half period played so far, so a still picture${secret}.`
    : step === 1
      ? `Time-lapse of **${escapeName(job.name)}**: ${job.frames.length} half periods, one frame each${secret}.`
      : `Time-lapse of **${escapeName(job.name)}**: ${job.frames.length} half periods, one frame in every ${step} (${shown} frames, the last one now) to fit the ${sizeText(opts.uploadLimit ?? 0)} Discord lets the bot upload here; one frame each it is ${sizeText(full)}${secret}.`;
  const data = { frames: shown, ...(step === 1 ? {} : { halfPeriods: job.frames.length, step }), bytes: webp.length, file: file.name };
  return [opts.secret ? ephemeral(text, data, [file]) : reply(text, data, [file])];
}
