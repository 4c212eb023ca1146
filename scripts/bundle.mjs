/**
 * The bundle step of scripts/build.mjs: after esbuild wrote dist/src/ file by file, the bot is
 * bundled with esbuild (the app's ~400 modules, drizzle-orm's and zod's ~240) into one CommonJS
 * file, `dist/src/main.cjs`, and `dist/src/main.js` becomes the entry that runs it through
 * src/codeCache.ts, with a V8 code cache beside it (Node 20 keeps no compiled code between starts
 * for ES modules). The code a console start does not reach (Discord, the shard manager, the web
 * page) is in the file, but esbuild evaluates each module on its first use, and packages stay
 * external (native addons, CommonJS), each `require`d when the code that needs it runs: the console
 * never loads discord.js. The render thread's entry, `dist/src/render/renderWorker.js`, is bundled
 * as ES modules (from renderWorker.tsc.js, in chunks of its own; its banner is main's, the mark of
 * a bundled file); the PostgreSQL bridge's worker still runs the file-by-file output beside it.
 * Each module's `import.meta.url` is rewritten to its own output's URL, so the paths it finds from
 * there (assets/, migrations/, the worker files, its own source hash) are the same as unbundled.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Pure ES-module packages bundled in; every other bare import stays an `import` of node_modules. */
const BUNDLED = new Set(['drizzle-orm', 'zod']);

const BANNER = '// Bundled by scripts/bundle.mjs from main.tsc.js (tsc\'s output).';

function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The engine's modules are pure: whatever of them the render thread does not use is left out. */
function engineWithoutSideEffects(out) {
  return {
    name: 'engine-pure',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const path = join(args.resolveDir, args.path);
        return path.startsWith(join(out, 'engine') + '/') ? { path, sideEffects: false } : undefined;
      });
    },
  };
}

// Each module's `import.meta.url` becomes its tsc output's URL: `base` is the bundle's own URL.
const keepUrls = (out, base) => ({
  name: 'valormr-paths',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.has(packageName(args.path)) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true }));
    build.onLoad({ filter: /\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!args.path.startsWith(out + '/') || !text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const own = `new URL(${JSON.stringify('./' + relative(out, args.path))}, ${base}).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});

// zod's `locales` namespace (its messages in some 60 languages, half of zod's bytes) is never
// read: the bot keeps zod's default, English, which zod imports from locales/en.js itself.
const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
  },
};

const common = (out) => ({
  outdir: out,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Compiling the start's modules is a quarter of its CPU and grows with their bytes: blanks and
  // comments go (names stay, so stack traces read the same; the source maps lead to the lines).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
});

/**
 * The bot as one CommonJS file beside the tsc output in `out` (main.cjs; the memory bench's
 * benchMemory.cjs is made the same way in a folder of its own), run by src/codeCache.ts with a V8 code cache (Node 20 has no compile cache for
 * ES modules). The code a start does not reach (Discord, the shard manager, the web page) is in it
 * but not run: esbuild evaluates each module on first use, and packages stay `require`s of
 * node_modules made when that code runs: an `import()` of a package becomes a `require` too
 * (dotenv, fflate, sharp: all CommonJS), because node gives a script run from a code cache no loader
 * for `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
 */
const commonJs = (out) => ({
  ...common(out),
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  supported: { 'dynamic-import': false },
  plugins: [englishOnly, keepUrls(out, 'require("node:url").pathToFileURL(__filename)')],
});

/** Bundles the bot (`dist/src/main.cjs`, run by `dist/src/main.js`) and the render thread's entry. Returns false (the tsc output stays as it is) when esbuild is not installed. */
export async function bundleMain(dist) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return false;
  }
  const out = join(dist, 'src');
  // tsc builds incrementally and rewrites main.js only when main.ts changed: its own output is kept
  // as main.tsc.js (the bundle's input), recognised by not starting with the bundle's banner.
  // The render thread's entry is bundled the same way (a cold render thread loaded some 150 ES
  // modules of the tsc output, one resolve, read and compile each, before its first picture).
  const entries = {};
  for (const name of ['main', 'render/renderWorker']) {
    const entry = join(out, `${name}.js`);
    const input = join(out, `${name}.tsc.js`);
    const text = readFileSync(entry, 'utf8');
    if (!text.startsWith(BANNER)) {
      // With its source map under its own name: the bundle's map replaces `${name}.js.map`.
      const base = name.split('/').pop();
      writeFileSync(input, text.replace(`//# sourceMappingURL=${base}.js.map`, `//# sourceMappingURL=${base}.tsc.js.map`));
      if (existsSync(`${entry}.map`)) copyFileSync(`${entry}.map`, `${input}.map`);
    }
    entries[name] = input;
  }
  for (const f of readdirSync(out)) if (/^chunk-.*\.js(\.map)?$/.test(f) || /^main\.cjs\..*\.cache$/.test(f)) rmSync(join(out, f));
  // The render thread: ES modules, in chunks.
  await esbuild.build({
    ...common(out),
    entryPoints: { 'render/renderWorker': entries['render/renderWorker'] },
    banner: { js: BANNER },
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    // Before keepUrls, which would otherwise load that file as it is.
    plugins: [englishOnly, engineWithoutSideEffects(out), keepUrls(out, 'import.meta.url')],
  });
  // The bot: one CommonJS file, main.cjs (commonJs above).
  await esbuild.build({ ...commonJs(out), entryPoints: { main: entries.main } });
  // main.js, the entry every start names (npm start, the shard manager, supervisors): runs main.cjs.
  writeFileSync(join(out, 'main.js'), `${BANNER}\nimport { fileURLToPath } from 'node:url';\nimport { runCached } from './codeCache.js';\n\nrunCached(fileURLToPath(new URL('./main.cjs', import.meta.url)));\n`);
  rmSync(join(out, 'main.js.map'), { force: true });
  return true;
}

/** What bench/memoryChild.mjs drives, from the tsc output: the bot's own modules, bundled as main.cjs bundles them. */
const BENCH_MEMORY_ENTRY = [
  "export { createApp } from './app/createApp.js';",
  "export { ManualClock } from './app/ports.js';",
  "export { stateCacheOf } from './app/stateCache.js';",
  "export { seededDice } from './console/seededDice.js';",
  "export { ConsoleSession } from './console/session.js';",
  "export { clearWorkerCaches, closeRenderPool, renderPoolState, workerCacheStats } from './render/renderPool.js';",
].join('\n');

/**
 * The memory bench's bot, `<folder>/benchMemory.cjs`: the app, the console session and the render
 * pool of the build `dist` bundled as main.cjs is (commonJs above), so that bench/memoryChild.mjs
 * runs them as `npm start` runs the bot, one script through src/codeCache.ts, and not as some 650
 * ES modules of the tsc output (each module's record and source kept: about 4 MB more of the main
 * thread's heap). Made by the bench in a folder of the bench's own, not in `dist` (the bot never
 * runs it, and `dist` may be another checkout's, benched with `--vs`): each module's
 * `import.meta.url` is its tsc output's URL in `dist` (main.cjs's are found from its own place),
 * and it is run with `require` resolving from `dist` (runCached's `requireFrom`). Made again only
 * when the build is newer (main.cjs). Returns its path.
 */
export async function bundleBenchMemory(dist, folder) {
  const out = join(dist, 'src');
  const file = join(folder, 'benchMemory.cjs');
  if (existsSync(file) && statSync(file).mtimeMs >= statSync(join(out, 'main.cjs')).mtimeMs) return file;
  const esbuild = await import('esbuild');
  const fromBuild = { ...commonJs(out), plugins: [englishOnly, keepUrls(out, JSON.stringify(pathToFileURL(`${out}/`).href))] };
  const built = await esbuild.build({ ...fromBuild, stdin: { contents: BENCH_MEMORY_ENTRY, resolveDir: out, sourcefile: 'benchMemory.js', loader: 'js' }, outfile: file, outdir: undefined, write: false });
  // Each file under another name, then renamed into place: a bench in another process never reads half a file.
  for (const { path, contents } of built.outputFiles) {
    writeFileSync(`${path}.${process.pid}.tmp`, contents);
    renameSync(`${path}.${process.pid}.tmp`, path);
  }
  return file;
}
