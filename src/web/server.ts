import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { App } from '../app/app.js';
import { redeemWebLink, stillInCampaign, webVersion, type WebSession } from '../app/web/webAccess.js';
import { NotForYou, WEB_MAP_WIDTH, webMap, webPage, type PageRequest } from '../app/web/webPage.js';
import { spectatorMap, spectatorPage, spectatorVersion } from '../app/web/spectatorPage.js';
import { TileCache, type DrawAt, type Drawn } from './tiles.js';
import { discordLogin, type OAuthProvider } from './discordLogin.js';
import { DEFAULT_RATE_LIMITS, routeLimit, tooMany, type RateLimits } from './rateLimits.js';

/** How the web page is served. */
export interface WebOptions {
  /** Address to listen on (default 127.0.0.1: loopback only; a TLS proxy in front in production). */
  readonly host?: string;
  /** Port (0: any free one). */
  readonly port: number;
  /** Where people reach it (e.g. https://valormr.example.org); default http://host:port. */
  readonly publicUrl?: string;
  /** Signs links and cookies; a random one per start when absent (sessions then end with the process). */
  readonly secret?: Buffer;
  /** How often an open page's campaign is checked for a change (server-sent events). */
  readonly pollMs?: number;
  /**
   * Whose X-Forwarded-For to believe (fastify's `trustProxy`: `loopback`, addresses or networks
   * separated by commas; false: none). Default: `loopback` with a public URL (a proxy on this
   * machine), none without.
   */
  readonly trustProxy?: string | false;
  /** Told of every picture drawn and tile cut (a cache miss): for tests to count. */
  readonly drawn?: Drawn;
  /** "Log in with Discord" (OAuth2 code flow, identify scope), when configured. */
  readonly oauth?: OAuthProvider;
  /** The rate limits of the login, link and spectator routes (default DEFAULT_RATE_LIMITS: 20 and 600 a minute). */
  readonly rateLimits?: RateLimits;
}

export interface WebServer {
  readonly url: string;
  close(): Promise<void>;
}

const SESSION_COOKIE = 'valormr_session';
const LINK_TTL_MS = 10 * 60_000;
const SESSION_MAX_AGE_S = 30 * 24 * 3600;
const ASSETS = resolve(dirname(fileURLToPath(import.meta.url)), '../../assets/web');
const OSD = join(dirname(createRequire(import.meta.url).resolve('openseadragon/package.json')), 'build', 'openseadragon');

const NOT_FOUND_HTML = '<!doctype html><meta charset="utf-8"><title>Not found</title><p>Nothing here. A <code>/web</code> link from the bot logs you in; it works once, for a few minutes.</p>';

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_FOUND_HTML);
}

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
 * The web transport: the campaign page served by the bot. Read-only: every route reads through a
 * use-case of src/app/web, which decides what the session's person may know; anything not theirs
 * (another campaign, another army, a spent or forged link, a forged cookie) is a plain 404.
 */
export async function startWebServer(app: App, opts: WebOptions): Promise<WebServer> {
  const secret = opts.secret ?? randomBytes(32);
  const host = opts.host ?? '127.0.0.1';
  const server: FastifyInstance = Fastify({ logger: false, routerOptions: { maxParamLength: 400 }, trustProxy: opts.trustProxy ?? (opts.publicUrl !== undefined ? 'loopback' : false) });
  const secure = opts.publicUrl?.startsWith('https://') ?? false;
  await server.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"], frameAncestors: ["'none'"], formAction: ["'self'"], baseUri: ["'none'"], objectSrc: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: secure,
  });
  await server.register(fastifyCookie, { secret });
  await server.register(fastifyRateLimit, { global: false });
  await server.register(fastifyStatic, { root: ASSETS, prefix: '/assets/', maxAge: '1h', index: false });
  await server.register(fastifyStatic, { root: OSD, prefix: '/assets/osd/', decorateReply: false, maxAge: '1d', index: false });
  const maps = new TileCache(WEB_MAP_WIDTH, { pictures: 24, tiles: 400, ...(opts.drawn ? { drawn: opts.drawn } : {}) });
  /** The open pages' event streams, each ended when the server closes (else closing would wait for every open page). */
  const streams = new Set<() => void>();
  const limits = opts.rateLimits ?? DEFAULT_RATE_LIMITS;
  const loginLimit = routeLimit(limits.login, limits.windowMs);

  /** The signed cookie's login: a person and the campaigns they logged into; undefined when absent or not ours. */
  const loginOf = (req: FastifyRequest): { userId: string; campaignIds: string[] } | undefined => {
    const raw = req.cookies[SESSION_COOKIE];
    const un = raw ? req.unsignCookie(raw) : undefined;
    if (!un?.valid || un.value === null) return undefined;
    try {
      const parsed: unknown = JSON.parse(un.value);
      if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || !Array.isArray(parsed[1]) || !parsed[1].every((c) => typeof c === 'string')) return undefined;
      return { userId: parsed[0], campaignIds: parsed[1] as string[] };
    } catch {
      return undefined;
    }
  };
  const setLogin = (reply: FastifyReply, userId: string, campaignIds: readonly string[]): void => {
    reply.setCookie(SESSION_COOKIE, JSON.stringify([userId, [...new Set(campaignIds)].slice(-20)]), { signed: true, httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_MAX_AGE_S });
  };
  /** The request's session if its cookie is ours, names this campaign, and its person still has a page there. */
  const sessionFor = (req: FastifyRequest, campaignId: string): WebSession | undefined => {
    const login = loginOf(req);
    if (!login?.campaignIds.includes(campaignId)) return undefined;
    const s = { campaignId, userId: login.userId };
    return stillInCampaign(app, s) ? s : undefined;
  };

  server.get('/favicon.ico', async (_req, reply) => reply.code(204).send());
  server.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><meta charset="utf-8"><title>Valormr</title><p>The Valormr campaign bot. Run <code>/web</code> in your campaign\'s channel for a private link to your page.</p>'));

  server.get<{ Params: { token: string } }>('/login/:token', loginLimit, async (req, reply) => {
    const s = redeemWebLink(app, req.params.token);
    if (!s) return notFound(reply);
    // A second campaign's link for the same person adds to their login; another person's replaces it.
    const before = loginOf(req);
    setLogin(reply, s.userId, before?.userId === s.userId ? [...before.campaignIds, s.campaignId] : [s.campaignId]);
    // The person's map is drawn and cut while their browser loads the page (its first paint waits for no drawing).
    const view = sessionView(s, {});
    maps.warm(view.key, view.draw).catch((err: unknown) => app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web map not drawn ahead'));
    // The link is spent; the page's own address carries no secret.
    return reply.header('cache-control', 'no-store').redirect(`/c/${encodeURIComponent(s.campaignId)}`, 303);
  });

  server.post('/logout', loginLimit, async (_req, reply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.type('text/html; charset=utf-8').send('<!doctype html><meta charset="utf-8"><title>Logged out</title><p>You are logged out. <code>/web</code> gives a new link.</p>');
  });

  if (opts.oauth) discordLogin(server, app, opts.oauth, { secure, limit: loginLimit, setLogin, notFound });

  server.get<{ Params: { id: string } }>('/c/:id', async (req, reply) => {
    if (!sessionFor(req, req.params.id)) return notFound(reply);
    return reply.header('cache-control', 'no-store').sendFile('page.html', ASSETS);
  });

  server.get<{ Params: { id: string } }>('/c/:id/page.json', async (req, reply) => {
    const s = sessionFor(req, req.params.id);
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

  /** A session's view of the map: its cache key and how to draw it. */
  const sessionView = (s: WebSession, q: PageRequest): { key: string; draw: DrawAt } => {
    const version = webVersion(app, s.campaignId);
    return { key: `${s.campaignId}|${s.userId}|${q.as ?? ''}|${q.day ?? ''}|${q.day === undefined ? version : ''}`, draw: (width) => webMap(app, s, q, width) };
  };
  /** A person's view of the map, or undefined when not theirs (a 404). */
  const personView = (req: FastifyRequest<{ Params: { id: string } }>): { key: string; draw: DrawAt } | undefined => {
    const s = sessionFor(req, req.params.id);
    const q = pageRequest(req.query);
    return s && q ? sessionView(s, q) : undefined;
  };
  /** The spectators' view of the map, or undefined when there is none. */
  const spectatorView = (req: FastifyRequest<{ Params: { id: string } }>): { key: string; draw: DrawAt } | undefined => {
    const job = spectatorVersion(app, req.params.id) === undefined ? undefined : spectatorMap(app, req.params.id);
    return job ? { key: job.key, draw: job.render } : undefined;
  };
  const tileParams = (p: { level: string; x: string; y: string }): [number, number, number] | undefined => {
    const n = [p.level, p.x, p.y.replace(/\.png$/, '')];
    return n.every((v) => /^\d{1,3}$/.test(v)) ? (n.map(Number) as [number, number, number]) : undefined;
  };
  type TileRoute = { Params: { id: string; level: string; x: string; y: string } };

  /**
   * The map routes of a page (`/c/:id`: the person's, private; `/s/:id`: the spectators', public):
   * `map.png`, the whole 3,200 px picture; `map.json`, the tile pyramid's size; `tile/L/X/Y.png`.
   */
  const mapRoutes = (prefix: '/c' | '/s', viewOf: (req: FastifyRequest<{ Params: { id: string } }>) => { key: string; draw: DrawAt } | undefined, cacheControl: string, extra: object): void => {
    const guarded = async <T>(reply: FastifyReply, f: () => Promise<T>): Promise<T | FastifyReply> => {
      try {
        return await f();
      } catch (err) {
        if (err instanceof NotForYou) return notFound(reply);
        throw err;
      }
    };
    server.get<{ Params: { id: string } }>(`${prefix}/:id/map.png`, extra, async (req, reply) => {
      const v = viewOf(req);
      if (!v) return notFound(reply);
      return guarded(reply, async () => reply.type('image/png').header('cache-control', cacheControl).send(await maps.picture(v.key, WEB_MAP_WIDTH, v.draw)));
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
        return png ? reply.type('image/png').header('cache-control', cacheControl).send(png) : notFound(reply);
      });
    });
  };
  mapRoutes('/c', personView, 'private, no-cache', {});

  /**
   * An open page's server-sent events: `update` when what it shows changed, `gone` when it is no
   * longer the reader's to see. `changed` is cheap (read every poll); `shown` (what the page shows,
   * undefined when nothing) is read only after a change.
   */
  const eventStream = (req: FastifyRequest, reply: FastifyReply, changed: () => string | undefined, shown: () => string | undefined): void => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    let lastChange = changed();
    let last = shown();
    res.write(`retry: 3000\nevent: hello\ndata: ${JSON.stringify(last ?? null)}\n\n`);
    let beats = 0;
    const timer = setInterval(() => {
      const c = changed();
      if (c !== undefined && c === lastChange) {
        if (++beats % 10 === 0) res.write(': still here\n\n');
        return;
      }
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
    }, opts.pollMs ?? 2000);
    const end = (): void => {
      clearInterval(timer);
      streams.delete(end);
      if (!res.writableEnded) res.end();
    };
    streams.add(end);
    req.raw.on('close', end);
  };

  server.get<{ Params: { id: string } }>('/c/:id/events', async (req, reply) => {
    const s = sessionFor(req, req.params.id);
    if (!s) return notFound(reply);
    eventStream(req, reply, () => webVersion(app, s.campaignId), () => (stillInCampaign(app, s) ? webVersion(app, s.campaignId) : undefined));
    return reply;
  });

  // The spectator page: public, when the referee has turned it on; a plain 404 otherwise.
  const spectatorLimit = routeLimit(limits.spectator, limits.windowMs);
  server.get<{ Params: { id: string } }>('/s/:id', spectatorLimit, async (req, reply) => {
    if (spectatorVersion(app, req.params.id) === undefined) return notFound(reply);
    return reply.header('cache-control', 'no-store').sendFile('page.html', ASSETS);
  });

  server.get<{ Params: { id: string } }>('/s/:id/page.json', spectatorLimit, async (req, reply) => {
    const version = spectatorVersion(app, req.params.id);
    const data = version === undefined ? undefined : spectatorPage(app, req.params.id);
    if (!data || version === undefined) return notFound(reply);
    return reply.header('cache-control', 'no-store').send({ ...data, version });
  });

  mapRoutes('/s', spectatorView, 'public, no-cache', spectatorLimit);

  server.get<{ Params: { id: string } }>('/s/:id/events', spectatorLimit, async (req, reply) => {
    const id = req.params.id;
    if (spectatorVersion(app, id) === undefined) return notFound(reply);
    eventStream(req, reply, () => webVersion(app, id), () => spectatorVersion(app, id));
    return reply;
  });

  server.setNotFoundHandler((_req, reply) => notFound(reply));
  server.setErrorHandler((err, req, reply) => {
    if ((err as { statusCode?: number }).statusCode === 429) return reply.code(429).type('text/plain; charset=utf-8').send(tooMany(req.url));
    app.logger.error({ err: err instanceof Error ? err.message : String(err), url: req.url.replace(/\/login\/[^/?]+/, '/login/…') }, 'web page failed');
    return reply.code(500).type('text/plain; charset=utf-8').send('Something went wrong on this page; try again in a moment.');
  });

  const address = await server.listen({ host, port: opts.port });
  const url = new URL(address);
  const publicUrl = (opts.publicUrl ?? `http://${host}:${url.port}`).replace(/\/$/, '');
  app.web = { publicUrl, secret, linkTtlMs: LINK_TTL_MS };
  return {
    url: `http://${host}:${url.port}`,
    async close() {
      delete app.web;
      for (const end of [...streams]) end();
      await server.close();
    },
  };
}
