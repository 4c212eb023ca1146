/**
 * The build leaves the bundle's code cache for `npm start`'s flags (scripts/warmCodeCache.mjs), so
 * the first start after a build runs from it instead of compiling the bot. Played on a copy of the
 * project built from scratch, with a `.env` holding a Discord token that the build's own start must
 * not read (nor the token in the build's own environment): a start that took either would try
 * Discord, fail, and leave no cache.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS } from '../../scripts/buildState.mjs';
import { ROOT } from './botProcess.js';

const dir = mkdtempSync(join(tmpdir(), 'valormr-build-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The code caches beside the bundle, each with what would change if a start wrote it again (a new file is renamed into place). */
function caches(root: string): Record<string, { ino: number; mtimeMs: number; size: number }> {
  const out = join(root, 'dist', 'src');
  return Object.fromEntries(readdirSync(out).filter((f) => /^main\.cjs\..*\.cache$/.test(f)).map((f) => {
    const s = statSync(join(out, f));
    return [f, { ino: s.ino, mtimeMs: s.mtimeMs, size: s.size }];
  }));
}

/** One console start by package.json's start script, as npm runs it: `@alice /help`, then the end of its input. */
function startScript(root: string, databasePath: string, settings: string): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: databasePath, WEB: 'off', DOTENV_CONFIG_PATH: settings };
  delete env.DISCORD_TOKEN;
  delete env.DATABASE_URL;
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', start], { cwd: root, env, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
    child.stdin.end('@alice /help\n');
  });
}

describe('the code cache made by the build', () => {
  it('GIVEN a fresh build (and a .env with a token beside it) WHEN the start script first runs THEN it starts from the cache the build left, writing none', async () => {
    const root = mkdtempSync(join(dir, 'copy-'));
    for (const input of [...BUILD_INPUTS, 'scripts']) cpSync(join(ROOT, input), join(root, input), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, '.env'), 'DISCORD_TOKEN=not-a-real-token\n');

    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8', env: { ...process.env, DISCORD_TOKEN: 'not-a-real-token-either' } });
    expect(build.status, build.stderr).toBe(0);
    expect(build.stderr).not.toContain('No code cache made');
    const made = caches(root);
    expect(Object.keys(made)).toHaveLength(1);

    const settings = join(dir, 'empty.env');
    writeFileSync(settings, '');
    const run = await startScript(root, join(dir, 'first.db'), settings);
    expect(run.code).toBe(0);
    expect(run.out.split('\n').some((l) => l.startsWith('{') && l.includes('"user":"alice"'))).toBe(true);
    // Used, not made again: a start that found no sound cache would have written (renamed) a new file at its exit.
    expect(caches(root)).toEqual(made);
  }, 240_000);
});
