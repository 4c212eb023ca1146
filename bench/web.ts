import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openHarness } from './app.js';
import { startSettings } from './startSettings.js';
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
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: db, WEB: web ? 'on' : 'off', WEB_PORT: '0', ...startSettings().env, LOG_LEVEL: 'warn' };
    delete env.DISCORD_TOKEN;
    const child = spawn(process.execPath, [...startSettings().nodeFlags, join(ROOT, 'dist', 'src', 'main.js')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
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
 * TypeScript under tsx (`source`). `link()` asks it for a fresh `/web` link of the reader; `tick()`
 * has it play a tick and wait until the page has drawn ahead what it draws ahead (`drawAhead`: on,
 * off, or as `npm start` has it when undefined).
 */
function pageProcess(databasePath: string, reader: PageReader, source: boolean, drawAhead?: 'on' | 'off'): { link(): Promise<string>; tick(): Promise<{ played?: boolean; cpuMs?: number }>; close(): Promise<void> } {
  const script = join(ROOT, 'bench', 'webPaintChild.mjs');
  const args = [...startSettings().nodeFlags, ...(source ? ['--import', 'tsx'] : []), script, databasePath, reader.userId, reader.guildId, reader.channelId, ...(source ? ['--source'] : []), ...(drawAhead ? [`--draw-ahead=${drawAhead}`] : [])];
  const env: NodeJS.ProcessEnv = { ...process.env, ...startSettings().env };
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  type Answer = { url?: string; played?: boolean; cpuMs?: number };
  const waiting: ((answer: Answer | undefined) => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      waiting.shift()?.(JSON.parse(line) as Answer);
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const ask = (what: 'link' | 'tick') => new Promise<Answer>((resolve, reject) => {
    const fail = () => reject(new Error(`bench: no answer to ${what} from the page process: ${err.slice(0, 500)}`));
    waiting.push((answer) => (answer ? resolve(answer) : fail()));
    child.stdin.write(`${what}\n`);
    void exited.then(fail);
  });
  return {
    link: async () => {
      const { url } = await ask('link');
      if (!url) throw new Error(`bench: no /web link from the page process: ${err.slice(0, 500)}`);
      return url;
    },
    tick: () => ask('tick'),
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

/** One visit of the reader's page in a new browser context: [first paint, deep zoom] (ms after the navigation). */
async function visit(browser: { newContext(o: object): Promise<{ newPage(): Promise<{ goto(u: string): Promise<unknown>; waitForFunction(f: () => boolean, a: undefined, o: object): Promise<unknown>; evaluate<T>(f: () => T): Promise<T> }>; close(): Promise<void> }> }, url: string, timeline?: (rows: string) => void): Promise<number[]> {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as Body).document.body.dataset.deepZoom !== undefined, undefined, { timeout: 300_000 });
  const at = await page.evaluate(() => [Number((globalThis as unknown as Body).document.body.dataset.painted), Number((globalThis as unknown as Body).document.body.dataset.deepZoom)]);
  if (timeline) timeline(await resourceTimeline(page));
  await ctx.close();
  return at;
}

/**
 * webAfterTickMs / webAfterTickNoAheadMs: the first visit after a tick, as a reader meets it: a
 * freshly started process (compiled) serves the page; the reader opens it once (so they count as
 * a recent reader), a tick is played (their view changes), 6 s pass (the page's check runs), and
 * a new browser opens their page: link to the whole map drawn (first paint). With drawing ahead
 * (src/web/drawAhead.ts) and without, in turn, `runs` each (medians); the database is played one
 * half period further each time (use a copy). webAfterTickCpuMs / webAfterTickNoAheadCpuMs: the
 * page process's CPU time (render threads included) from the tick until what it draws ahead is
 * drawn (6 s and more): the difference is what drawing ahead costs per tick for one reader.
 */
export async function benchWebAfterTick(databasePath: string, reader: PageReader, opts: { readonly runs?: number; readonly timeline?: (line: string) => void } = {}): Promise<Record<string, number>> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  ensureBuilt();
  const legs = { on: [] as number[][], off: [] as number[][] };
  const cpu = { on: [] as number[], off: [] as number[] };
  try {
    for (let i = 0; i < (opts.runs ?? 3); i++) {
      for (const leg of ['on', 'off'] as const) {
        const server = pageProcess(databasePath, reader, false, leg);
        try {
          await visit(browser, await server.link());
          const ticked = await server.tick();
          if (!ticked.played) throw new Error('bench: the tick was not played (is the campaign running?)');
          cpu[leg].push(ticked.cpuMs ?? Number.NaN);
          const at = await visit(browser, await server.link(), opts.timeline ? (rows) => opts.timeline?.(`after a tick, drawing ahead ${leg}:\n${rows}`) : undefined);
          legs[leg].push(at);
        } finally {
          await server.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  const at = (xs: number[][], k: number): number => median(xs.map((x) => x[k] as number));
  const result = {
    webAfterTickMs: at(legs.on, 0), webAfterTickNoAheadMs: at(legs.off, 0), webAfterTickDeepZoomMs: at(legs.on, 1), webAfterTickNoAheadDeepZoomMs: at(legs.off, 1),
    webAfterTickCpuMs: median(cpu.on), webAfterTickNoAheadCpuMs: median(cpu.off),
  };
  figure('webAfterTickMs: the first visit after a tick, link to the whole map drawn (drawn ahead / not)', `${result.webAfterTickMs.toFixed(0)} / ${result.webAfterTickNoAheadMs.toFixed(0)} ms (each: ${legs.on.map((x) => x[0]?.toFixed(0)).join(', ')} / ${legs.off.map((x) => x[0]?.toFixed(0)).join(', ')})`, '< 1000 ms');
  figure('webAfterTickDeepZoomMs: the same, until the zoomable viewer has drawn its first view (drawn ahead / not)', `${result.webAfterTickDeepZoomMs.toFixed(0)} / ${result.webAfterTickNoAheadDeepZoomMs.toFixed(0)} ms`);
  figure('webAfterTickCpuMs: the page process\'s CPU from the tick until drawn ahead (drawn ahead / not)', `${result.webAfterTickCpuMs.toFixed(0)} / ${result.webAfterTickNoAheadCpuMs.toFixed(0)} ms (each: ${cpu.on.map((x) => x.toFixed(0)).join(', ')} / ${cpu.off.map((x) => x.toFixed(0)).join(', ')})`);
  return result;
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
