import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds the compiled bot (dist/) in `root` if a source changed since the last build, as `npm start` does. */
export function ensureBuilt(root = ROOT): void {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`bench: the build in ${root} failed`);
}

/**
 * One start of the bot in `root`, console mode, from the spawn to the first answered command:
 * `@alice /help` written on its stdin, answered as one JSON line on its stdout (npm's own banner
 * lines are not JSON). Fresh database each run; the web page is off (WEB=off) so runs never fight
 * over its port.
 * - `npm`: `npm start`, the real entry a user types (npm, its prestart staleness check, then the
 *   start script) — startupMs.
 * - `script`: package.json's start script run by `sh -c` as npm runs it (`exec env ... node FLAGS
 *   dist/src/main.js`, the bundled entry), without npm and the prestart step — startupNodeMs.
 */
export async function startOnce(root: string, databasePath: string, via: 'npm' | 'script'): Promise<number> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [command, args] = via === 'npm' ? ['npm', ['start']] : ['sh', ['-c', pkg.scripts.start!]];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: databasePath, WEB: 'off' };
    delete env.DISCORD_TOKEN;
    const child = spawn(command, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env });
    let done = false;
    let out = '';
    child.stdin.write('@alice /help\n');
    child.stdout.on('data', (d: Buffer) => {
      if (done) return;
      out += d.toString();
      if (!out.split('\n').some((l) => l.startsWith('{'))) return;
      done = true;
      resolve(performance.now() - t0);
      child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!done) reject(new Error(`${via === 'npm' ? 'npm start' : 'the start script'} in ${root} exited with ${code} before answering: ${out}`));
    });
  });
}

/** The start-up figures of one checkout: each entry's times, in ms. */
export interface StartTimes {
  readonly npm: number[];
  readonly node: number[];
  /** A start of the script with no code cache of its flags (it compiles, then writes one): what a start under other flags meets. */
  readonly nodeFirst: number;
}

/** Removes the compiled bot's code caches (src/codeCache.ts) in `root`: the next start compiles as after a build. */
function dropCodeCaches(root: string): void {
  const out = join(root, 'dist', 'src');
  for (const f of readdirSync(out)) if (/^main\.cjs\..*\.cache$/.test(f)) rmSync(join(out, f), { force: true });
}

/**
 * `runs` starts of each kind, in turn (so a busy machine slows both alike); with `vsRoot`, the same
 * starts of another checkout (built there first) alternate with these, start by start: a before and
 * after taken side by side.
 */
export async function benchStartup(dir: string, runs = 5, vsRoot?: string): Promise<{ here: StartTimes; vs?: StartTimes }> {
  const roots = vsRoot === undefined ? [ROOT] : [ROOT, vsRoot];
  for (const root of roots) ensureBuilt(root);
  const times = roots.map((): { npm: number[]; node: number[] } => ({ npm: [], node: [] }));
  const first: number[] = [];
  for (const [k, root] of roots.entries()) {
    dropCodeCaches(root);
    first.push(await startOnce(root, join(dir, `start-first-${k}.db`), 'script'));
  }
  for (let i = 0; i < runs; i++) {
    for (const [k, root] of roots.entries()) {
      times[k]!.npm.push(await startOnce(root, join(dir, `start-${k}-${i}.db`), 'npm'));
      times[k]!.node.push(await startOnce(root, join(dir, `start-node-${k}-${i}.db`), 'script'));
    }
  }
  const all = times.map((t, k): StartTimes => ({ ...t, nodeFirst: first[k]! }));
  return all[1] === undefined ? { here: all[0]! } : { here: all[0]!, vs: all[1] };
}
