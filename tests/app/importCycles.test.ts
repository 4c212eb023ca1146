import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** One module a file names, and whether only types come through (no edge at run time). */
interface Specifier {
  readonly path: string;
  readonly typeOnly: boolean;
}

/** `{ type A, type B }`: every name in the braces is a type (and there is no default import beside them). */
const allTypes = (clause: string): boolean => {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  const names = braces?.[1]?.split(',').map((n) => n.trim()).filter((n) => n !== '') ?? [];
  return names.length > 0 && names.every((n) => n.startsWith('type '));
};

/**
 * Every relative module a TypeScript text names: `import`/`export ... from` (type-only when
 * `import type`, `export type` or every name marked `type`); bare side-effect imports
 * (`import './x.js'`); and `import('./x.js')`, a dynamic import (at run time) or a type
 * expression (`import('./x.js').Name`, types only).
 */
function specifiers(text: string): Specifier[] {
  const statements = [...text.matchAll(/(?:^|[\s;}])(import|export)\s([^'"`;]*?)\sfrom\s*['"](\.[^'"]+)['"]/g)].map((m) => {
    const clause = (m[2] as string).trim();
    return { path: m[3] as string, typeOnly: clause.startsWith('type ') || allTypes(clause) };
  });
  const bare = [...text.matchAll(/(?:^|[\s;}])import\s*['"](\.[^'"]+)['"]/g)].map((m) => ({ path: m[1] as string, typeOnly: false }));
  const calls = [...text.matchAll(/(await\s*)?\bimport\(\s*['"](\.[^'"]+)['"]\s*\)(\.(?!then\b)[A-Za-z_$])?/g)].map((m) => ({
    path: m[2] as string,
    typeOnly: m[1] === undefined && m[3] !== undefined,
  }));
  return [...statements, ...bare, ...calls];
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
 * (an import of a file outside the roots, or of a non-TypeScript file, draws no edge); `runtime`:
 * only the imports that load a module when the program runs.
 */
function importGraph(roots: readonly string[], which: 'all' | 'runtime'): Map<string, string[]> {
  const files = roots.flatMap(tsFiles);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = specifiers(readFileSync(file, 'utf8'))
      .filter((s) => which === 'all' || !s.typeOnly)
      .map((s) => resolve(dirname(file), s.path.replace(/\.js$/, '.ts')))
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
      "import { type J, type K } from './j.js';",
      "import l, { type L } from './l.js';",
      "import { z } from 'zod';",
      "const text = 'the import from here';",
    ].join('\n');
    const found = specifiers(text).map((s) => `${s.path}${s.typeOnly ? ' (types)' : ''}`);
    expect(found.sort()).toEqual([
      '../b/index.js (types)', './a.js', './c.js', './d.js', './e.js', './f.js (types)', './g.js',
      './h.js (types)', './i.js', './j.js (types)', './l.js',
    ]);
  });

  const roots = [resolve('src'), resolve('commands')];
  const named = (cycles: string[][]): string[][] => cycles.map((c) => c.map((p) => relative(resolve('.'), p)).sort());

  it('GIVEN every file of src/ and commands/ WHEN the imports that load at run time are followed THEN no file imports itself back', () => {
    const graph = importGraph(roots, 'runtime');
    expect(graph.size).toBeGreaterThan(300);
    expect(named(cyclesOf(graph))).toEqual([]);
  });

  it('GIVEN every file of src/ and commands/ WHEN every import (types too) is followed THEN no file imports itself back', () => {
    // Type-only imports count too: a type cycle ties the files' meaning together as much as a
    // runtime one. The stored records live at the ground floor (src/engine/state/), and the
    // tick's union of every module's events is assembled above the rule modules.
    const graph = importGraph(roots, 'all');
    expect(graph.size).toBeGreaterThan(300);
    expect(named(cyclesOf(graph))).toEqual([]);
  });
});
