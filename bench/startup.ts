import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds the compiled bot (dist/) if a source changed since the last build, as `npm start` does. */
export function ensureBuilt(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('bench: the build failed');
}

/**
 * startupNodeMs: from spawning the compiled console (`node dist/src/console/main.js`, without npm
 * and its prestart step) with a one-line script (`@alice /help`), to the first answer line on its
 * stdout. Fresh temporary database each run (the console's default for scripts).
 */
export async function startupOnce(scriptFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'console', 'main.js'), '--script', scriptFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let done = false;
    child.stdout.on('data', () => {
      if (done) return;
      done = true;
      resolve(performance.now() - t0);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!done) reject(new Error(`console exited with ${code} before answering`));
    });
  });
}

/**
 * startupMs: `npm start`, the real entry a user types (npm, its prestart staleness check, then
 * `node dist/src/main.js`, which without DISCORD_TOKEN runs the console on DATABASE_PATH), from
 * the spawn to the first answered command: `@alice /help` written on its stdin, answered as one
 * JSON line on its stdout (npm's own banner lines are not JSON). Fresh database each run; the web
 * page is off (WEB=off) so runs never fight over its port.
 */
export async function npmStartOnce(databasePath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: databasePath, WEB: 'off' };
    delete env.DISCORD_TOKEN;
    const child = spawn('npm', ['start'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
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
      if (!done) reject(new Error(`npm start exited with ${code} before answering: ${out}`));
    });
  });
}

export async function benchStartup(dir: string, runs = 5): Promise<{ npm: number[]; node: number[] }> {
  ensureBuilt();
  const file = join(dir, 'startup.txt');
  writeFileSync(file, '@alice /help\n');
  const npm: number[] = [];
  const node: number[] = [];
  // In turn, so a busy machine slows both alike.
  for (let i = 0; i < runs; i++) {
    npm.push(await npmStartOnce(join(dir, `start-${i}.db`)));
    node.push(await startupOnce(file));
  }
  return { npm, node };
}
