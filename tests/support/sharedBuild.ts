import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { DIR_ENV } from './postgres.js';

/** Every file `npm run build` reads (scripts/build.mjs: tsc over src/ and commands/, then assets/, migrations/ and migrations-pg/ copied). */
const BUILD_INPUTS = ['src', 'commands', 'assets', 'migrations', 'migrations-pg', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
const WAIT_MS = 600_000;

/** A hash of the build's inputs in `dir`: two folders with the same hash build the same dist/. */
function inputsHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string): void => {
    const path = join(dir, rel);
    if (!existsSync(path)) return void hash.update(`absent ${rel}\n`);
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(rel, entry));
    else hash.update(`${rel}\n`).update(readFileSync(path));
  };
  for (const input of BUILD_INPUTS) walk(input);
  return hash.digest('hex');
}

/**
 * `dir/dist` built once per distinct input in a test run, across its test processes: the build is
 * a pure function of its inputs (tsc from the same node_modules), so a folder whose inputs are
 * byte-identical to one built already gets a copy of that dist/ instead of a second tsc run (tens
 * of seconds: the checkout's prestart build and docs/deploy.md's clone both need one). `build`
 * builds `dir/dist` for real otherwise. Builds are kept in the run's folder (the globalSetup's).
 */
export function sharedBuild(dir: string, build: () => void): void {
  // A dist/ already built from these sources is left alone: other test files may be running a bot
  // from it right now (they build it with `build.mjs --if-stale`), and replacing it under them
  // would pull files from under a starting process.
  if (distUpToDate(dir)) return;
  const home = join(process.env[DIR_ENV] ?? join(tmpdir(), `valormr-builds-${process.getuid?.() ?? 0}`), 'builds');
  mkdirSync(home, { recursive: true });
  const kept = join(home, inputsHash(dir));
  const lock = `${kept}.lock`;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`another test process has been building ${kept} for ${WAIT_MS / 1000} s`);
      Atomics.wait(nap, 0, 0, 200);
    }
  }
  try {
    if (existsSync(kept)) {
      // Under build.mjs's own lock, so a prestart build of the same folder does not write beside the copy.
      withBuildLock(dir, () => {
        if (distUpToDate(dir)) return;
        rmSync(join(dir, 'dist'), { recursive: true, force: true });
        cpSync(kept, join(dir, 'dist'), { recursive: true });
      });
    } else {
      build();
      cpSync(join(dir, 'dist'), `${kept}.partial`, { recursive: true });
      renameSync(`${kept}.partial`, kept);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Newest modification time under `path` (0 when absent). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const entry of readdirSync(path)) t = Math.max(t, newest(join(path, entry)));
  return t;
}

/** What `build.mjs --if-stale` checks: dist/'s stamp is newer than every input of the build. */
function distUpToDate(dir: string): boolean {
  const stamp = join(dir, 'dist', '.build-stamp');
  if (!existsSync(stamp)) return false;
  const inputs = BUILD_INPUTS.filter((p) => p !== 'scripts');
  return Math.max(...inputs.map((p) => newest(join(dir, p)))) <= statSync(stamp).mtimeMs;
}

/** Runs `fn` holding scripts/build.mjs's lock folder on `dir` (its pid file names this process; a lock whose process is gone is taken over). */
function withBuildLock(dir: string, fn: () => void): void {
  const lock = join(dir, '.build-lock');
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > until) throw new Error(`${lock} has been held for ${WAIT_MS / 1000} s`);
      const pidFile = join(lock, 'pid');
      const holder = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      if (holder > 0 && !isRunning(holder)) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(nap, 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
