import { describe, expect, it } from 'vitest';
import { caseFiles, judgeCase, KNOWN_DEFECTS, loadCase, reportText } from '../../src/console/cases/runCases.js';

// The adjudication cases of docs/cases, each played through the console as `npm run cases` does.
const files = caseFiles();

describe('docs/cases: the public adjudication suite', () => {
  it('holds at least 60 cases, numbered once each, and every known defect names a case', () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
    const ids = files.map((f) => loadCase(f).id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of Object.keys(KNOWN_DEFECTS)) expect(ids).toContain(id);
  });

  for (const file of files) {
    const name = file.split('/').pop() as string;
    it(name, { timeout: 120_000 }, async () => {
      const r = await judgeCase(file);
      // KNOWN: fails as its listed defect says; anything else but PASS shows the difference.
      expect(['PASS', 'KNOWN'], reportText(r)).toContain(r.verdict);
    });
  }
});
