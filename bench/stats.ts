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

export function median(samples: readonly number[]): number {
  return stats(samples).median;
}

export async function time(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Rounds a figure for the JSON line (two decimals). */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** One human-readable line (the JSON line comes last, from bench/index.ts). */
export function line(text: string): void {
  process.stdout.write(`${text}\n`);
}

export function report(label: string, st: Stats, goal?: string): void {
  line(`${label.padEnd(64)} median ${st.median.toFixed(2).padStart(8)} ms   p99 ${st.p99.toFixed(2).padStart(8)} ms   (n=${st.n})${goal ? `   goal: ${goal}` : ''}`);
}

export function figure(label: string, value: string, goal?: string): void {
  line(`${label.padEnd(64)} ${value.padStart(12)}${goal ? `   goal: ${goal}` : ''}`);
}
