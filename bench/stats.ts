/** Timing helpers for `npm run bench`. */
export interface Stats {
  readonly n: number;
  readonly median: number;
  readonly p99: number;
  readonly max: number;
}

export function stats(samples: readonly number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { n: s.length, median: at(0.5), p99: at(0.99), max: s[s.length - 1] ?? 0 };
}

export async function time(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export function report(label: string, st: Stats, goal?: string): void {
  const line = `${label.padEnd(58)} median ${st.median.toFixed(2).padStart(8)} ms   p99 ${st.p99.toFixed(2).padStart(8)} ms   (n=${st.n})${goal ? `   goal: ${goal}` : ''}`;
  process.stdout.write(`${line}\n`);
}
