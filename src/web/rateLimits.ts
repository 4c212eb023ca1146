/**
 * The rate limits of the routes anyone can reach without a session, per client address and per
 * route (each route keeps its own count; @fastify/rate-limit answers 429 past the limit). The
 * login and link routes (a `/web` link, "Log in with Discord" and its callback, logout) allow few
 * tries; the public spectator routes enough for a page, its tiles and its event stream.
 */
export interface RateLimits {
  /** Requests a window to each login or link route, from one address. */
  readonly login: number;
  /** Requests a window to each spectator route, from one address. */
  readonly spectator: number;
  /** The window, in milliseconds. */
  readonly windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { login: 20, spectator: 600, windowMs: 60_000 };

/** The route options that put a route under a limit (fastify's `config.rateLimit`). */
export function routeLimit(max: number, windowMs: number): { config: { rateLimit: { max: number; timeWindow: number } } } {
  return { config: { rateLimit: { max, timeWindow: windowMs } } };
}

/** What a request past the limit is told: to wait, and then what to do on that route. */
export function tooMany(url: string): string {
  return url.startsWith('/s/')
    ? 'Too many requests from here: wait a minute, then reload the page.'
    : 'Too many tries from here: wait a minute, then use your /web link (or run /web again for a new one).';
}
