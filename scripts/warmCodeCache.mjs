/**
 * The last step of scripts/build.mjs: one console start of the built bot exactly as `npm start`
 * runs it (package.json's start script under `sh -c`, so with its node flags, which key the cache:
 * src/codeCache.ts), answering one `/help` on a throwaway database and leaving at the end of its
 * input. src/codeCache.ts writes the bundle's V8 code cache as that process exits, so the first
 * start after a build, an update or an install starts from a cache too, and a bot whose dist/ it
 * cannot write to (a container image, a read-only deploy) still has one.
 *
 * The start is kept away from everything real: no DISCORD_TOKEN or DATABASE_URL, settings read from
 * an empty file instead of .env (which may hold a token), the web page off, its database and route
 * tables in a temporary folder removed after. A start that fails leaves no cache and the build
 * goes on: the bot then compiles at its first start and writes the cache itself, as before.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** Settings a warming start must not take from the environment: they would reach Discord, a real database or a chosen folder. */
const KEPT_AWAY = ['DISCORD_TOKEN', 'DATABASE_URL', 'RENDER_CACHE_DIR', 'SHARDS', 'SHARD_COUNT', 'SHARD_LIST', 'SHARDING_MANAGER'];

/** Starts the built bot in `root` once as `npm start` would; returns why not when it did not answer (no cache written then). */
export function warmCodeCache(root) {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts?.start;
  if (typeof start !== 'string') return 'package.json has no start script';
  const folder = mkdtempSync(join(tmpdir(), 'valormr-warm-'));
  try {
    const settings = join(folder, 'empty.env');
    writeFileSync(settings, '');
    const env = { ...process.env, DATABASE_PATH: join(folder, 'warm.db'), WEB: 'off', DOTENV_CONFIG_PATH: settings };
    for (const key of KEPT_AWAY) delete env[key];
    const run = spawnSync('sh', ['-c', start], { cwd: root, env, input: '@builder /help\n', encoding: 'utf8', timeout: 120_000 });
    if (run.error) return run.error.message;
    if (run.status !== 0) return `the start exited with ${run.status ?? run.signal}: ${run.stderr.trim().split('\n').at(-1) ?? ''}`;
    if (!run.stdout.split('\n').some((l) => l.startsWith('{'))) return 'the start gave no answer';
    return undefined;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
