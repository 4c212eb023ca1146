import { isStoreUnavailable } from '../app/handleError.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What an open page watches: `changed` (the campaign's raw version, moved by hidden changes too) is
 * cheap and read every poll; `shown` (the reader's version: a hash of what their page shows,
 * undefined when nothing) is read only after a change, and an update is pushed only when it moved,
 * so a change out of the reader's sight sends them nothing.
 */
export interface Watched {
  readonly changed: () => string | undefined;
  readonly shown: () => string | undefined;
}

/**
 * How an open page's checks are run: `check` again and again until the returned function is
 * called. By default every `pollMs`; a test may run the checks itself (one after each command),
 * so that which changes an open page is told of does not depend on timing.
 */
export type PollSchedule = (check: () => void) => () => void;

const every = (ms: number): PollSchedule => (check) => {
  const timer = setInterval(check, ms);
  return () => clearInterval(timer);
};

/**
 * An open page's server-sent events: `update` when what it shows changed, `gone` when it is no
 * longer the reader's to see. The stream is kept in `streams` until it ends, so a closing server
 * can end it.
 */
export function eventStream(req: FastifyRequest, reply: FastifyReply, watched: Watched, how: { readonly pollMs: number; readonly streams: Set<() => void>; readonly polled?: () => void; readonly schedule?: PollSchedule}): void {
  const { changed, shown } = watched;
  // Read before the stream opens: a store that cannot be read now is the route's error (a 503), not a silent stream.
  let lastChange = changed();
  let last = shown();
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(`retry: 3000\nevent: hello\ndata: ${JSON.stringify(last ?? null)}\n\n`);
  let checks = 0;
  // Every tenth check, changed or not: a heartbeat counted only on unchanged checks came later
  // after a hidden change, and told a reader that something they cannot see had happened.
  const beat = (): void => {
    if (++checks % 10 === 0 && !res.writableEnded) res.write(': still here\n\n');
  };
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
  const stop = (how.schedule ?? every(how.pollMs))(() => {
    try {
      check();
    } catch (err) {
      // The store cannot be read now (PostgreSQL unreachable): the page stays open and the next check
      // tries again. Anything else ends the stream: the browser opens it again (retry), and that
      // request's error goes through the server's error handler (logged, a 500), not a crash here.
      if (!isStoreUnavailable(err)) {
        end();
        return;
      }
    }
    beat();
    how.polled?.();
  });
  const end = (): void => {
    stop();
    how.streams.delete(end);
    if (!res.writableEnded) res.end();
  };
  how.streams.add(end);
  req.raw.on('close', end);
}
