import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openHarness } from './app.js';
import { ensureBuilt } from './startup.js';
import { figure, median } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A database with `count` started campaigns (one per channel), for the idle bot. */
async function campaigns(dir: string, count: number): Promise<string> {
  const db = join(dir, 'web-idle.db');
  for (let i = 0; i < count; i++) {
    const h = openHarness(db, `web-idle-${i}`);
    for (const l of [`@referee /campaign create scenario:valormr name:"Idle ${i}"`, '@referee /campaign assign army:hadewych user:alice', '@referee /campaign assign army:grallune user:bob', '@referee /campaign start']) {
      const outs = await h.handle(l);
      const error = outs.find((o) => (o.data as { error?: string } | undefined)?.error);
      if (error) throw new Error(`bench: ${l} refused: ${error.content}`);
    }
    h.close();
  }
  return db;
}

/** The VmRSS of a process, in MB (Linux). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

/**
 * The compiled bot as `npm start` runs it without a token (`node dist/src/main.js`: the console on
 * DATABASE_PATH, with the allocator settings of package.json), with the web page on (port 0) or
 * off: answers one command, then stays idle `idleMs`; its resident memory then, in MB.
 */
function idleBot(db: string, web: boolean, idleMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: db, WEB: web ? 'on' : 'off', WEB_PORT: '0', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', LOG_LEVEL: 'warn' };
    delete env.DISCORD_TOKEN;
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
    let out = '';
    let answered = false;
    let rss = 0;
    child.stdin.write('@alice /help\n');
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (answered || !out.split('\n').some((l) => l.startsWith('{'))) return;
      answered = true;
      setTimeout(() => {
        try {
          rss = rssOf(child.pid!);
        } catch (err) {
          reject(err as Error);
        }
        child.stdin.end();
      }, idleMs);
    });
    child.stderr.on('data', () => undefined);
    child.on('error', reject);
    child.on('exit', (code) => (answered && rss > 0 ? resolve(rss) : reject(new Error(`the bot exited with ${code} before it was measured: ${out.slice(0, 500)}`))));
  });
}

/**
 * webIdleRssMb: what the campaign web page adds to an idle bot's resident memory: the compiled
 * bot with 3 started campaigns, idle 5 s after answering one command, with the page on minus with
 * it off (WEB=off), medians of 3 runs each, taken in turn.
 */
export async function benchWebIdleRss(dir: string, runs = 3): Promise<{ webIdleRssMb: number; idleRssWebOffMb: number; idleRssWebOnMb: number }> {
  ensureBuilt();
  const db = await campaigns(dir, 3);
  const off: number[] = [];
  const on: number[] = [];
  for (let i = 0; i < runs; i++) {
    off.push(await idleBot(db, false, 5000));
    on.push(await idleBot(db, true, 5000));
  }
  const idleRssWebOffMb = median(off);
  const idleRssWebOnMb = median(on);
  const webIdleRssMb = idleRssWebOnMb - idleRssWebOffMb;
  figure('webIdleRssMb: the web page on minus off, compiled bot idle with 3 campaigns', `${webIdleRssMb.toFixed(1)} MB (${idleRssWebOnMb.toFixed(0)} vs ${idleRssWebOffMb.toFixed(0)} MB)`, '< 30 MB');
  return { webIdleRssMb, idleRssWebOffMb, idleRssWebOnMb };
}

/** The page's requests as its browser saw them: each one's start and end (ms after the navigation), size and address, in order. */
async function resourceTimeline(page: { evaluate<T>(f: () => T): Promise<T> }): Promise<string> {
  const rows = await page.evaluate(() => {
    const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string; startTime: number; responseStart: number; responseEnd: number; transferSize: number }[] } }).performance;
    return [...perf.getEntriesByType('navigation'), ...perf.getEntriesByType('resource')].map((e) => ({ name: e.name, start: e.startTime, first: e.responseStart, end: e.responseEnd, bytes: e.transferSize }));
  });
  return rows.map((r) => `  ${r.start.toFixed(0).padStart(6)} ${r.first.toFixed(0).padStart(6)} ${r.end.toFixed(0).padStart(6)} ${String(r.bytes).padStart(8)}  ${r.name.replace(/^https?:\/\/[^/]+/, '').replace(/\/login\/[^/?]+/, '/login/…')}`).join('\n');
}

type Body = { document: { body: { dataset: Record<string, string | undefined> } } };

/** The person whose page is measured: their id and the campaign's guild and channel (where their `/web` runs). */
export interface PageReader {
  readonly userId: string;
  readonly guildId: string;
  readonly channelId: string;
}

/**
 * A freshly started process serving the page (bench/webPaintChild.mjs): the compiled bot, or the
 * TypeScript under tsx (`source`). `link()` asks it for a fresh `/web` link of the reader.
 */
function pageProcess(databasePath: string, reader: PageReader, source: boolean): { link(): Promise<string>; close(): Promise<void> } {
  const script = join(ROOT, 'bench', 'webPaintChild.mjs');
  const args = [...(source ? ['--import', 'tsx'] : []), script, databasePath, reader.userId, reader.guildId, reader.channelId, ...(source ? ['--source'] : [])];
  const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  const waiting: ((url: string) => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const url = (JSON.parse(line) as { url?: string }).url;
      waiting.shift()?.(url ?? '');
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    link: () => new Promise<string>((resolve, reject) => {
      waiting.push((url) => (url ? resolve(url) : reject(new Error(`bench: no /web link from the page process: ${err.slice(0, 500)}`))));
      child.stdin.write('link\n');
      void exited.then(() => reject(new Error(`bench: the page process stopped: ${err.slice(0, 500)}`)));
    }),
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * webFirstPaintMs: a commander's page on a long campaign (the soak's), in Debian's headless
 * Chromium at a desktop viewport (1366 x 900): from the navigation to their `/web` link until the
 * whole map is drawn on the screen at the screen's resolution (`performance.now()` when the page's
 * first-view image is decoded: the map 800 px wide, fitted as the viewer's home view fits it).
 * webDeepZoomMs: until the deep-zoom viewer has drawn every tile of the same first view (its
 * fully-loaded), the map then pannable and zoomable. Cold: the first page of a freshly started
 * process (bench/webPaintChild.mjs: the compiled bot as `npm start` runs it, or with `source` the
 * TypeScript under tsx), asked for as soon as that process has answered `/web`: nothing cached,
 * no render thread running. The first process finds no first view stored beside the database
 * (src/web/storedViews.ts: the directory is emptied before it): webFirstPaintUnstoredMs, its
 * first page drawn from scratch; each later process finds the view the one before stored, as a
 * restarted bot does for a reader whose view has not changed since: webFirstPaintMs, the median of
 * the other `runs - 1`. Warm: a second browser on the same view, from the same process (the
 * pictures from its cache). `timeline` is told each visit's requests as the browser saw them.
 */
export async function benchWebFirstPaint(databasePath: string, reader: PageReader, opts: { readonly runs?: number; readonly source?: boolean; readonly timeline?: (line: string) => void } = {}): Promise<{ webFirstPaintMs: number; webFirstPaintWarmMs: number; webDeepZoomMs: number; webDeepZoomWarmMs: number; webFirstPaintUnstoredMs: number; webDeepZoomUnstoredMs: number }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const cold: number[][] = [];
  const warm: number[][] = [];
  const runs = Math.max(2, opts.runs ?? 4);
  if (!opts.source) ensureBuilt();
  rmSync(join(`${databasePath}-layers`, 'web'), { recursive: true, force: true });
  try {
    for (let i = 0; i < runs; i++) {
      const server = pageProcess(databasePath, reader, opts.source ?? false);
      try {
        for (const into of [cold, warm]) {
          const url = await server.link();
          const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
          const page = await ctx.newPage();
          await page.goto(url);
          await page.waitForFunction(() => (globalThis as unknown as Body).document.body.dataset.deepZoom !== undefined, undefined, { timeout: 300_000 });
          const at = await page.evaluate(() => [Number((globalThis as unknown as Body).document.body.dataset.painted), Number((globalThis as unknown as Body).document.body.dataset.deepZoom)]);
          into.push(at);
          if (opts.timeline) opts.timeline(`${into === cold ? 'cold' : 'warm'}: first paint ${at[0]?.toFixed(0)} ms, deep zoom ${at[1]?.toFixed(0)} ms:\n${await resourceTimeline(page)}`);
          await ctx.close();
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
  }
  const at = (xs: number[][], k: number): number => median(xs.map((x) => x[k] as number));
  const unstored = cold.shift() as number[];
  const [webFirstPaintMs, webFirstPaintWarmMs, webDeepZoomMs, webDeepZoomWarmMs] = [at(cold, 0), at(warm, 0), at(cold, 1), at(warm, 1)];
  const [webFirstPaintUnstoredMs, webDeepZoomUnstoredMs] = unstored as [number, number];
  const how = opts.source ? 'TypeScript under tsx' : 'compiled';
  figure(`webFirstPaintMs: a commander's page, link to the whole map drawn, a fresh process (${how}) (cold, view stored / warm)`, `${webFirstPaintMs.toFixed(0)} / ${webFirstPaintWarmMs.toFixed(0)} ms`, '< 1000 ms');
  figure(`webDeepZoomMs: the same, until the zoomable viewer has drawn its first view (${how}) (cold, view stored / warm)`, `${webDeepZoomMs.toFixed(0)} / ${webDeepZoomWarmMs.toFixed(0)} ms`);
  figure(`webFirstPaintUnstoredMs / webDeepZoomUnstoredMs: a fresh process, no view stored (${how})`, `${webFirstPaintUnstoredMs.toFixed(0)} / ${webDeepZoomUnstoredMs.toFixed(0)} ms`);
  return { webFirstPaintMs, webFirstPaintWarmMs, webDeepZoomMs, webDeepZoomWarmMs, webFirstPaintUnstoredMs, webDeepZoomUnstoredMs };
}
