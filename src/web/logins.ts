import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app/app.js';
import { redeemWebLink, stillInCampaign, type WebSession } from '../app/web/webAccess.js';
import { notFound } from './routeContext.js';

/**
 * Who is reading: a signed cookie holds a person and the campaigns they logged into (by a /web
 * link, or "Log in with Discord"). The link routes set it; every page route reads it.
 */
export interface Logins {
  /** The signed cookie's login: a person and the campaigns they logged into; undefined when absent or not ours. */
  readonly loginOf: (req: FastifyRequest) => { userId: string; campaignIds: string[] } | undefined;
  readonly setLogin: (reply: FastifyReply, userId: string, campaignIds: readonly string[]) => void;
  /** The request's session if its cookie is ours, names this campaign, and its person still has a page there. */
  readonly sessionFor: (req: FastifyRequest, campaignId: string) => WebSession | undefined;
}

const SESSION_COOKIE = 'valormr_session';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

export function cookieLogins(app: App, secure: boolean): Logins {
  const loginOf: Logins['loginOf'] = (req) => {
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
  const setLogin: Logins['setLogin'] = (reply, userId, campaignIds) => {
    reply.setCookie(SESSION_COOKIE, JSON.stringify([userId, [...new Set(campaignIds)].slice(-20)]), { signed: true, httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_MAX_AGE_S });
  };
  const sessionFor: Logins['sessionFor'] = (req, campaignId) => {
    const login = loginOf(req);
    if (!login?.campaignIds.includes(campaignId)) return undefined;
    const s = { campaignId, userId: login.userId };
    return stillInCampaign(app, s) ? s : undefined;
  };
  return { loginOf, setLogin, sessionFor };
}

/** `/login/:token` (a /web link, spent on use) and `/logout`. */
export function loginRoutes(server: FastifyInstance, app: App, logins: Logins, limit: object): void {
  server.get<{ Params: { token: string } }>('/login/:token', limit, async (req, reply) => {
    const s = redeemWebLink(app, req.params.token);
    if (!s) return notFound(reply);
    // A second campaign's link for the same person adds to their login; another person's replaces it.
    const before = logins.loginOf(req);
    logins.setLogin(reply, s.userId, before?.userId === s.userId ? [...before.campaignIds, s.campaignId] : [s.campaignId]);
    // The link is spent; the page's own address carries no secret.
    return reply.header('cache-control', 'no-store').redirect(`/c/${encodeURIComponent(s.campaignId)}`, 303);
  });

  server.post('/logout', limit, async (_req, reply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.type('text/html; charset=utf-8').send('<!doctype html><meta charset="utf-8"><title>Logged out</title><p>You are logged out. <code>/web</code> gives a new link.</p>');
  });
}
