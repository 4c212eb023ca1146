/**
 * The memory bench's bundle (bench/memoryChild.mjs, scripts/bundle.mjs `bundleBenchMemory`) is
 * made in the folder the bench gives it (`--bundle-dir`), never in the dist/ of the checkout it
 * bundles: with `--vs DIR` that dist/ is another checkout's. Run from there, it still finds the
 * files its modules find from their own place in dist/ (migrations, the render thread's entry)
 * and its packages from that checkout's node_modules.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDist, ROOT } from '../process/botProcess.js';
import { testTempDir } from '../support/tempDirs.js';

beforeAll(() => buildDist());

/** What of the memory bench's bundle is in the build's dist/src (a file left by an older bench is fine, if untouched). */
function inDist(): Record<string, number> {
  const out = join(ROOT, 'dist', 'src');
  return Object.fromEntries(readdirSync(out).filter((f) => f.startsWith('benchMemory.cjs')).map((f) => [f, statSync(join(out, f)).mtimeMs]));
}

/** Loads the bundle as the measured child does, opens an app on a fresh database (its migrations found from dist/) and a console session, and answers one command. */
const USE = `
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const [root, bundle, dir] = process.argv.slice(2);
const { runCached } = await import(pathToFileURL(join(root, 'dist/src/codeCache.js')).href);
const bot = runCached(bundle, 'never', join(root, 'dist/src/main.cjs'));
const { createApp, ConsoleSession, closeRenderPool } = bot.exports;
const app = createApp({ databasePath: join(dir, 'campaign.db') });
const outs = [];
const session = new ConsoleSession(app, { where: { guildId: 'g', channelId: 'c', baseDir: dir }, outDir: dir, write: (o) => outs.push(o) });
await session.handle('@referee /campaign create scenario:valormr name:Bundled');
await closeRenderPool();
app.close();
process.stdout.write(JSON.stringify({ used: bot.used, answer: outs[0]?.content ?? '' }) + '\\n');
`;

describe('the memory bench\'s bundle', () => {
  it('GIVEN `--warm --bundle-dir F` THEN the bundle and its code cache are made in F, nothing in dist/; run from F it answers a command and its code cache is taken', () => {
    const folder = testTempDir('valormr-benchbundle-');
    const before = inDist();
    const warm = spawnSync(process.execPath, [join(ROOT, 'bench', 'memoryChild.mjs'), '--warm', '--bundle-dir', folder], { encoding: 'utf8' });
    expect(warm.status, warm.stderr).toBe(0);
    const bundle = join(folder, 'benchMemory.cjs');
    expect(existsSync(bundle)).toBe(true);
    expect(readdirSync(folder).some((f) => /^benchMemory\.cjs\.[0-9a-f]{16}\.cache$/.test(f))).toBe(true);
    expect(inDist()).toEqual(before);
    const dir = testTempDir('valormr-benchbundle-use-');
    // A script file, not `-e`: node's flags are part of a code cache's key (src/codeCache.ts).
    writeFileSync(join(dir, 'use.mjs'), USE);
    const use = spawnSync(process.execPath, [join(dir, 'use.mjs'), ROOT, bundle, dir], { encoding: 'utf8' });
    expect(use.status, use.stderr).toBe(0);
    const { used, answer } = JSON.parse(use.stdout.trim().split('\n').at(-1)!) as { used: boolean; answer: string };
    expect(answer).toContain('Bundled');
    // Same node flags as the warm step (none here): the cache made there is taken.
    expect(used).toBe(true);
  });
});
