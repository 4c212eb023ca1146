import type { App } from '../app/app.js';
import { redeemWebLink, stillInCampaign } from '../app/web/webAccess.js';
import { sessionView } from './campaignRoutes.js';
import { notFound, type Logins, type RouteContext } from './routeContext.js';

const SESSION_COOKIE = 'valormr_session';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/** Logins kept in a signed, HttpOnly cookie (Secure behind https). */
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
export function loginRoutes(ctx: RouteContext, limit: object): void {
  const { server, app, logins, maps } = ctx;
  server.get<{ Params: { token: string } }>('/login/:token', limit, async (req, reply) => {
    const s = redeemWebLink(app, req.params.token);
    if (!s) return notFound(reply);
    // A second campaign's link for the same person adds to their login; another person's replaces it.
    const before = logins.loginOf(req);
    logins.setLogin(reply, s.userId, before?.userId === s.userId ? [...before.campaignIds, s.campaignId] : [s.campaignId]);
    // The person's first view is drawn (unless kept already) while their browser loads the page, so
    // its first paint waits for no drawing. Its tiles are cut once first.png has gone (mapRoutes.ts):
    // cut here, they took the CPU the browser needed for that first paint.
    const view = sessionView(ctx, s, {});
    if (view) maps.first(view.key, view.draw).catch((err: unknown) => app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web map not drawn ahead'));
    // The link is spent; the page's own address carries no secret.
    return reply.header('cache-control', 'no-store').redirect(`/c/${encodeURIComponent(s.campaignId)}`, 303);
  });

  server.post('/logout', limit, async (_req, reply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.type('text/html; charset=utf-8').send('<!doctype html><meta charset="utf-8"><title>Logged out</title><p>You are logged out. <code>/web</code> gives a new link.</p>');
  });
}
