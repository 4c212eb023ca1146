import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { playCase } from './playCase.js';
import { CaseFileError, readCase, type Case } from './readCase.js';

/**
 * Cases the bot fails today because of a known rule defect, each with the defect named. The suite
 * passes while they fail; one that starts to pass fails the suite until it is taken off this list
 * (so a fix is noticed and the case guards it from then on).
 */
export const KNOWN_DEFECTS: Readonly<Record<string, string>> = {};

export const CASES_DIR = resolve(import.meta.dirname, '../../../docs/cases');

/** The case files of a folder, in number order. */
export function caseFiles(dir = CASES_DIR): string[] {
  return readdirSync(dir).filter((f) => /^\d{3}-.*\.md$/.test(f)).sort().map((f) => join(dir, f));
}

export function loadCase(file: string): Case {
  return readCase(file, readFileSync(file, 'utf8'));
}

export type Verdict = 'PASS' | 'FAIL' | 'KNOWN' | 'FIXED' | 'BAD';

export interface CaseReport {
  readonly file: string;
  readonly id: string;
  readonly title: string;
  readonly verdict: Verdict;
  /** What went wrong (FAIL, BAD), or the known defect (KNOWN, FIXED). */
  readonly detail: string;
}

/** Reads and plays one case file, judged against the known-defect list. */
export async function judgeCase(file: string, known: Readonly<Record<string, string>> = KNOWN_DEFECTS): Promise<CaseReport> {
  let c: Case;
  try {
    c = loadCase(file);
  } catch (e) {
    if (e instanceof CaseFileError) return { file, id: '???', title: file, verdict: 'BAD', detail: e.problems.map((p) => `  - ${p}`).join('\n') };
    throw e;
  }
  const outcome = await playCase(c, resolve(file, '..'));
  const defect = known[c.id];
  const base = { file, id: c.id, title: c.title };
  if (defect !== undefined) {
    return outcome.passed
      ? { ...base, verdict: 'FIXED', detail: `  known defect "${defect}" no longer shows: take case ${c.id} off KNOWN_DEFECTS in src/console/cases/runCases.ts` }
      : { ...base, verdict: 'KNOWN', detail: `  known defect: ${defect}` };
  }
  return { ...base, verdict: outcome.passed ? 'PASS' : 'FAIL', detail: outcome.failures.join('\n') };
}

/** A report line as `npm run cases` prints it (with the difference on failure). */
export function reportText(r: CaseReport): string {
  const head = `${r.verdict.padEnd(5)} ${r.id} ${r.title}`;
  return r.verdict === 'PASS' ? head : `${head}\n${r.detail}`;
}

/** Passing verdicts: the suite fails on any other. */
export const isGood = (v: Verdict): boolean => v === 'PASS' || v === 'KNOWN';

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]).replace(/\.ts$/, '') === resolve(new URL(import.meta.url).pathname).replace(/\.ts$/, '');
if (isMain) {
  const args = process.argv.slice(2);
  // Arguments pick cases by number (12), range (50-61) or file name; none plays them all.
  const all = caseFiles();
  const picks = (f: string, a: string): boolean => {
    const n = Number(f.split('/').pop()?.slice(0, 3));
    const range = /^(\d+)-(\d+)$/.exec(a);
    if (range) return n >= Number(range[1]) && n <= Number(range[2]);
    return /^\d+$/.test(a) ? n === Number(a) : f.endsWith(a);
  };
  const files = args.length === 0 ? all : all.filter((f) => args.some((a) => picks(f, a)));
  if (files.length === 0) {
    process.stderr.write(`No case matches ${args.join(' ')}: give case numbers (12), ranges (50-61) or file names from docs/cases.\n`);
    process.exit(2);
  }
  const counts: Record<Verdict, number> = { PASS: 0, FAIL: 0, KNOWN: 0, FIXED: 0, BAD: 0 };
  for (const f of files) {
    const r = await judgeCase(f);
    counts[r.verdict]++;
    process.stdout.write(`${reportText(r)}\n`);
  }
  process.stdout.write(`\n${files.length} case(s): ${Object.entries(counts).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`).join(', ')}\n`);
  process.exitCode = counts.FAIL + counts.FIXED + counts.BAD > 0 ? 1 : 0;
}
