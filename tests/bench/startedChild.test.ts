/**
 * A bench child (bench/startSettings.ts `runStartedChild`: the memory and scale children) leaves
 * nothing in the temporary folder, however it ends: the folder it is given as TMPDIR is removed
 * once it is gone. Its children here are tiny scripts in a throwaway checkout (a package.json with
 * a start script, and bench/<script>), each making a folder in its temporary folder and then
 * ending well, failing, or being killed (SIGKILL: no exit handler of its own runs).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runStartedChild } from '../../bench/startSettings.js';
import { testTempDir } from '../support/tempDirs.js';

/** What each child does once it has made its folder (and written a file in it): argv[2]. */
const CHILD = `
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const made = mkdtempSync(join(tmpdir(), 'valormr-benchchild-'));
writeFileSync(join(made, 'picture.png'), 'x');
const how = process.argv[2];
if (how === 'well') process.stdout.write(JSON.stringify({ made }) + '\\n');
else {
  process.stdout.write('made ' + made + '\\n');
  if (how === 'killed') process.kill(process.pid, 'SIGKILL');
  throw new Error('the child failed');
}
`;

function checkout(): URL {
  const root = testTempDir('valormr-benchroot-');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { start: 'exec env FOO=1 node dist/src/main.js' } }));
  mkdirSync(join(root, 'bench'));
  writeFileSync(join(root, 'bench', 'child.mjs'), CHILD);
  return pathToFileURL(`${root}/`);
}

/** The folder a failed child said it made, from runStartedChild's error (it quotes the child's stdout). */
const madeIn = (err: unknown): string => /made (\S+)/.exec(String(err))?.[1] ?? '';

describe('bench children and their temporary folders', () => {
  it('GIVEN a child that ends well THEN its answer comes back and the folder it made in its temporary folder is gone', async () => {
    const { made } = await runStartedChild<{ made: string }>('child.mjs', ['well'], [], checkout());
    expect(made).toMatch(/valormr-benchchild-/);
    expect(existsSync(made)).toBe(false);
  });

  it.each([['fails', 'failed'], ['is killed (SIGKILL)', 'killed']])('GIVEN a child that %s THEN the bench is told, and the folder it made is gone all the same', async (_, how) => {
    const err = await runStartedChild('child.mjs', [how], [], checkout()).then(() => undefined, (e: unknown) => e);
    expect(String(err)).toContain('bench/child.mjs');
    const made = madeIn(err);
    expect(made).toMatch(/valormr-benchchild-/);
    expect(existsSync(made)).toBe(false);
  });
});
