/**
 * What scripts/build.mjs and the tests' shared build (tests/support/sharedBuild.ts) agree on: which
 * files the build reads, whether a folder's dist/ is up to date with them, and the lock folder two
 * builds of one folder take turns on.
 */
import process from 'node:process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every input of `npm run build` in a folder: tsc over src/ and commands/, then assets/ and the migrations copied. */
export const BUILD_INPUTS = ['src', 'commands', 'assets', 'migrations', 'migrations-pg', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** Newest modification time under `path` (0 when absent). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const entry of readdirSync(path)) t = Math.max(t, newest(join(path, entry)));
  return t;
}

/** True when `dir/dist`'s stamp is newer than every input of the build (what `build.mjs --if-stale` skips on). */
export function distUpToDate(dir) {
  const stamp = join(dir, 'dist', '.build-stamp');
  return existsSync(stamp) && Math.max(...BUILD_INPUTS.map((p) => newest(join(dir, p)))) <= statSync(stamp).mtimeMs;
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Takes the build lock on `dir` (a folder `.build-lock` holding this process's pid; a lock whose
 * process is gone is taken over), waiting for a build in progress; gives up after `waitMs` (never
 * when omitted). Returns the function that releases it.
 */
export function takeBuildLock(dir, waitMs = Infinity) {
  const lock = join(dir, '.build-lock');
  const pidFile = join(lock, 'pid');
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(pidFile, String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() > until) throw new Error(`${lock} has been held for ${waitMs / 1000} s`);
      const holder = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      if (holder > 0 && !isRunning(holder)) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(nap, 0, 0, 200);
    }
  }
}
