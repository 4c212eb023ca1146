import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative module specifier a TypeScript text names: `import`/`export ... from`, type
 * imports included; bare side-effect imports (`import './x.js'`); and `import('./x.js')`, both
 * the dynamic import and the type expression (`import('./x.js').Name`).
 */
function specifiers(text: string): string[] {
  const patterns = [
    /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.[^'"]+)['"]/g,
    /(?:^|[\s;}])import\s*['"](\.[^'"]+)['"]/g,
    /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1] as string));
}

/** Every TypeScript file under `dir`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The relative imports of every TypeScript file under the `roots`, as a graph of absolute paths
 * (an import of a file outside the roots, or of a non-TypeScript file, draws no edge).
 */
function importGraph(roots: readonly string[]): Map<string, string[]> {
  const files = roots.flatMap(tsFiles);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = specifiers(readFileSync(file, 'utf8'))
      .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')))
      .filter((p) => known.has(p));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan): each is an import cycle. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports in src/ and commands/', () => {
  it('GIVEN a graph with a cycle WHEN searched THEN the cycle is found (the check can fail)', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cyclesOf(g).map((c) => [...c].sort())).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('GIVEN every way a file names another WHEN scanned THEN each is an edge, and no look-alike is', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/index.js';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "export type { F } from './f.js';",
      "import './g.js';",
      "type H = import('./h.js').H;",
      "const i = await import('./i.js');",
      "import { z } from 'zod';",
      "const text = 'the import from here';",
    ].join('\n');
    expect(specifiers(text).sort()).toEqual(['../b/index.js', './a.js', './c.js', './d.js', './e.js', './f.js', './g.js', './h.js', './i.js']);
  });

  it('GIVEN every file of src/ and commands/ WHEN their imports are followed THEN no file imports itself back', () => {
    const roots = [resolve('src'), resolve('commands')];
    const graph = importGraph(roots);
    expect(graph.size).toBeGreaterThan(300);
    expect(cyclesOf(graph).map((c) => c.map((p) => relative(resolve('.'), p)).sort())).toEqual([]);
  });
});
