import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { App } from '../app/app.js';
import { WEB_MAP_WIDTH } from '../app/web/webPage.js';
import { WEB_LINK_TTL_MS } from '../app/web/webKeys.js';
import { isStoreUnavailable, STORE_UNAVAILABLE_TEXT } from '../app/handleError.js';
import { campaignRoutes, sessionView } from './campaignRoutes.js';
import { CampaignWatch, type PollSchedule } from './campaignWatch.js';
import { DrawAhead } from './drawAhead.js';
import { discordLogin, type OAuthProvider } from './discordLogin.js';
import { LiveStreams } from './eventStream.js';
import { cookieLogins, loginRoutes } from './logins.js';
import { DEFAULT_RATE_LIMITS, routeLimit, tooMany, type RateLimits } from './rateLimits.js';
import { ASSETS, notFound, type Recomputed, type RouteContext } from './routeContext.js';
import { spectatorRoutes } from './spectatorRoutes.js';
import { StoredViews } from './storedViews.js';
import { TileCache, type Drawn } from './tiles.js';

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
  /**
   * How often the campaigns of open pages and recent readers are checked for a change another
   * process committed (one statement for all of them; default 2 s). A commit in this process is
   * pushed at once.
   */
  readonly pollMs?: number;
  /**
   * Whose X-Forwarded-For to believe (fastify's `trustProxy`: `loopback`, addresses or networks
   * separated by commas; false: none). Default: `loopback` with a public URL (a proxy on this
   * machine), none without.
   */
  readonly trustProxy?: string | false;
  /** Told of every picture drawn and tile cut (a cache miss): for tests to count. */
  readonly drawn?: Drawn;
  /** Told each time a reader's page or map version is worked out anew: for tests to count (a hidden change must cause none). */
  readonly recomputed?: Recomputed;
  /** Told after every round of the watch and every push to a campaign's open pages: for tests to wait for one. */
  readonly polled?: () => void;
  /** Runs the watch's rounds instead of a timer every `pollMs` (a test runs them after each command); a commit is then told at the next round. */
  readonly schedule?: PollSchedule;
  /** "Log in with Discord" (OAuth2 code flow, identify scope), when configured. */
  readonly oauth?: OAuthProvider;
  /** The rate limits of the login, link and spectator routes (default DEFAULT_RATE_LIMITS: 20 and 600 a minute). */
  readonly rateLimits?: RateLimits;
  /** Draws recent readers' first views ahead when their campaign moves (drawAhead.ts); off unless true (startWebFromConfig turns it on). */
  readonly drawAhead?: boolean;
}

export interface WebServer {
  readonly url: string;
  /** Resolves once the first views being drawn ahead are drawn (at once when drawing ahead is off). */
  drawnAhead(): Promise<void>;
  close(): Promise<void>;
}

const OSD = join(dirname(createRequire(import.meta.url).resolve('openseadragon/package.json')), 'build', 'openseadragon');

/**
 * The web transport: the campaign page served by the bot. Read-only: every route reads through a
 * use-case of src/app/web, which decides what the session's person may know; anything not theirs
 * (another campaign, another army, a spent or forged link, a forged cookie) is a plain 404. The
 * routes live in route modules: logins.ts (links, logout), discordLogin.ts, campaignRoutes.ts (a
 * person's page), spectatorRoutes.ts (the public page), mapRoutes.ts (pictures and tiles of both).
 */
export async function startWebServer(app: App, opts: WebOptions): Promise<WebServer> {
  const secret = opts.secret ?? randomBytes(32);
  const host = opts.host ?? '127.0.0.1';
  const server: FastifyInstance = Fastify({ logger: false, routerOptions: { maxParamLength: 400 }, trustProxy: opts.trustProxy ?? (opts.publicUrl !== undefined ? 'loopback' : false) });
  const secure = opts.publicUrl?.startsWith('https://') ?? false;
  await registerPlugins(server, secret, secure);
  const stored = new StoredViews();
  const maps = new TileCache(WEB_MAP_WIDTH, { pictures: 48, tiles: 400, stored, ...(opts.drawn ? { drawn: opts.drawn } : {}) });
  const watch = new CampaignWatch(app, { everyMs: opts.pollMs ?? 2000, schedule: opts.schedule });
  const ahead = opts.drawAhead
    ? new DrawAhead({ app, dir: stored.dir, viewOf: (s) => sessionView(ctx, s, {}), first: (key, draw) => maps.first(key, draw) }, watch)
    : undefined;
  const ctx: RouteContext = {
    server,
    app,
    maps,
    ...(ahead ? { readers: ahead } : {}),
    logins: cookieLogins(app, secure),
    streams: new Set(),
    live: new LiveStreams(watch, opts.polled),
    mapVersions: new Map(),
    pageVersions: new Map(),
    ...(opts.recomputed ? { recomputed: opts.recomputed } : {}),
  };
  const limits = opts.rateLimits ?? DEFAULT_RATE_LIMITS;
  const loginLimit = routeLimit(limits.login, limits.windowMs);

  server.get('/favicon.ico', async (_req, reply) => reply.code(204).send());
  server.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><meta charset="utf-8"><title>Valormr</title><p>The Valormr campaign bot. Run <code>/web</code> in your campaign\'s channel for a private link to your page.</p>'));
  loginRoutes(ctx, loginLimit);
  if (opts.oauth) discordLogin(server, app, opts.oauth, { secure, limit: loginLimit, setLogin: ctx.logins.setLogin, notFound });
  campaignRoutes(ctx);
  spectatorRoutes(ctx, routeLimit(limits.spectator, limits.windowMs));
  handleErrors(server, app);

  const address = await server.listen({ host, port: opts.port });
  const url = new URL(address);
  const publicUrl = (opts.publicUrl ?? `http://${host}:${url.port}`).replace(/\/$/, '');
  app.web = { publicUrl, secret, linkTtlMs: WEB_LINK_TTL_MS };
  return {
    url: `http://${host}:${url.port}`,
    drawnAhead: async () => ahead?.drawn(),
    async close() {
      ahead?.close();
      watch.close();
      delete app.web;
      for (const end of [...ctx.streams]) end();
      await server.close();
    },
  };
}

/** Security headers, signed cookies, per-route rate limits, and the page's static files (its own and OpenSeadragon's). */
async function registerPlugins(server: FastifyInstance, secret: Buffer, secure: boolean): Promise<void> {
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
}

/** Unknown addresses are the plain 404; too many requests a 429 that says what to do; anything else logged (never a login token) and a 500. */
function handleErrors(server: FastifyInstance, app: App): void {
  server.setNotFoundHandler((_req, reply) => notFound(reply));
  server.setErrorHandler((err, req, reply) => {
    if ((err as { statusCode?: number }).statusCode === 429) return reply.code(429).type('text/plain; charset=utf-8').send(tooMany(req.url));
    if (isStoreUnavailable(err)) {
      app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web page: the campaign store is unavailable');
      return storeUnavailable(req.url, reply);
    }
    app.logger.error({ err: err instanceof Error ? err.message : String(err), url: req.url.replace(/\/login\/[^/?]+/, '/login/…') }, 'web page failed');
    return reply.code(500).type('text/plain; charset=utf-8').send('Something went wrong on this page; try again in a moment.');
  });
}

/**
 * The store (PostgreSQL) cannot be reached: 503, try again in 30 s, said as the asker reads it: a
 * page to a browser opening a page (or a /web link), JSON to the page's data requests, plain text
 * for the rest (pictures, tiles, live updates).
 */
function storeUnavailable(url: string, reply: FastifyReply): FastifyReply {
  const path = url.split('?')[0] ?? '';
  reply.code(503).header('retry-after', '30').header('cache-control', 'no-store');
  if (path.endsWith('.json')) return reply.type('application/json; charset=utf-8').send({ error: 'storeUnavailable', message: STORE_UNAVAILABLE_TEXT });
  if (/^\/([cs]\/[^/]+|login\/[^/]+)\/?$/.test(path)) {
    return reply.type('text/html; charset=utf-8').send(`<!doctype html><meta charset="utf-8"><title>Valormr: try again in a minute</title><p>${STORE_UNAVAILABLE_TEXT}</p>`);
  }
  return reply.type('text/plain; charset=utf-8').send(STORE_UNAVAILABLE_TEXT);
}
