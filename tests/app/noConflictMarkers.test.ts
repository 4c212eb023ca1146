import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every text file git tracks (binary files are skipped by their NUL byte). */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  return paths.flatMap((path) => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return []; // listed by git but deleted in the work tree
    }
    return text.includes('\0') ? [] : [{ path, text }];
  });
}

describe('the repository', () => {
  it('GIVEN every tracked text file THEN none carries a merge\'s conflict markers (a merge once left one in docs/rulings.md)', () => {
    const files = trackedTexts();
    expect(files.length).toBeGreaterThan(100);
    const marked = files.flatMap(({ path, text }) => text.split('\n').flatMap((line, i) => (/^(<{7}|>{7}) |^={7}$/.test(line) ? [`${path}:${i + 1}: ${line}`] : [])));
    expect(marked).toEqual([]);
  });
});
