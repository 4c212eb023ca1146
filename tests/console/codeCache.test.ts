import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { damagedBytes } from '../support/damagedBytes.js';
import { runCached } from '../../src/codeCache.js';

/**
 * The compiled bot runs from a V8 code cache beside its bundle (src/codeCache.ts). A cache is used
 * only for the exact bundle it was made from and only when whole: V8's own check compares the
 * source's length, so a rebuilt bundle of the same length would otherwise run the old code.
 */

const work = mkdtempSync(join(tmpdir(), 'valormr-code-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A bundle whose run leaves `tag` (and what its own `require` and `module` give) where the test can read it. */
const bundleSource = (tag: string): string =>
  `const { sep } = require('node:path'); module.exports.tag = ${JSON.stringify(tag)}; globalThis.codeCacheTest = { tag: ${JSON.stringify(tag)} + sep, file: __filename };\n`;

function ranTag(): unknown {
  return (globalThis as { codeCacheTest?: { tag: string } }).codeCacheTest?.tag;
}

let n = 0;
function bundleWith(tag: string): string {
  const file = join(work, `bundle-${n++}.cjs`);
  writeFileSync(file, bundleSource(tag));
  return file;
}

describe('the code cache', () => {
  it('GIVEN no cache WHEN the bundle runs and saves THEN the next run uses the cache and runs the same code', () => {
    const file = bundleWith('AAAA');
    const first = runCached(file, 'never');
    expect(first.used).toBe(false);
    expect(ranTag()).toBe('AAAA/');
    expect(first.exports).toEqual({ tag: 'AAAA' });
    expect(first.save()).toBe(true);
    expect(existsSync(first.cacheFile)).toBe(true);
    const second = runCached(file, 'never');
    expect(second.used).toBe(true);
    expect(ranTag()).toBe('AAAA/');
    expect(second.exports).toEqual({ tag: 'AAAA' });
    // A sound cache is not written again.
    expect(second.save()).toBe(false);
  });

  it('GIVEN a cache of another bundle of the same length WHEN the new bundle runs THEN the cache is not used and the new code runs', () => {
    const file = bundleWith('AAAA');
    runCached(file, 'never').save();
    writeFileSync(file, bundleSource('BBBB'));
    const run = runCached(file, 'never');
    expect(run.used).toBe(false);
    expect(ranTag()).toBe('BBBB/');
    expect(run.save()).toBe(true);
    expect(runCached(file, 'never').used).toBe(true);
    expect(ranTag()).toBe('BBBB/');
  });

  it('GIVEN any byte of the cache changed, or the cache cut short THEN it is never used, the code runs as compiled, and a sound cache replaces it', () => {
    const file = bundleWith('CCCC');
    const { cacheFile } = runCached(file, 'never');
    runCached(file, 'never').save();
    const sound = readFileSync(cacheFile);
    const damage = damagedBytes(sound);
    fc.assert(fc.property(damage, (bytes) => {
      writeFileSync(cacheFile, bytes);
      const run = runCached(file, 'never');
      expect(run.used).toBe(false);
      expect(ranTag()).toBe('CCCC/');
      expect(run.save()).toBe(true);
      expect(runCached(file, 'never').used).toBe(true);
    }), { numRuns: 25 });
  });

  it('GIVEN starts under many flag sets THEN only the newest few caches of the bundle are kept, the one just written among them', () => {
    const file = bundleWith('EEEE');
    const { cacheFile } = runCached(file, 'never');
    const key = /\.([0-9a-f]{16})\.cache$/.exec(cacheFile)![1]!;
    const others = ['0', '1', '2', '3', '4', '5'].map((d) => cacheFile.replace(key, d.repeat(16)));
    for (const [i, other] of others.entries()) {
      writeFileSync(other, 'old');
      utimesSync(other, 1000 + i, 1000 + i);
    }
    const unrelated = join(work, 'bundle-other.cjs.0123456789abcdef.cache');
    writeFileSync(unrelated, 'not ours');
    expect(runCached(file, 'never').save()).toBe(true);
    const kept = readdirSync(work).filter((f) => f.startsWith(basename(file)) && f.endsWith('.cache'));
    expect(kept.sort()).toEqual([cacheFile, ...others.slice(-3)].map((f) => basename(f)).sort());
    expect(existsSync(unrelated)).toBe(true);
  });

  it('GIVEN a folder the cache cannot be written in THEN the bundle still runs, without a cache', () => {
    const file = bundleWith('DDDD');
    const run = runCached(file, 'never');
    rmSync(work, { recursive: true, force: true });
    expect(run.save()).toBe(false);
    expect(ranTag()).toBe('DDDD/');
  });
});
