import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What `npm start` runs the bot with, read from package.json's `start` script itself
 * (`exec env KEY=VALUE ... node FLAGS dist/src/main.js`), so that a bench child measures the
 * process `npm start` runs: the allocator settings (env) and node's flags (e.g. the young
 * generation's size). Changing the script changes every figure taken with them.
 */
export function startSettings(root: URL = new URL('../', import.meta.url)): { readonly env: Readonly<Record<string, string>>; readonly nodeFlags: readonly string[] } {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts.start!.split(/\s+/);
  const node = words.indexOf('node');
  const main = words.indexOf('dist/src/main.js');
  if (node < 0 || main < node) throw new Error(`bench: package.json's start script is not "... node FLAGS dist/src/main.js": ${pkg.scripts.start}`);
  const env = Object.fromEntries(words.slice(0, node).filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { env, nodeFlags: words.slice(node + 1, main) };
}

/**
 * Runs a bench child script (`bench/<script>`, which loads the compiled bot from dist/) with the
 * allocator settings and node flags `npm start` uses, plus `--expose-gc` and `nodeFlags`; resolves
 * to its last stdout line parsed as JSON. `root`: another checkout (built), whose script, build and
 * start settings are used instead (a before beside an after).
 *
 * The child's temporary folder (TMPDIR) is one made for it and removed when it ends, however it
 * ends (a failure, a signal): what it or the bot's code makes there (databases, pictures, the
 * memory child's bundle when run without a folder) is never left behind, whatever checkout the
 * child is from.
 */
export function runStartedChild<T>(script: string, args: readonly string[] = [], nodeFlags: readonly string[] = [], root: URL = new URL('../', import.meta.url)): Promise<T> {
  const start = startSettings(root);
  const file = new URL(`bench/${script}`, root).pathname;
  const tmp = mkdtempSync(join(tmpdir(), 'valormr-bench-child-'));
  const removeTmp = (): void => rmSync(tmp, { recursive: true, force: true });
  return new Promise<T>((resolve, reject) => {
    const proc = spawn(process.execPath, [...start.nodeFlags, '--expose-gc', ...nodeFlags, file, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...start.env, TMPDIR: tmp } });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.on('error', reject);
    proc.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`bench/${script} ${args.join(' ')} failed (exit ${code}): ${out}`));
      }
    });
  }).finally(removeTmp);
}
