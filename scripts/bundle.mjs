/**
 * The bundle step of scripts/build.mjs: after tsc wrote dist/src/, `dist/src/main.js` is replaced by
 * the same program bundled with esbuild (the app's ~400 modules, drizzle-orm's and zod's ~240, in a
 * few files: the console's start loaded some 650 ES modules, one resolve and read each). The code
 * `main.js` loads only on demand (the console, Discord, the shard manager) stays in its own chunk
 * (`dist/src/chunk-*.js`), so the console never loads discord.js. Every other package stays external
 * (native addons, CommonJS). The render thread's entry, `dist/src/render/renderWorker.js`, is
 * bundled the same way (from renderWorker.tsc.js; it shares chunks with main.js only for modules
 * both load, and its banner is main's, the mark of a bundled file); the PostgreSQL bridge's worker
 * still runs the tsc output beside it. Each module's `import.meta.url` is rewritten to its tsc output's URL, so the
 * paths it finds from there (assets/, migrations/, the worker files, its own source hash) are the
 * same as unbundled.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Pure ES-module packages bundled in; every other bare import stays an `import` of node_modules. */
const BUNDLED = new Set(['drizzle-orm', 'zod']);

const BANNER = '// Bundled by scripts/bundle.mjs from main.tsc.js (tsc\'s output).';

function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Bundles `dist/src/main.js` in place. Returns false (the tsc output stays as it is) when esbuild is not installed. */
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
  for (const f of readdirSync(out)) if (/^chunk-.*\.js(\.map)?$/.test(f)) rmSync(join(out, f));
  const keepUrls = {
    name: 'valormr-paths',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.has(packageName(args.path)) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true }));
      build.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!args.path.startsWith(out + '/') || !text.includes('import.meta.url')) return { contents: text, loader: 'js' };
        const own = `new URL(${JSON.stringify('./' + relative(out, args.path))}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', own), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  // zod's `locales` namespace (its messages in some 60 languages, half of zod's bytes) is never
  // read: the bot keeps zod's default, English, which zod imports from locales/en.js itself.
  const englishOnly = {
    name: 'zod-english-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
    },
  };
  await esbuild.build({
    entryPoints: entries,
    banner: { js: BANNER },
    outdir: out,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    // Compiling the start's modules is a quarter of its CPU and grows with their bytes: blanks and
    // comments go (names stay, so stack traces read the same; the source maps lead to the lines).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    // Before keepUrls, which would otherwise load that file as it is.
    plugins: [englishOnly, keepUrls],
  });
  return true;
}
