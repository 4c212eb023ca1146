import { describe, expect, it } from 'vitest';
import { CaseFileError, parseCheck, readCase } from '../../src/console/cases/readCase.js';
import { playCase } from '../../src/console/cases/playCase.js';
import { judgeCase } from '../../src/console/cases/runCases.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testTempDir } from '../support/tempDirs.js';

const GOOD = [
  '# Case 7. The referee creates a campaign',
  '## Situation', 'A fresh channel.',
  '## Rule', '> Every campaign starts on the first morning.', 'Source: 000 Campaign Scenario',
  '## Result', 'The reply names the first morning.',
  '```case', 'profile: valormr', 'topic: setup', 'dice: 1, 2,3 4x2', '```',
  '```console', '@referee /campaign create scenario:valormr name:"Seven"', '? reply @referee contains "Day 1, morning"', '? ok', '```',
].join('\n');

function problems(text: string, file = 'docs/cases/007-setup.md'): readonly string[] {
  try {
    readCase(file, text);
  } catch (e) {
    if (e instanceof CaseFileError) return e.problems;
    throw e;
  }
  return [];
}

describe('reading a case file', () => {
  it('GIVEN a well-formed case THEN its header, lines and checks are read', () => {
    const c = readCase('docs/cases/007-setup.md', GOOD);
    expect(c).toMatchObject({ id: '007', title: 'The referee creates a campaign', profile: 'valormr', topic: 'setup', seed: 1, dice: [1, 2, 3, 4, 4], sources: ['000 Campaign Scenario'] });
    expect(c.steps.map((s) => s.kind)).toEqual(['line', 'check', 'check']);
    expect(c.steps[1]).toMatchObject({ check: { verb: 'contains', reader: { to: 'reply', user: 'referee' }, text: 'Day 1, morning' } });
  });

  it('GIVEN a case with several mistakes THEN every one is listed with what is accepted', () => {
    const bad = GOOD.replace('# Case 7.', '# Case 8.').replace('profile: valormr', 'profile: gurps').replace('dice: 1, 2,3 4x2', 'dice: 1,7').replace('Source: 000', 'Source: the book').replace('? ok', '? dm shows "x"');
    const found = problems(bad);
    expect(found).toEqual(expect.arrayContaining([
      'the heading says case 8 but the file name says 007',
      expect.stringContaining('profile must be one of valormr, acks, chapter002, warlord'),
      expect.stringContaining('dice are d6 results from 1 to 6'),
      expect.stringContaining('Source "the book Campaign Scenario" should start with the text'),
      expect.stringMatching(/^line 17: a check reads `\? WHO VERB/),
    ]));
    expect(problems(GOOD, 'docs/cases/seven.md')[0]).toContain('the file name is NNN-words.md');
    expect(problems(GOOD.replace(/```console[\s\S]*```$/, ''))).toContain('one ```console block is needed (the console lines and their ? checks), found 0');
    expect(problems(GOOD.replace('topic: setup', 'topic: setup\nspeed: 30'))).toEqual([expect.stringContaining('unknown key(s) speed')]);
  });

  it('GIVEN check lines THEN each reader and verb is read, and a bad pattern is named', () => {
    expect(parseCheck('? @alice lacks /fatigued/i')).toMatchObject({ verb: 'lacks', reader: { to: 'any', user: 'alice' }, pattern: /fatigued/i });
    expect(parseCheck('? channel matches /marched from \\d{4}/')).toMatchObject({ verb: 'matches', reader: { to: 'channel' } });
    expect(parseCheck('? ephemeral error move.noPath')).toEqual({ verb: 'error', reader: { to: 'ephemeral' }, code: 'move.noPath' });
    expect(parseCheck('? contains "say \\"hi\\""')).toMatchObject({ text: 'say "hi"' });
    expect(parseCheck('? matches /(/')).toMatchObject({ problem: expect.stringContaining('not a valid regular expression') });
    expect(parseCheck('? contains /x/')).toMatchObject({ problem: expect.stringContaining('use `matches`') });
  });
});

describe('playing a case', () => {
  it('GIVEN a check the bot does not meet THEN the case fails with the line, the check and what the reader was shown', async () => {
    const c = readCase('docs/cases/007-setup.md', GOOD.replace('"Day 1, morning"', '"Day 9, night"'));
    const outcome = await playCase(c, process.cwd());
    expect(outcome.passed).toBe(false);
    expect(outcome.failures).toHaveLength(1);
    expect(outcome.failures[0]).toContain('line 16: ? reply @referee contains "Day 9, night"');
    expect(outcome.failures[0]).toContain('── reply @referee');
    expect(outcome.failures[0]).toContain('Game time: Day 1, morning');
    const ok = await playCase(readCase('docs/cases/007-setup.md', GOOD), process.cwd());
    expect(ok).toEqual({ passed: true, failures: [] });
  });

  it('GIVEN a known defect THEN a failing case is KNOWN and a passing one is FIXED (to be taken off the list)', async () => {
    const dir = testTempDir('cases-');
    const file = join(dir, '007-setup.md');
    writeFileSync(file, GOOD);
    expect((await judgeCase(file, { '007': 'a defect' })).verdict).toBe('FIXED');
    writeFileSync(file, GOOD.replace('"Day 1, morning"', '"Day 9, night"'));
    expect(await judgeCase(file, { '007': 'a defect' })).toMatchObject({ verdict: 'KNOWN', detail: '  known defect: a defect' });
    expect((await judgeCase(file, {})).verdict).toBe('FAIL');
  });
});
