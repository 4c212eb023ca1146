import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFUSAL_CODES, type RefusalCode } from '../../src/engine/refusalCodes.js';

/**
 * The one table of refusal codes (src/engine/refusalCodes.ts). The compiler proves the other half:
 * `fail`, `Violation` and `UserError` take a RefusalCode, so a code made anywhere is in the table.
 */

const TABLE_FILE = join('src', 'engine', 'refusalCodes.ts');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every single-quoted dotted literal (`'area.what'`) in the source outside the table itself. */
function quotedInSource(): Set<string> {
  const found = new Set<string>();
  for (const file of [...tsFiles('src'), ...tsFiles('commands')]) {
    if (file === TABLE_FILE) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/'([a-z]+\.[a-zA-Z]+)'/g)) found.add(m[1] as string);
  }
  return found;
}

const codes = Object.keys(REFUSAL_CODES) as RefusalCode[];

/** docs/refusals.md, generated from the table: one section per area, one row per code. */
function refusalsDoc(): string {
  const areas = [...new Set(codes.map((c) => c.split('.')[0] as string))].sort();
  const sections = areas.map((area) => {
    const rows = codes.filter((c) => c.startsWith(`${area}.`)).sort().map((c) => `| \`${c}\` | ${REFUSAL_CODES[c]} |`);
    return [`## ${area}`, '', '| code | refused when |', '| --- | --- |', ...rows, ''].join('\n');
  });
  return [
    '# Refusal codes',
    '',
    'Every refusal (a bad input or an action not allowed) carries a stable dotted code beside its',
    'sentence. The sentence says what was wrong and what is accepted, and may be reworded; the code',
    'stays, so scripts, logs, test cases (`? error move.noPath` in docs/cases) and bug reports can name',
    'a refusal by it. The table below is generated from src/engine/refusalCodes.ts, the one list of',
    'codes; the compiler refuses any other. After changing the table, run',
    '`npx vitest run tests/app/refusalCodes.test.ts -u` to rewrite this page.',
    '',
    `${codes.length} codes in ${areas.length} areas.`,
    '',
    ...sections,
  ].join('\n');
}

describe('refusal codes: one table', () => {
  it('GIVEN the table WHEN the source is searched THEN every code is made somewhere in src/ or commands/', () => {
    const found = quotedInSource();
    expect(codes.filter((c) => !found.has(c))).toEqual([]);
  });

  it('GIVEN the table THEN every code is dotted area.what and means something', () => {
    for (const c of codes) {
      expect(c).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
      expect(REFUSAL_CODES[c].length).toBeGreaterThan(10);
    }
  });

  it('GIVEN the table THEN docs/refusals.md is generated from it (every code documented)', async () => {
    await expect(refusalsDoc()).toMatchFileSnapshot('../../docs/refusals.md');
  });

  it('GIVEN the rule cases (docs/cases) WHEN a case expects a refusal THEN its code is in the table', () => {
    const expected = readdirSync(join('docs', 'cases'))
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) => [...readFileSync(join('docs', 'cases', f), 'utf8').matchAll(/^\?.*\berror\s+([a-z]+\.[a-zA-Z]+)\b/gm)].map((m) => m[1] as string));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.filter((c) => !(c in REFUSAL_CODES))).toEqual([]);
  });
});
