import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app/app.js';
import type { WebSession } from '../app/web/webAccess.js';
import type { LiveStreams } from './eventStream.js';
import type { TileCache } from './tiles.js';

/** What every route module of the web page works with (server.ts makes it). */
export interface RouteContext {
  readonly server: FastifyInstance;
  readonly app: App;
  /** The map pictures and tiles drawn lately, shared by the person's and the spectators' routes. */
  readonly maps: TileCache;
  readonly logins: Logins;
  /** The open pages' event streams, each ended when the server closes. */
  readonly streams: Set<() => void>;
  /** The open pages by campaign, checked when their campaign moves (the server's CampaignWatch tells). */
  readonly live: LiveStreams;
  /** The hash of a reader's view of the map, per what the reader may see of its inputs (campaignRoutes.ts `mapVersion`). */
  readonly mapVersions: Map<string, string>;
  /** A reader's version of their page (page.json's), per what the reader may see of its inputs (campaignRoutes.ts `pageOf`): the event stream reads it. */
  readonly pageVersions: Map<string, string>;
  /** Told each time a reader's page or map version is worked out anew (a person's by user id, the spectators' as `spectator`): for tests to count. */
  readonly recomputed?: Recomputed;
  /** Told of each person opening their page, when their first views are drawn ahead (drawAhead.ts). */
  readonly readers?: { seen(s: WebSession): void };
}

/** Told of a reader's page or map version worked out anew (not from what the server kept). */
export type Recomputed = (reader: string, what: 'page' | 'map') => void;

/**
 * Who is reading: a signed cookie holds a person and the campaigns they logged into (by a /web
 * link, or "Log in with Discord"); logins.ts keeps it.
 */
export interface Logins {
  /** The signed cookie's login: a person and the campaigns they logged into; undefined when absent or not ours. */
  readonly loginOf: (req: FastifyRequest) => { userId: string; campaignIds: string[] } | undefined;
  readonly setLogin: (reply: FastifyReply, userId: string, campaignIds: readonly string[]) => void;
  /** The request's session if its cookie is ours, names this campaign, and its person still has a page there. */
  readonly sessionFor: (req: FastifyRequest, campaignId: string) => WebSession | undefined;
}

/** The page's own files (page.html, its script and style). */
export const ASSETS = resolve(dirname(fileURLToPath(import.meta.url)), '../../assets/web');

const STYLESHEET = '<link rel="stylesheet" href="/assets/page.css">';

/**
 * page.html as served: its style sheet written into it (2.7 KB), so that nothing holds the first
 * paint back but the page itself (a linked style sheet blocks drawing the page, the first view's
 * picture included, until it has come).
 */
export const PAGE_HTML = ((): string => {
  const html = readFileSync(join(ASSETS, 'page.html'), 'utf8');
  if (!html.includes(STYLESHEET)) throw new Error(`assets/web/page.html no longer links ${STYLESHEET}: update src/web/routeContext.ts`);
  return html.replace(STYLESHEET, () => `<style>${readFileSync(join(ASSETS, 'page.css'), 'utf8')}</style>`);
})();

const NOT_FOUND_HTML = '<!doctype html><meta charset="utf-8"><title>Not found</title><p>Nothing here. A <code>/web</code> link from the bot logs you in; it works once, for a few minutes.</p>';

/** Anything not the reader's (another campaign, another army, a spent or forged link) is this plain 404. */
export function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_FOUND_HTML);
}
