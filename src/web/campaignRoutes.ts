import { stillInCampaign, webVersion, type WebSession } from '../app/web/webAccess.js';
import { readerVersion } from '../app/web/readerVersion.js';
import { NotForYou, webMap, webMapVersion, webPage, type PageRequest } from '../app/web/webPage.js';
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

/**
 * The hash of a session's view of the map (what it draws, not the campaign's raw version: a hidden
 * change makes no new picture, and nothing keyed or sent carries it), worked out once per raw
 * version; throws NotForYou when the view is not theirs.
 */
function mapVersion(ctx: RouteContext, s: WebSession, q: PageRequest): string {
  const at = `${s.campaignId}|${s.userId}|${q.as ?? ''}|${q.day ?? ''}|${webVersion(ctx.app, s.campaignId) ?? ''}`;
  let v = ctx.mapVersions.get(at);
  if (v === undefined) {
    v = webMapVersion(ctx.app, s, q);
    ctx.mapVersions.set(at, v);
    const oldest = ctx.mapVersions.keys().next();
    if (ctx.mapVersions.size > 512 && !oldest.done) ctx.mapVersions.delete(oldest.value);
  }
  return v;
}

/** Runs `fn`, or undefined when what it reads is not the session's (NotForYou). */
function ifTheirs<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (err instanceof NotForYou) return undefined;
    throw err;
  }
}

/** What a session's page shows now, hashed (its data and its map): the version its live updates compare; undefined when it is no longer theirs. */
function shownTo(ctx: RouteContext, s: WebSession): string | undefined {
  if (!stillInCampaign(ctx.app, s)) return undefined;
  return ifTheirs(() => readerVersion(webPage(ctx.app, s, {}), mapVersion(ctx, s, {})));
}

/** A session's view of the map: its cache key (who, which view and day, and the hash of what is drawn) and how to draw it; undefined when not theirs. */
export function sessionView(ctx: RouteContext, s: WebSession, q: PageRequest): { key: string; draw: DrawAt } | undefined {
  return ifTheirs(() => ({ key: `${s.campaignId}|${s.userId}|${q.as ?? ''}|${q.day ?? ''}|${mapVersion(ctx, s, q)}`, draw: (width: number) => webMap(ctx.app, s, q, width) }));
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
    const page = ifTheirs(() => {
      const data = webPage(app, s, q);
      return { ...data, version: readerVersion(data, mapVersion(ctx, s, q)) };
    });
    return page ? reply.header('cache-control', 'no-store').send(page) : notFound(reply);
  });

  const personView: MapViewOf = (req) => {
    const s = logins.sessionFor(req, req.params.id);
    const q = pageRequest(req.query);
    return s && q ? sessionView(ctx, s, q) : undefined;
  };
  mapRoutes(ctx, '/c', personView, { cacheControl: 'private, no-cache', extra: {} });

  server.get<{ Params: { id: string } }>('/c/:id/events', async (req, reply) => {
    const s = logins.sessionFor(req, req.params.id);
    if (!s) return notFound(reply);
    eventStream(req, reply, {
      changed: () => webVersion(app, s.campaignId),
      shown: () => shownTo(ctx, s),
    }, ctx);
    return reply;
  });
}
