import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
