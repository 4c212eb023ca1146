/**
 * The page's map pictures, kept after their first render (a small least-recently-used cache): a
 * picture is keyed by who asked, for which view and day, and a hash of what it draws, so a tick
 * that changes the reader's view makes a new one (a change hidden from them does not) and the
 * old one ages out. Concurrent asks for one key share one render.
 */
export class MapCache {
  private readonly entries = new Map<string, Promise<Buffer>>();

  constructor(private readonly capacity: number) {}

  /** Whether `key` is kept (or being rendered). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const p = render();
    this.entries.set(key, p);
    p.catch(() => this.entries.delete(key));
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return p;
  }
}
