/**
 * `npm start`'s prestart step (scripts/prestart.sh): up to date, it exits without starting node;
 * any input of the build newer than dist/'s stamp, a missing stamp, or no `find` hands over to
 * `scripts/build.mjs --if-stale`. Played in a scratch folder whose build.mjs only says it ran.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS } from '../../scripts/buildState.mjs';
import { ROOT } from './botProcess.js';

const dir = mkdtempSync(join(tmpdir(), 'valormr-prestart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const past = new Date('2026-01-01T00:00:00Z');
const stampTime = new Date('2026-02-01T00:00:00Z');

function tree(): string {
  const root = mkdtempSync(join(dir, 'clone-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(ROOT, 'scripts', 'prestart.sh'), join(root, 'scripts', 'prestart.sh'));
  writeFileSync(join(root, 'scripts', 'build.mjs'), "process.stdout.write('BUILD ' + process.argv.slice(2).join(' '));\n");
  for (const input of BUILD_INPUTS) {
    const path = join(root, input);
    if (input.includes('.')) writeFileSync(path, '{}');
    else {
      mkdirSync(path);
      writeFileSync(join(path, 'f.txt'), 'x');
      utimesSync(join(path, 'f.txt'), past, past);
    }
    utimesSync(path, past, past);
  }
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', '.build-stamp'), 'built\n');
  utimesSync(join(root, 'dist', '.build-stamp'), stampTime, stampTime);
  return root;
}

function prestart(root: string, path = process.env.PATH ?? ''): string {
  const r = spawnSync('/bin/sh', ['scripts/prestart.sh'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: path } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('scripts/prestart.sh', () => {
  it('GIVEN the build inputs WHEN the script is read THEN it checks every one of BUILD_INPUTS', () => {
    const text = readFileSync(join(ROOT, 'scripts', 'prestart.sh'), 'utf8');
    const line = text.split('\n').find((l) => l.includes('-newer'))!;
    for (const input of BUILD_INPUTS) expect(line.split(/\s+/)).toContain(input);
  });

  it('GIVEN dist/ newer than every input WHEN prestart runs THEN build.mjs is not started', () => {
    expect(prestart(tree())).toBe('');
  });

  it.each(BUILD_INPUTS)('GIVEN %s changed after the build WHEN prestart runs THEN build.mjs --if-stale runs', (input) => {
    const root = tree();
    const changed = input.includes('.') ? join(root, input) : join(root, input, 'f.txt');
    const later = new Date('2026-03-01T00:00:00Z');
    utimesSync(changed, later, later);
    expect(prestart(root)).toBe('BUILD --if-stale');
  });

  it('GIVEN no build stamp, or no find on the PATH WHEN prestart runs THEN build.mjs --if-stale decides', () => {
    const noStamp = tree();
    rmSync(join(noStamp, 'dist', '.build-stamp'));
    expect(prestart(noStamp)).toBe('BUILD --if-stale');
    // A PATH with node but no find: the fallback, never "up to date" by default.
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    spawnSync('ln', ['-sf', process.execPath, join(bin, 'node')]);
    expect(prestart(tree(), bin)).toBe('BUILD --if-stale');
  });
});
