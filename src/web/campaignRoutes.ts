import { stillInCampaign, type WebSession } from '../app/web/webAccess.js';
import { readerInputs } from '../app/web/readerInputs.js';
import { readerVersion } from '../app/web/readerVersion.js';
import { NotForYou, webMap, webMapVersion, webPage, type PageData, type PageRequest } from '../app/web/webPage.js';
import { eventStream } from './eventStream.js';
import { mapRoutes, type MapViewOf } from './mapRoutes.js';
import type { DrawAt } from './tiles.js';
import { notFound, PAGE_HTML, type RouteContext } from './routeContext.js';

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
 * change makes no new picture, and nothing keyed or sent carries it), worked out once per
 * `readerInputs` (what the reader may see of what it is made from); throws NotForYou when the view is not theirs.
 */
function mapVersion(ctx: RouteContext, s: WebSession, q: PageRequest, at = viewAt(ctx, s, q)): string {
  const known = ctx.mapVersions.get(at);
  if (known !== undefined) return known;
  const version = webMapVersion(ctx.app, s, q);
  ctx.recomputed?.(s.userId, 'map');
  return remember(ctx.mapVersions, at, version);
}

/**
 * A session's page data and its reader version (page.json); the version is kept per
 * `readerInputs`, so the page's event stream, opened right after, does not work the page out again.
 */
function pageOf(ctx: RouteContext, s: WebSession, q: PageRequest): PageData & { version: string } {
  const data = webPage(ctx.app, s, q);
  // The reader's key is worked out once for both versions (it reads the store: about 4 ms on a long campaign).
  const at = viewAt(ctx, s, q);
  const version = remember(ctx.pageVersions, at, readerVersion(data, mapVersion(ctx, s, q, at)));
  return { ...data, version };
}

/** Remembers `value` under `at` in a small map that forgets its oldest entry past 512. */
function remember(map: Map<string, string>, at: string, value: string): string {
  map.set(at, value);
  const oldest = map.keys().next();
  if (map.size > 512 && !oldest.done) map.delete(oldest.value);
  return value;
}

/**
 * Where a session's view is kept: who, which view and day, and what it is made from as far as the
 * reader may see (`readerInputs`; server-side only), never the campaign's raw version: a change
 * hidden from the reader finds their view where it was, and nothing is worked out again for them.
 */
function viewAt(ctx: RouteContext, s: WebSession, q: PageRequest): string {
  return `${s.campaignId}|${s.userId}|${q.as ?? ''}|${q.day ?? ''}|${readerInputs(ctx.app, s, q) ?? ''}`;
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
  const known = ctx.pageVersions.get(viewAt(ctx, s, {}));
  if (known !== undefined) return known;
  ctx.recomputed?.(s.userId, 'page');
  return ifTheirs(() => pageOf(ctx, s, {}).version);
}

/** A session's view of the map: its cache key (who, which view and day, and the hash of what is drawn) and how to draw it; undefined when not theirs. */
export function sessionView(ctx: RouteContext, s: WebSession, q: PageRequest): { key: string; draw: DrawAt } | undefined {
  return ifTheirs(() => ({ key: `${s.campaignId}|${s.userId}|${q.as ?? ''}|${q.day ?? ''}|${mapVersion(ctx, s, q)}`, draw: (width: number) => webMap(ctx.app, s, q, width) }));
}

/**
 * A person's page: page.html with the first view of their map in it (an image the browser asks for
 * while it reads the page, first of all it asks for: the first paint waits for no script and no
 * style sheet).
 */
function personPage(campaignId: string): string {
  return PAGE_HTML.replace('<!--first-view-->', `<img id="first-view" elementtiming="first-view" fetchpriority="high" alt="" src="/c/${encodeURIComponent(campaignId)}/first.png">`);
}

/**
 * A person's private page of a campaign (`/c/:id`): the page, its data (page.json), its map and
 * tiles, and its event stream. Each reads through a use-case of src/app/web, which decides what
 * the session's person may know.
 */
export function campaignRoutes(ctx: RouteContext): void {
  const { server, app, logins } = ctx;
  server.get<{ Params: { id: string } }>('/c/:id', async (req, reply) => {
    const s = logins.sessionFor(req, req.params.id);
    if (!s) return notFound(reply);
    ctx.readers?.seen(s);
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(personPage(req.params.id));
  });

  server.get<{ Params: { id: string } }>('/c/:id/page.json', async (req, reply) => {
    const s = logins.sessionFor(req, req.params.id);
    const q = pageRequest(req.query);
    if (!s || !q) return notFound(reply);
    const page = ifTheirs(() => pageOf(ctx, s, q));
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
    eventStream(req, reply, s.campaignId, {
      // What the reader may see of what their page is made from, checked every time: a hidden change moves nothing here.
      changed: () => readerInputs(app, s, {}),
      shown: () => shownTo(ctx, s),
    }, ctx);
    return reply;
  });
}
