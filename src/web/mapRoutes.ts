import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotForYou, WEB_MAP_WIDTH } from '../app/web/webPage.js';
import { notFound, type RouteContext } from './routeContext.js';
import type { DrawAt } from './tiles.js';

/** A reader's view of the map: its cache key and how to draw it, or undefined when not theirs (a 404). */
export type MapViewOf = (req: FastifyRequest<{ Params: { id: string } }>) => { key: string; draw: DrawAt } | undefined;

type TileRoute = { Params: { id: string; level: string; x: string; y: string } };

function tileParams(p: { level: string; x: string; y: string }): [number, number, number] | undefined {
  const n = [p.level, p.x, p.y.replace(/\.png$/, '')];
  return n.every((v) => /^\d{1,3}$/.test(v)) ? (n.map(Number) as [number, number, number]) : undefined;
}

/** Each picture's entity tag: a hash of its bytes, worked out once per picture (so it tells only what the bytes already show). */
const tags = new WeakMap<Buffer, string>();
function tagOf(png: Buffer): string {
  let tag = tags.get(png);
  if (tag === undefined) {
    tag = `"${createHash('sha256').update(png).digest('base64url').slice(0, 22)}"`;
    tags.set(png, tag);
  }
  return tag;
}

/** A picture, with its entity tag: a browser that has these bytes already (If-None-Match) gets a 304 and no body. */
function sendPng(req: FastifyRequest, reply: FastifyReply, png: Buffer, cacheControl: string): FastifyReply {
  const tag = tagOf(png);
  reply.header('cache-control', cacheControl).header('etag', tag);
  const asked = req.headers['if-none-match'];
  if (asked !== undefined && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === tag)) return reply.code(304).send();
  return reply.type('image/png').send(png);
}

/** What is not the reader's (NotForYou, thrown by the use-case) is a 404. */
async function guarded<T>(reply: FastifyReply, f: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof NotForYou) return notFound(reply);
    throw err;
  }
}

/**
 * The map routes of a page (`/c/:id`: the person's, private; `/s/:id`: the spectators', public):
 * `map.png`, the whole 3,200 px picture; `first.png`, the first view (the whole map 800 px wide,
 * shown before the deep-zoom viewer has loaded); `map.json`, the tile pyramid's size;
 * `tile/L/X/Y.png`. Pictures carry an entity tag (a hash of their bytes) and are revalidated.
 */
export function mapRoutes(ctx: RouteContext, prefix: '/c' | '/s', viewOf: MapViewOf, how: { readonly cacheControl: string; readonly extra: object }): void {
  const { server, maps } = ctx;
  const { cacheControl, extra } = how;
  server.get<{ Params: { id: string } }>(`${prefix}/:id/map.png`, extra, async (req, reply) => {
    const v = viewOf(req);
    if (!v) return notFound(reply);
    return guarded(reply, async () => sendPng(req, reply, await maps.picture(v.key, WEB_MAP_WIDTH, v.draw), cacheControl));
  });
  server.get<{ Params: { id: string } }>(`${prefix}/:id/first.png`, extra, async (req, reply) => {
    const v = viewOf(req);
    if (!v) return notFound(reply);
    const sent = await guarded(reply, async () => sendPng(req, reply, await maps.first(v.key, v.draw), cacheControl));
    // The first view is on its way: now the viewer's first tiles are cut, ready when it asks (after the first paint).
    reply.raw.once('finish', () => maps.warm(v.key, v.draw).catch((err: unknown) => ctx.app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web map tiles not cut ahead')));
    return sent;
  });
  server.get<{ Params: { id: string } }>(`${prefix}/:id/map.json`, extra, async (req, reply) => {
    const v = viewOf(req);
    if (!v) return notFound(reply);
    return guarded(reply, async () => reply.header('cache-control', 'no-store').send(await maps.pyramid(v.key, v.draw)));
  });
  server.get<TileRoute>(`${prefix}/:id/tile/:level/:x/:y`, extra, async (req, reply) => {
    const v = viewOf(req);
    const t = tileParams(req.params);
    if (!v || !t) return notFound(reply);
    return guarded(reply, async () => {
      const png = await maps.tile(v.key, v.draw, ...t);
      return png ? sendPng(req, reply, png, cacheControl) : notFound(reply);
    });
  });
}
