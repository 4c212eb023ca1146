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
 * startupMs: from spawning the compiled console (`node dist/src/console/main.js`, the code
 * `npm start` runs, without npm itself) with a one-line script (`@alice /help`), to the first
 * answer line on its stdout. Fresh temporary database each run (the console's default for scripts).
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

export async function benchStartup(dir: string, runs = 5): Promise<number[]> {
  ensureBuilt();
  const file = join(dir, 'startup.txt');
  writeFileSync(file, '@alice /help\n');
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await startupOnce(file));
  return out;
}
