import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { App } from '../app/app.js';
import { webCampaignsOf } from '../app/web/webAccess.js';

/** An OAuth2 provider for "Log in with Discord": Discord's endpoints by default, a fake one in tests. */
export interface OAuthProvider {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Discord's API base (https://discord.com/api); the authorize page is https://discord.com/oauth2/authorize. */
  readonly apiBase: string;
  readonly authorizeUrl: string;
}

/** Discord's endpoints for an application. */
export function discordProvider(clientId: string, clientSecret: string, apiBase = 'https://discord.com/api'): OAuthProvider {
  const authorizeUrl = apiBase === 'https://discord.com/api' ? 'https://discord.com/oauth2/authorize' : `${apiBase}/oauth2/authorize`;
  return { clientId, clientSecret, apiBase, authorizeUrl };
}

const STATE_COOKIE = 'valormr_oauth';

interface LoginHelpers {
  readonly secure: boolean;
  readonly limit: object;
  readonly setLogin: (reply: FastifyReply, userId: string, campaignIds: readonly string[]) => void;
  readonly notFound: (reply: FastifyReply) => FastifyReply;
}

const html = (body: string): string => `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="stylesheet" href="/assets/page.css"><title>Valormr</title><main class="plain">${body}</main>`;
const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * "Log in with Discord": OAuth2's authorization-code flow with the `identify` scope only. The
 * state parameter is random, kept in a signed short-lived cookie and checked on the way back; the
 * code is exchanged server to server; Discord tells who the person is, and the bot already knows
 * which campaigns they referee or command in.
 */
export function discordLogin(server: FastifyInstance, app: App, provider: OAuthProvider, h: LoginHelpers): void {
  const redirectUri = (): string => `${app.web?.publicUrl ?? ''}/login/discord/callback`;

  server.get('/login/discord', h.limit, async (_req, reply) => {
    const state = randomBytes(24).toString('base64url');
    reply.setCookie(STATE_COOKIE, state, { signed: true, httpOnly: true, sameSite: 'lax', secure: h.secure, path: '/login/discord', maxAge: 600 });
    const q = new URLSearchParams({ response_type: 'code', client_id: provider.clientId, scope: 'identify', state, redirect_uri: redirectUri(), prompt: 'none' });
    return reply.redirect(`${provider.authorizeUrl}?${q.toString()}`, 303);
  });

  server.get<{ Querystring: { code?: unknown; state?: unknown } }>('/login/discord/callback', h.limit, async (req, reply) => {
    const raw = req.cookies[STATE_COOKIE];
    const kept = raw ? req.unsignCookie(raw) : undefined;
    reply.clearCookie(STATE_COOKIE, { path: '/login/discord' });
    const { code, state } = req.query;
    if (!kept?.valid || typeof state !== 'string' || state !== kept.value || typeof code !== 'string' || code.length === 0) return h.notFound(reply);
    const userId = await discordUserId(provider, code, redirectUri());
    if (!userId) return h.notFound(reply);
    const campaigns = webCampaignsOf(app, userId);
    if (campaigns.length === 0) return reply.type('text/html; charset=utf-8').send(html('<p>You referee or command in no campaign of this bot. A referee gives you an army with <code>/campaign assign</code>.</p>'));
    h.setLogin(reply, userId, campaigns.map((c) => c.id));
    if (campaigns.length === 1) return reply.redirect(`/c/${encodeURIComponent(campaigns[0]!.id)}`, 303);
    const list = campaigns.map((c) => `<li><a href="/c/${encodeURIComponent(c.id)}">${escape(c.name)}</a></li>`).join('');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html(`<h1>Your campaigns</h1><ul>${list}</ul>`));
  });
}

/** The code exchanged for a token, the token for the person's Discord id; undefined when the provider refuses. */
async function discordUserId(p: OAuthProvider, code: string, redirectUri: string): Promise<string | undefined> {
  const token = await fetch(`${p.apiBase}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: p.clientId, client_secret: p.clientSecret }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!token.ok) return undefined;
  const { access_token: access } = (await token.json()) as { access_token?: unknown };
  if (typeof access !== 'string') return undefined;
  const me = await fetch(`${p.apiBase}/users/@me`, { headers: { authorization: `Bearer ${access}` }, signal: AbortSignal.timeout(10_000) });
  if (!me.ok) return undefined;
  const { id } = (await me.json()) as { id?: unknown };
  return typeof id === 'string' && /^\d{1,20}$/.test(id) ? id : undefined;
}
