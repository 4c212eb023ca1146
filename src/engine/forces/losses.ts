import type { Company, Regiment } from './army.js';

/** Whole figures lost at `percent` of `figures`: rounded up, never more than there are. */
export function percentOfFigures(figures: number, percent: number): number {
  if (figures <= 0 || percent <= 0) return 0;
  return Math.min(figures, Math.ceil((figures * percent) / 100));
}

/**
 * Spreads a new total over companies in proportion to their figures, whole figures by largest
 * remainder (ties to the earlier company). Works both ways: losses and reinforcements.
 */
export function scaleCompanies<T extends Pick<Company, 'figures'>>(companies: readonly T[], target: number): T[] {
  const current = companies.reduce((n, c) => n + c.figures, 0);
  const goal = Math.max(0, target);
  if (companies.length === 0) return [];
  if (current === 0) return companies.map((c, i) => ({ ...c, figures: i === 0 ? goal : 0 }));
  const exact = companies.map((c) => (c.figures * goal) / current);
  const whole = exact.map(Math.floor);
  let left = goal - whole.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    whole[i] = (whole[i] ?? 0) + 1;
    left--;
  }
  return companies.map((c, i) => ({ ...c, figures: whole[i] ?? 0 }));
}

/**
 * Takes `n` figures off a regiment, spread over its companies in proportion, and says how many
 * each company lost (for stragglers, who may come back to their company).
 */
export function takeFigures(r: Regiment, n: number): { regiment: Regiment; taken: number[] } {
  const total = r.companies.reduce((s, c) => s + c.figures, 0);
  const take = Math.min(total, Math.max(0, n));
  if (take === 0) return { regiment: r, taken: r.companies.map(() => 0) };
  const companies = scaleCompanies(r.companies, total - take);
  return { regiment: { ...r, companies }, taken: r.companies.map((c, i) => c.figures - (companies[i]?.figures ?? 0)) };
}
