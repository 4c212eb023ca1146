/** The priority queue of the route search: search nodes by estimate, on typed arrays. */

/** Heap order: the smaller estimate first; among equal estimates the larger cost so far. */
const before = (f: number, g: number, kf: number, kg: number): boolean => f < kf || (f === kf && g > kg);

/**
 * A binary min-heap of search nodes on typed arrays, ordered by estimate and, among equal
 * estimates, by the larger cost so far (deeper nodes first).
 */
export class NodeHeap {
  private node = new Int32Array(1024);
  private f = new Float64Array(1024);
  private g = new Float64Array(1024);
  size = 0;

  push(node: number, f: number, g: number): void {
    if (this.size === this.node.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(f, g, this.f[p] as number, this.g[p] as number)) break;
      this.move(p, i);
      i = p;
    }
    this.put(i, node, f, g);
  }

  /** Cost so far of the top node. */
  topG(): number {
    return this.g[0] as number;
  }

  pop(): number {
    const top = this.node[0] as number;
    const last = --this.size;
    if (last > 0) {
      const node = this.node[last] as number;
      const f = this.f[last] as number;
      const g = this.g[last] as number;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const m = r < last && before(this.f[r] as number, this.g[r] as number, this.f[l] as number, this.g[l] as number) ? r : l;
        if (!before(this.f[m] as number, this.g[m] as number, f, g)) break;
        this.move(m, i);
        i = m;
      }
      this.put(i, node, f, g);
    }
    return top;
  }

  private move(from: number, to: number): void {
    this.node[to] = this.node[from] as number;
    this.f[to] = this.f[from] as number;
    this.g[to] = this.g[from] as number;
  }

  private put(i: number, node: number, f: number, g: number): void {
    this.node[i] = node;
    this.f[i] = f;
    this.g[i] = g;
  }

  private grow(): void {
    const node = new Int32Array(this.node.length * 2);
    const f = new Float64Array(this.f.length * 2);
    const g = new Float64Array(this.g.length * 2);
    node.set(this.node);
    f.set(this.f);
    g.set(this.g);
    this.node = node;
    this.f = f;
    this.g = g;
  }
}
