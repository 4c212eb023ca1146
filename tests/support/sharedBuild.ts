import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { BUILD_INPUTS, distUpToDate, takeBuildLock } from '../../scripts/buildState.mjs';
import { DIR_ENV } from './postgres.js';
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
  // scripts/ too: the build script is part of what makes dist/.
  for (const input of [...BUILD_INPUTS, 'scripts']) walk(input);
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
      const release = takeBuildLock(dir, WAIT_MS);
      try {
        if (!distUpToDate(dir)) {
          rmSync(join(dir, 'dist'), { recursive: true, force: true });
          cpSync(kept, join(dir, 'dist'), { recursive: true });
        }
      } finally {
        release();
      }
    } else {
      build();
      cpSync(join(dir, 'dist'), `${kept}.partial`, { recursive: true });
      renameSync(`${kept}.partial`, kept);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
