import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The relative imports (type imports included) of every TypeScript file under `root`, as a graph
 * of absolute paths.
 */
function importGraph(root: string): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) files.push(path);
    }
  };
  walk(root);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/g)]
      .map((m) => resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')))
      .filter((p) => p.startsWith(root));
    graph.set(file, deps);
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

describe('imports in src/app', () => {
  it('GIVEN a graph with a cycle WHEN searched THEN the cycle is found (the check can fail)', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cyclesOf(g).map((c) => [...c].sort())).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('GIVEN every file of src/app WHEN their imports are followed THEN no file imports itself back', () => {
    const root = resolve('src/app');
    const graph = importGraph(root);
    expect(graph.size).toBeGreaterThan(50);
    expect(cyclesOf(graph).map((c) => c.map((p) => relative(root, p)).sort())).toEqual([]);
  });
});
