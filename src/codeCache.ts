import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * Runs the compiled bot (`dist/src/main.cjs`, one CommonJS bundle: scripts/bundle.mjs) with a V8
 * code cache kept beside it, Node 20's stand-in for Node 22's module compile cache. Compiling the
 * start's code was about a third of its CPU (at load 12: 408 ms CPU to the console's first answer
 * as ES modules, 274 ms from the cache).
 *
 * The cache is a file beside the bundle, one per node version, architecture and V8 flag set
 * (V8 refuses a cache made under other flags, so `npm start`'s flags and a bare `node` each keep
 * their own): a header line (the bundle's SHA-256, the payload's SHA-256) then V8's bytes. It is
 * given to V8 only when both digests match: V8's own check compares the source's length, not its
 * bytes, so a stale cache of a rebuilt bundle of the same length would otherwise run old code, and
 * a damaged one is never trusted. With no usable cache the bundle compiles as it would without one,
 * and a new cache is written once the start is over (a few seconds after, or at exit, whichever is
 * first), under another name then renamed into place; a folder the bot cannot write leaves it
 * without one. The build makes the cache of `npm start`'s flags itself (scripts/warmCodeCache.mjs:
 * one start that answers `/help` and exits), so a first start after a build finds it too.
 */

/** How a start went, for the tests. */
export interface CachedRun {
  /** The cache file this process reads and writes. */
  readonly cacheFile: string;
  /** Whether a cache was found sound and V8 took it. */
  readonly used: boolean;
  /** Writes the cache now if this start needs one (what the timer and the exit do); true when written. */
  save(): boolean;
  /** What the bundle left in `module.exports` (the bot's main.cjs leaves nothing; the memory bench's bundle its entry points). */
  readonly exports: unknown;
}

const FORMAT = 'valormr-code-cache 1';

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** CommonJS's module wrapper, as node's own loader puts it around a file. */
const wrap = (source: string): string => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** The cache file of `bundle` for this node, architecture and set of V8 flags. */
function cacheFileFor(bundle: string): string {
  const key = sha256([process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''].join('\n')).slice(0, 16);
  return `${bundle}.${key}.cache`;
}

/** V8's bytes from a cache file, when the file is whole and made from exactly `sourceDigest`'s source. */
function readCache(cacheFile: string, sourceDigest: string): Buffer | undefined {
  if (!existsSync(cacheFile)) return undefined;
  try {
    const bytes = readFileSync(cacheFile);
    const end = bytes.indexOf(0x0a);
    if (end < 0 || end > 1024) return undefined;
    const [format, source, payloadDigest] = bytes.subarray(0, end).toString('utf8').split(' | ');
    const payload = bytes.subarray(end + 1);
    if (format !== FORMAT || source !== sourceDigest || payloadDigest !== sha256(payload) || payload.length === 0) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}

function writeCache(cacheFile: string, sourceDigest: string, payload: Buffer): boolean {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`${FORMAT} | ${sourceDigest} | ${sha256(payload)}\n`), payload]));
    renameSync(temp, cacheFile);
    pruneCaches(cacheFile);
    return true;
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing was written.
    }
    return false;
  }
}

/** How many caches of one bundle are kept (one per flag set a start used: npm start's, a bare node's, a profiler's...). */
const KEPT_CACHES = 4;

/** Removes the bundle's oldest caches beyond KEPT_CACHES, so starts under ever new flags do not fill the folder. */
function pruneCaches(cacheFile: string): void {
  const folder = dirname(cacheFile);
  const bundle = basename(cacheFile).replace(/\.[0-9a-f]{16}\.cache$/, '');
  const ours = readdirSync(folder)
    .filter((f) => f.startsWith(`${bundle}.`) && /^\.[0-9a-f]{16}\.cache$/.test(f.slice(bundle.length)))
    .map((f) => ({ file: join(folder, f), at: statSync(join(folder, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { file } of ours.slice(KEPT_CACHES)) if (file !== cacheFile) rmSync(file, { force: true });
}

/**
 * Compiles and runs the CommonJS file `bundle` as node would load it (its own `require`, `module`,
 * `__filename`), from the code cache when a sound one is there. `saveAfterMs`: when to write a new
 * cache if one is needed (also at exit, if sooner); 'never' leaves it to `save()`. `requireFrom`:
 * the file its `require` resolves packages from, the bundle itself unless told (the memory bench's
 * bundle is made outside the tree it bundles, and takes that tree's node_modules).
 */
export function runCached(bundle: string, saveAfterMs: number | 'never' = 3000, requireFrom = bundle): CachedRun {
  const source = readFileSync(bundle, 'utf8');
  const sourceDigest = sha256(source);
  const cacheFile = cacheFileFor(bundle);
  const cachedData = readCache(cacheFile, sourceDigest);
  const script = new vm.Script(wrap(source), {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  let saved = used;
  const save = (): boolean => {
    if (saved) return false;
    saved = true;
    return writeCache(cacheFile, sourceDigest, script.createCachedData());
  };
  if (!used && saveAfterMs !== 'never') {
    // After the start (its functions compiled by then), or at exit if that comes first.
    setTimeout(save, saveAfterMs).unref();
    process.once('exit', save);
  }
  const run: unknown = script.runInThisContext();
  if (typeof run !== 'function') throw new Error(`${bundle} did not compile to a module function`);
  const module: { exports: unknown } = { exports: {} };
  run.call(module.exports, module.exports, createRequire(requireFrom), module, bundle, dirname(bundle));
  return { cacheFile, used, save, exports: module.exports };
}
