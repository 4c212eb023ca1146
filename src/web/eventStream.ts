import { isStoreUnavailable } from '../app/handleError.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CampaignWatch } from './campaignWatch.js';

/**
 * What an open page watches: `changed` (what its reader may see of what their page is made from,
 * or the campaign's raw version) is read each time its campaign moved; `shown` (the reader's
 * version: a hash of what their page shows, undefined when nothing) only after `changed` moved, and
 * an update is pushed only when it moved, so a change out of the reader's sight sends them nothing.
 */
export interface Watched {
  readonly changed: () => string | undefined;
  readonly shown: () => string | undefined;
}

/** A heartbeat (`: still here`) every this many rounds of the watch, to every open page alike. */
const BEAT_EVERY = 10;

/**
 * The open pages' event streams by campaign. Nothing is polled per page: a page is checked when its
 * campaign moved, as the server's one CampaignWatch tells it (a commit in this process at once;
 * another process's at the watch's next round, one statement for all campaigns).
 */
export class LiveStreams {
  private readonly byCampaign = new Map<string, Set<() => void>>();
  private readonly beats = new Set<() => void>();
  private rounds = 0;

  /** `polled`: told after each round and each campaign's pages checked (tests wait for one). */
  constructor(watch: CampaignWatch, private readonly polled?: () => void) {
    watch.watch(() => this.byCampaign.keys());
    watch.onMoved((campaignId) => {
      const checks = this.byCampaign.get(campaignId);
      if (!checks) return;
      for (const check of [...checks]) check();
      this.polled?.();
    });
    watch.onRound(() => {
      // Every tenth round, changed or not: a heartbeat counted on unchanged checks came later after
      // a hidden change, and told a reader that something they cannot see had happened.
      if (++this.rounds % BEAT_EVERY === 0) for (const beat of [...this.beats]) beat();
      this.polled?.();
    });
  }

  /** An open page of `campaignId`: `check` runs when the campaign moved, `beat` with the heartbeat; the returned function removes it. */
  add(campaignId: string, check: () => void, beat: () => void): () => void {
    let checks = this.byCampaign.get(campaignId);
    if (!checks) {
      checks = new Set();
      this.byCampaign.set(campaignId, checks);
    }
    checks.add(check);
    this.beats.add(beat);
    return () => {
      checks.delete(check);
      if (checks.size === 0 && this.byCampaign.get(campaignId) === checks) this.byCampaign.delete(campaignId);
      this.beats.delete(beat);
    };
  }
}

/**
 * An open page's server-sent events: `update` when what it shows changed, `gone` when it is no
 * longer the reader's to see. The stream is kept in `streams` until it ends, so a closing server
 * can end it.
 */
export function eventStream(req: FastifyRequest, reply: FastifyReply, campaignId: string, watched: Watched, how: { readonly live: LiveStreams; readonly streams: Set<() => void> }): void {
  const { changed, shown } = watched;
  // Read before the stream opens: a store that cannot be read now is the route's error (a 503), not a silent stream.
  let lastChange = changed();
  let last = shown();
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(`retry: 3000\nevent: hello\ndata: ${JSON.stringify(last ?? null)}\n\n`);
  const check = (): void => {
    const c = changed();
    if (c !== undefined && c === lastChange) return;
    lastChange = c;
    // A change may have taken the page away (an army reassigned, the campaign deleted, the spectators turned off).
    const now = c === undefined ? undefined : shown();
    if (now === undefined) {
      res.write('event: gone\ndata: null\n\n');
      end();
      return;
    }
    if (now !== last) {
      last = now;
      res.write(`event: update\ndata: ${JSON.stringify(now)}\n\n`);
    }
  };
  const checked = (): void => {
    try {
      check();
    } catch (err) {
      // The store cannot be read now (PostgreSQL unreachable): the page stays open and the next
      // change tries again. Anything else ends the stream: the browser opens it again (retry), and
      // that request's error goes through the server's error handler (logged, a 500), not a crash here.
      if (!isStoreUnavailable(err)) end();
    }
  };
  const beat = (): void => {
    if (!res.writableEnded) res.write(': still here\n\n');
  };
  const remove = how.live.add(campaignId, checked, beat);
  const end = (): void => {
    remove();
    how.streams.delete(end);
    if (!res.writableEnded) res.end();
  };
  how.streams.add(end);
  req.raw.on('close', end);
}
