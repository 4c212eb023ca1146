import type { HexGrid } from '../map/index.js';

/**
 * Connectivity of a movement profile's legal-entry graph: strongly connected components (Tarjan,
 * iterative) and their condensation, so a route search answers "no route at all" without
 * searching.
 */

/** Tarjan's strongly connected components, iteratively; components come out in reverse topological order. */
export function stronglyConnected(g: HexGrid, legal: Int8Array): Int32Array {
  const n = g.size;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callDir = new Int8Array(n);
  let sp = 0;
  let next = 0;
  let comps = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    let cs = 0;
    callNode[0] = s;
    callDir[0] = 0;
    index[s] = low[s] = next++;
    stack[sp++] = s;
    onStack[s] = 1;
    while (cs >= 0) {
      const v = callNode[cs] as number;
      const d = callDir[cs] as number;
      if (d < 6) {
        callDir[cs] = d + 1;
        if (!legal[v * 6 + d]) continue;
        const w = g.neighbour[v * 6 + d] as number;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          cs++;
          callNode[cs] = w;
          callDir[cs] = 0;
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      if (low[v] === index[v]) {
        let x: number;
        do {
          x = stack[--sp] as number;
          onStack[x] = 0;
          comp[x] = comps;
        } while (x !== v);
        comps++;
      }
      cs--;
      if (cs >= 0) {
        const u = callNode[cs] as number;
        low[u] = Math.min(low[u] as number, low[v] as number);
      }
    }
  }
  return comp;
}

/**
 * The strongly connected components of a profile's legal-entry graph and their condensation
 * (what `connected` reads; a route profile carries them).
 */
export interface RouteComponents {
  /** Component of each hex; components are numbered in reverse topological order (Tarjan). */
  readonly comp: Int32Array;
  /** Condensation: component c's successors are compAdj[compStart[c] .. compStart[c + 1]). */
  readonly compStart: Int32Array;
  readonly compAdj: Int32Array;
}

/** The graph of components (edges between different components, without repeats). */
export function condensation(g: HexGrid, legal: Int8Array, comp: Int32Array): { compStart: Int32Array; compAdj: Int32Array } {
  let count = 0;
  for (let c = 0; c < comp.length; c++) count = Math.max(count, (comp[c] as number) + 1);
  const pairs: number[] = [];
  for (let i = 0; i < g.size; i++) {
    const ci = comp[i] as number;
    for (let d = 0; d < 6; d++) {
      if (!legal[i * 6 + d]) continue;
      const cj = comp[g.neighbour[i * 6 + d] as number] as number;
      if (cj !== ci) pairs.push(ci * count + cj);
    }
  }
  const sorted = Float64Array.from(pairs).sort();
  const compStart = new Int32Array(count + 1);
  const adj: number[] = [];
  let last = -1;
  for (const p of sorted) {
    if (p === last) continue;
    last = p;
    const from = Math.floor(p / count);
    adj.push(p - from * count);
    compStart[from + 1] = (compStart[from + 1] as number) + 1;
  }
  for (let c = 0; c < count; c++) compStart[c + 1] = (compStart[c + 1] as number) + (compStart[c] as number);
  return { compStart, compAdj: Int32Array.from(adj) };
}

/** Whether any legal sequence of entries leads from hex `s` to hex `t` (blocked hexes and crossings aside). */
export function connected(p: RouteComponents, s: number, t: number): boolean {
  const cs = p.comp[s] as number;
  const ct = p.comp[t] as number;
  if (cs === ct) return true;
  // Reverse topological numbering: a component only reaches components numbered lower.
  if (ct > cs) return false;
  const seen = new Uint8Array(cs + 1);
  const queue = [cs];
  seen[cs] = 1;
  while (queue.length > 0) {
    const c = queue.pop() as number;
    for (let k = p.compStart[c] as number; k < (p.compStart[c + 1] as number); k++) {
      const x = p.compAdj[k] as number;
      if (x === ct) return true;
      if (x < ct || seen[x]) continue;
      seen[x] = 1;
      queue.push(x);
    }
  }
  return false;
}
