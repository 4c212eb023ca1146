import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationKey, orderByDuration, type QueuedFile } from './durationSequencer.js';

const file = fc.record({
  project: fc.constantFrom('sqlite', 'postgres', 'sqlite-shared', 'postgres-shared'),
  path: fc.constantFrom('tests/a.test.ts', 'tests/b.test.ts', 'tests/c/d.test.ts', 'tests/e.test.ts', 'tests/f.test.ts'),
}).map((f): QueuedFile => ({ ...f, isolate: !f.project.endsWith('-shared') }));
const files = fc.uniqueArray(file, { selector: durationKey, maxLength: 20 });
/** Recorded seconds for some of the files (the others are new). */
const recorded = (fs: readonly QueuedFile[]) => fc.tuple(...fs.map(() => fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined })))
  .map((secs) => Object.fromEntries(fs.flatMap((f, i) => (secs[i] === undefined ? [] : [[durationKey(f), secs[i]]]))));
const cases = files.chain((fs) => fc.tuple(fc.constant(fs), recorded(fs)));

describe('the test files\' order (tests/setup/durationSequencer.ts)', () => {
  it('GIVEN files and recorded seconds THEN every file runs once; isolated files come first, longest (or new) first; each shared project\'s files are together, longest first', () => {
    fc.assert(fc.property(cases, ([fs, seconds]) => {
      const order = orderByDuration(fs, seconds);
      expect([...order].map(durationKey).sort()).toEqual(fs.map(durationKey).sort());
      const cost = (f: QueuedFile): number => seconds[durationKey(f)] ?? Number.POSITIVE_INFINITY;
      const isolated = order.filter((f) => f.isolate);
      expect(order.slice(0, isolated.length)).toEqual(isolated);
      for (let i = 1; i < order.length; i++) {
        const [a, b] = [order[i - 1]!, order[i]!];
        if (a.project === b.project || (a.isolate && b.isolate)) expect(cost(a)).toBeGreaterThanOrEqual(cost(b));
      }
      const sharedRuns = order.filter((f, i) => !f.isolate && order[i - 1]?.project !== f.project).map((f) => f.project);
      expect(new Set(sharedRuns).size).toBe(sharedRuns.length);
    }));
  });

  it('GIVEN nothing recorded THEN the order is still a fixed one (by project and path), not the order asked in', () => {
    fc.assert(fc.property(files, (fs) => {
      expect(orderByDuration([...fs].reverse(), {})).toEqual(orderByDuration(fs, {}));
    }));
  });
});
