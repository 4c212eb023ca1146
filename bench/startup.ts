import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * startupMs: from spawning the console exactly as `npm run console` starts it (the package.json
 * "console" script, without npm itself) with a one-line script (`@alice /help`), to the first
 * answer line on its stdout. Fresh temporary database each run (the console's default for scripts).
 */
export async function startupOnce(scriptFile: string): Promise<number> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [cmd, ...args] = (pkg.scripts.console ?? 'tsx src/console/main.ts').split(/\s+/);
  const exe = cmd === 'node' ? process.execPath : join(ROOT, 'node_modules', '.bin', cmd ?? 'tsx');
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(exe, [...args, '--script', scriptFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const file = join(dir, 'startup.txt');
  writeFileSync(file, '@alice /help\n');
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await startupOnce(file));
  return out;
}
