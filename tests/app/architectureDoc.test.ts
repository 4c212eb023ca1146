import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * docs/architecture.md is the newcomer's map (issue 29, item 5): every file it names must exist,
 * and every name its "Where things live" table says to look for must be in that file, so the map
 * cannot drift silently when code moves.
 */

const DOC = readFileSync('docs/architecture.md', 'utf8');

/** Paths the doc names (placeholders such as `commands/<name>.ts` aside). */
function namedPaths(text: string): string[] {
  const found = text.match(/(?<![\w./-])(?:src|commands|tests|docs|bench|scripts|migrations)\/[\w./-]*[\w/]/g) ?? [];
  return [...new Set(found)].filter((p) => !p.includes('<'));
}

/** The section under `## <title>` up to the next `## `. */
function section(title: string): string {
  const start = DOC.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${title}"`);
  const end = DOC.indexOf('\n## ', start + 3);
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** The body rows of the first Markdown table in `text`, split into cells. */
function tableRows(text: string): string[][] {
  return text.split('\n').filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l)).slice(1).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
}

/** Whether `file` declares `name` (a function, class, constant, type, method or property). */
function declares(file: string, name: string): boolean {
  const text = readFileSync(file, 'utf8');
  return new RegExp(`(?:function\\*?|class|const|let|interface|type|async)\\s+${name}\\b|^\\s*(?:async\\s+)?${name}\\s*[(:]|export \\{[^}]*\\b${name}\\b`, 'm').test(text);
}

describe('docs/architecture.md is true to the tree', () => {
  it('GIVEN the doc WHEN every file path it names is looked up THEN each exists', () => {
    const paths = namedPaths(DOC);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => !existsSync(p))).toEqual([]);
  });

  it('GIVEN the "Where things live" table WHEN each row is read THEN its file exists and declares what it says to look for', () => {
    const rows = tableRows(section('Where things live'));
    expect(rows.length).toBeGreaterThanOrEqual(12);
    const wrong = rows.flatMap(([, step = '', file = '', look = '']) => {
      const name = /^`(\w+)`$/.exec(look)?.[1];
      if (!existsSync(file)) return [`${step}: ${file} does not exist`];
      if (!name) return [`${step}: no name to look for in ${file}`];
      return declares(file, name) ? [] : [`${step}: ${file} does not declare ${name}`];
    });
    expect(wrong).toEqual([]);
  });

  it('GIVEN the prose after the table WHEN it names a file and what to look for THEN the file declares it', () => {
    const text = section('Where things live');
    const pairs = [...text.matchAll(/((?:src|commands)\/[\w./-]+\.ts) \(`(\w+)`/g)].map((m) => [m[1] ?? '', m[2] ?? ''] as const);
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    expect(pairs.filter(([f, n]) => !existsSync(f) || !declares(f, n)).map(([f, n]) => `${f} ${n}`)).toEqual([]);
  });

  it('GIVEN the tables of deliveries and engine modules WHEN read THEN each file and module exists', () => {
    const deliveries = tableRows(section('Deliveries: who learns what')).map(([f = '']) => f.replace(/`/g, ''));
    expect(deliveries.length).toBeGreaterThan(5);
    expect(deliveries.filter((f) => !existsSync(`src/app/deliveries/${f}`))).toEqual([]);
    const modules = tableRows(section('Where the rules live')).flatMap(([m = '']) => [...m.matchAll(/`(\w+)`/g)].map((x) => x[1] ?? ''));
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.filter((m) => !existsSync(`src/engine/${m}/index.ts`))).toEqual([]);
  });
});
