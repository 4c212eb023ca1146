#!/usr/bin/env node
/**
 * Compiles the bot to plain JavaScript in dist/ (esbuild, file by file, with tsconfig.build.json; types are checked by `npm run typecheck`) and copies what
 * the compiled code reads at run time next to it: assets/ (scenarios, rules tables),
 * migrations/ and migrations-pg/ (the SQL a SQLite or PostgreSQL database is brought up to date with). `npm start` then runs
 * `node dist/src/main.js` directly: no npm -> tsx -> node chain between a supervisor's signal and
 * the bot. The build ends with one start of the built bot as `npm start` runs it, which leaves the
 * bundle's V8 code cache beside it (scripts/warmCodeCache.mjs), so even the first start is warm.
 *
 * `--if-stale` (the prestart step) builds only when a source, asset, migration or config file is
 * newer than the last build, so `npm start` after `npm install` on a fresh clone builds once and
 * later starts cost a few milliseconds.
 */
import process from 'node:process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distUpToDate, takeBuildLock } from './buildState.mjs';
import { bundleMain } from './bundle.mjs';
import { warmCodeCache } from './warmCodeCache.mjs';

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
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('Cannot build: esbuild is not installed. It is a development dependency: run `npm install` (or `npm ci`) without --omit=dev / NODE_ENV=production, build, then prune with `npm prune --omit=dev` if you want.\n');
  process.exit(1);
}
// Each TypeScript file becomes its JavaScript file, as tsc would write it (the same folders, a
// source map beside each), by esbuild: about a second where tsc took 30 s of CPU (minutes on a busy
// machine), so the first `npm start` after a fresh clone is quick. Types are not checked here:
// `npm run typecheck` and `npm test` do (tsc --noEmit); tsconfig.json's isolatedModules and
// verbatimModuleSyntax keep every file compilable on its own.
try {
  await esbuild.build({
    entryPoints: ['src', 'commands'].flatMap((d) => sourcesUnder(join(root, d))),
    outdir: dist,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    // `import ... with { type: 'json' }` stays as written (node needs it; esbuild would drop it for node20).
    supported: { 'import-attributes': true },
    tsconfig: join(root, 'tsconfig.build.json'),
    logLevel: 'warning',
  });
} catch {
  process.stderr.write('The build failed: the errors are above.\n');
  process.exit(1);
}
// Copied before the bundle step, which reads the JSON tables the code imports from dist/assets/.
for (const dir of ['assets', 'migrations', 'migrations-pg']) {
  rmSync(join(dist, dir), { recursive: true, force: true });
  cpSync(join(root, dir), join(dist, dir), { recursive: true });
}
await bundleMain(dist);
await keepFreshDatabase(dist);
// The bundle's code cache, made now by one start as `npm start` runs it (scripts/warmCodeCache.mjs).
const unwarmed = warmCodeCache(root);
if (unwarmed !== undefined) process.stderr.write(`No code cache made (the first start will compile the bot and make it): ${unwarmed}\n`);
mkdirSync(dist, { recursive: true });
writeFileSync(stamp, `${new Date().toISOString()}\n`);
process.stderr.write('Built dist/.\n');

/** The TypeScript files under a folder (declaration files aside). */
function sourcesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * A new database made the normal way by the compiled code, kept in dist/migrations as the image a
 * new database file starts from (src/db/freshImage.ts): a first start then writes one file instead
 * of running every migration. Without it (better-sqlite3 not installed, say) new databases are
 * simply migrated.
 */
async function keepFreshDatabase(dist) {
  const folder = mkdtempSync(join(tmpdir(), 'valormr-fresh-'));
  try {
    const { closeDatabase, openDatabase } = await import(pathToFileURL(join(dist, 'src', 'db', 'client.js')).href);
    const { keepFreshImage } = await import(pathToFileURL(join(dist, 'src', 'db', 'freshImage.js')).href);
    const file = join(folder, 'fresh.db');
    closeDatabase(openDatabase(file));
    keepFreshImage(file, join(dist, 'migrations'));
  } catch (error) {
    process.stderr.write(`No image of a new database (new databases will run every migration): ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
