import { spectatorMap, spectatorShown, spectatorVersion } from '../app/web/spectatorPage.js';
import { eventStream } from './eventStream.js';
import { mapRoutes, type MapViewOf } from './mapRoutes.js';
import { notFound, PAGE_HTML, type RouteContext } from './routeContext.js';

/** The spectator page (`/s/:id`): public, when the referee has turned it on; a plain 404 otherwise. Rate-limited per address. */
export function spectatorRoutes(ctx: RouteContext, spectatorLimit: object): void {
  const { server, app } = ctx;
  server.get<{ Params: { id: string } }>('/s/:id', spectatorLimit, async (req, reply) => {
    if (spectatorVersion(app, req.params.id) === undefined) return notFound(reply);
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(PAGE_HTML);
  });

  server.get<{ Params: { id: string } }>('/s/:id/page.json', spectatorLimit, async (req, reply) => {
    // A campaign that is not there (never was, or deleted) is the plain 404, as on every route (it was a 500).
    const shown = spectatorVersion(app, req.params.id) === undefined ? undefined : spectatorShown(app, req.params.id);
    if (!shown) return notFound(reply);
    return reply.header('cache-control', 'no-store').send({ ...shown.data, version: shown.version });
  });

  const spectatorView: MapViewOf = (req) => {
    const job = spectatorVersion(app, req.params.id) === undefined ? undefined : spectatorMap(app, req.params.id);
    return job ? { key: job.key, draw: job.render } : undefined;
  };
  mapRoutes(ctx, '/s', spectatorView, { cacheControl: 'public, no-cache', extra: spectatorLimit });

  server.get<{ Params: { id: string } }>('/s/:id/events', spectatorLimit, async (req, reply) => {
    const id = req.params.id;
    if (spectatorVersion(app, id) === undefined) return notFound(reply);
    // What the spectators are shown (the half period, and the delay), checked every time: a change after it, or hidden from the channel, moves nothing here.
    const shown = (): string | undefined => {
      ctx.recomputed?.('spectator', 'page');
      return spectatorShown(app, id)?.version;
    };
    eventStream(req, reply, id, { changed: () => spectatorVersion(app, id), shown }, ctx);
    return reply;
  });
}
