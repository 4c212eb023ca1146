/**
 * CI's cache of better-sqlite3's compiled addon. Its install step asks GitHub for a prebuilt binary
 * (`prebuild-install`), which this machine cannot reach, then compiles SQLite from source: most of
 * a fresh `npm install` (minutes on 2 cores). This keeps the addon just built where prebuild-install
 * looks before it downloads anything: its cache in npm's cache folder, a tarball named by the
 * download URL (the package version, the Node ABI, platform and architecture). The next fresh clone
 * unpacks it instead of compiling. prebuild-install loads the unpacked addon before accepting it;
 * one that does not load fails that step and the package compiles as before.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('better-sqlite3/package.json'));
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const util = require(require.resolve('prebuild-install/util', { paths: [pkgDir] }));
const addon = join('build', 'Release', 'better_sqlite3.node');
// The URL prebuild-install asks for (its GitHub releases, under the name template prebuild-install uses).
const url = `https://github.com/WiseLibs/better-sqlite3/releases/download/v${version}/better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
const cached = util.cachedPrebuild(url);
if (existsSync(cached)) {
  process.stdout.write(`better-sqlite3 ${version}: the compiled addon is kept at ${cached}\n`);
} else if (existsSync(join(pkgDir, addon))) {
  mkdirSync(dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  const tar = spawnSync('tar', ['-czf', partial, '-C', pkgDir, addon], { stdio: 'inherit' });
  if (tar.status !== 0) process.exit(tar.status ?? 1);
  renameSync(partial, cached);
  process.stdout.write(`better-sqlite3 ${version}: compiled addon kept at ${cached} for the next fresh install\n`);
}
