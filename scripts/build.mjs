#!/usr/bin/env node
/**
 * Compiles the bot to plain JavaScript in dist/ (tsc with tsconfig.build.json) and copies what
 * the compiled code reads at run time next to it: assets/ (scenarios, rules tables),
 * migrations/ and migrations-pg/ (the SQL a SQLite or PostgreSQL database is brought up to date with). `npm start` then runs
 * `node dist/src/main.js` directly: no npm -> tsx -> node chain between a supervisor's signal and
 * the bot.
 *
 * `--if-stale` (the prestart step) builds only when a source, asset, migration or config file is
 * newer than the last build, so `npm start` after `npm install` on a fresh clone builds once and
 * later starts cost a few milliseconds.
 */
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distUpToDate, takeBuildLock } from './buildState.mjs';
import { bundleMain } from './bundle.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');

if (process.argv.includes('--if-stale') && distUpToDate(root)) process.exit(0);

// Two builds at once (test files that each run the prestart step, two `npm start`s) would write the
// same files together: the second waits for the first (scripts/buildState.mjs's lock folder), then
// finds the build up to date.
process.on('exit', takeBuildLock(root));
if (process.argv.includes('--if-stale') && distUpToDate(root)) process.exit(0);

process.stderr.write('Building the bot (TypeScript to dist/)...\n');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  process.stderr.write('Cannot build: TypeScript is not installed. It is a development dependency: run `npm install` (or `npm ci`) without --omit=dev / NODE_ENV=production, build, then prune with `npm prune --omit=dev` if you want.\n');
  process.exit(1);
}
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
if (result.status !== 0) {
  process.stderr.write('The build failed: the TypeScript errors are above.\n');
  process.exit(result.status ?? 1);
}
if (!(await bundleMain(dist))) process.stderr.write('esbuild is not installed: dist/src/main.js stays unbundled (a slower start).\n');
for (const dir of ['assets', 'migrations', 'migrations-pg']) {
  rmSync(join(dist, dir), { recursive: true, force: true });
  cpSync(join(root, dir), join(dist, dir), { recursive: true });
}
mkdirSync(dist, { recursive: true });
writeFileSync(stamp, `${new Date().toISOString()}\n`);
process.stderr.write('Built dist/.\n');
