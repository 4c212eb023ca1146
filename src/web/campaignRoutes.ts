import type { App } from '../app/app.js';
import { stillInCampaign, webVersion, type WebSession } from '../app/web/webAccess.js';
import { NotForYou, webMap, webPage, type PageRequest } from '../app/web/webPage.js';
import { eventStream } from './eventStream.js';
import { mapRoutes, type MapViewOf } from './mapRoutes.js';
import type { DrawAt } from './tiles.js';
import { ASSETS, notFound, type RouteContext } from './routeContext.js';

/** The query a page request carries: `as` (an army id) and `day` (a whole number); anything else is not a page. */
function pageRequest(q: unknown): PageRequest | undefined {
  const query = (q ?? {}) as Record<string, unknown>;
  const as = query.as;
  const day = query.day;
  if (as !== undefined && (typeof as !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(as))) return undefined;
  if (day !== undefined && (typeof day !== 'string' || !/^\d{1,5}$/.test(day))) return undefined;
  return { ...(as !== undefined ? { as } : {}), ...(day !== undefined ? { day: Number(day) } : {}) };
}

/** A session's view of the map: its cache key and how to draw it. */
export function sessionView(app: App, s: WebSession, q: PageRequest): { key: string; draw: DrawAt } {
  const version = webVersion(app, s.campaignId);
  return { key: `${s.campaignId}|${s.userId}|${q.as ?? ''}|${q.day ?? ''}|${q.day === undefined ? version : ''}`, draw: (width) => webMap(app, s, q, width) };
}

/**
 * A person's private page of a campaign (`/c/:id`): the page, its data (page.json), its map and
 * tiles, and its event stream. Each reads through a use-case of src/app/web, which decides what
 * the session's person may know.
 */
export function campaignRoutes(ctx: RouteContext): void {
  const { server, app, logins } = ctx;
  server.get<{ Params: { id: string } }>('/c/:id', async (req, reply) => {
    if (!logins.sessionFor(req, req.params.id)) return notFound(reply);
    return reply.header('cache-control', 'no-store').sendFile('page.html', ASSETS);
  });

  server.get<{ Params: { id: string } }>('/c/:id/page.json', async (req, reply) => {
    const s = logins.sessionFor(req, req.params.id);
    const q = pageRequest(req.query);
    if (!s || !q) return notFound(reply);
    try {
      const data = webPage(app, s, q);
      return reply.header('cache-control', 'no-store').send({ ...data, version: webVersion(app, s.campaignId) });
    } catch (err) {
      if (err instanceof NotForYou) return notFound(reply);
      throw err;
    }
  });

  const personView: MapViewOf = (req) => {
    const s = logins.sessionFor(req, req.params.id);
    const q = pageRequest(req.query);
    return s && q ? sessionView(app, s, q) : undefined;
  };
  mapRoutes(ctx, '/c', personView, { cacheControl: 'private, no-cache', extra: {} });

  server.get<{ Params: { id: string } }>('/c/:id/events', async (req, reply) => {
    const s = logins.sessionFor(req, req.params.id);
    if (!s) return notFound(reply);
    eventStream(req, reply, {
      changed: () => webVersion(app, s.campaignId),
      shown: () => (stillInCampaign(app, s) ? webVersion(app, s.campaignId) : undefined),
    }, ctx);
    return reply;
  });
}
