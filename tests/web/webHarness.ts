import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { keepLayersIn } from '../../src/render/index.js';
import { startWebServer, type WebOptions, type WebServer } from '../../src/web/server.js';

/** A campaign on the console with its web page served on a free loopback port. */
export interface WebHarness {
  readonly h: Harness;
  readonly web: WebServer;
  /** A fresh `/web` link for this user (what the console answers them). */
  link(user: string): Promise<string>;
  /** Logs in with a link: the session cookie (name=value) and where it sent the browser. */
  login(url: string): Promise<{ cookie: string; page: string }>;
  close(): Promise<void>;
}

/**
 * Fog of war; Alice commands Hadewych (Chaos), Bob Grallune (Law). Eglidain (Law) rides off to
 * 2530 and Laugher (Chaos) to 0323, out of anyone's sight; Aeskrvald stands next to Hadewych.
 * `bobAt` puts Bob's Grallune somewhere Alice cannot see (the hidden fact two worlds differ in).
 */
export function fogSetup(opts: { bobAt?: string; name?: string } = {}): string {
  return [
    `@referee /campaign create scenario:valormr name:"${opts.name ?? 'Fog'}"`,
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign settings positions:fog',
    '@referee /campaign start',
    '@referee /army edit army:eglidain hex:2530',
    '@referee /army edit army:laugher hex:0323',
    '@referee /army edit army:aeskrvald hex:0817',
    ...(opts.bobAt ? [`@referee /army edit army:grallune hex:${opts.bobAt}`] : []),
  ].join('\n');
}

/**
 * `renderCacheDir`: where the static layers and stored views go (RENDER_CACHE_DIR: set as createApp
 * sets it); default beside a SQLite file, in the OS temporary folder on PostgreSQL.
 */
export async function webHarness(opts: { setup?: string; ticks?: number; web?: Partial<WebOptions>; databasePath?: string; renderCacheDir?: string | undefined; seed?: number }): Promise<WebHarness> {
  const h = await consoleHarness({ ...(opts.setup ? { setup: opts.setup } : {}), ...(opts.databasePath ? { databasePath: opts.databasePath } : {}), ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
  if (opts.renderCacheDir !== undefined) keepLayersIn(opts.renderCacheDir);
  if (opts.ticks) await h.run(`!tick ${opts.ticks}`);
  const web = await startWebServer(h.app, { port: 0, pollMs: 200, ...opts.web });
  return {
    h,
    web,
    async link(user) {
      const out = await h.run(`@${user} /web`);
      const data = out.at(-1)?.data as { url?: string } | undefined;
      if (!data?.url) throw new Error(`no link for ${user}: ${JSON.stringify(out)}`);
      return data.url;
    },
    async login(url) {
      const r = await fetch(url, { redirect: 'manual' });
      const set = r.headers.get('set-cookie');
      if (r.status !== 303 || !set) throw new Error(`login refused: ${r.status}`);
      return { cookie: set.split(';')[0]!, page: `${web.url}${r.headers.get('location')}` };
    },
    async close() {
      await web.close();
      h.close();
    },
  };
}
