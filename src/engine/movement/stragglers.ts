import { percentOfFigures, regimentFigures, type Army, type Regiment, type Straggler } from '../forces/index.js';
import { halfDice, type Dice } from '../dice/index.js';

/**
 * Percent of each regiment lost to stragglers for a day of unformed movement, and recovered per
 * day of waiting at the rally point: a half-dice times 5 (5, 10 or 15 %).
 * @see 000 Terrain Effects: Units, Formed and Unformed
 */
export function stragglerPercent(dice: Dice, purpose: string): number {
  return halfDice(dice, purpose) * 5;
}

/** Figures of a regiment that straggle at `percent`: rounded up to whole figures. */
export const stragglerFigures = percentOfFigures;

/**
 * Takes `n` figures off a regiment, from its largest company first (then the next largest; ties
 * to the earlier company), and records which company each straggler belongs to.
 * @see docs/rulings.md, Unformed movement and stragglers
 */
function takeStragglers(r: Regiment, n: number): { regiment: Regiment; stragglers: Straggler[] } {
  const companies = r.companies.map((c) => ({ ...c }));
  const order = companies.map((_, i) => i).sort((a, b) => (companies[b]?.figures ?? 0) - (companies[a]?.figures ?? 0) || a - b);
  const stragglers: Straggler[] = [];
  let left = Math.max(0, n);
  for (const i of order) {
    const c = companies[i];
    if (left <= 0 || !c) break;
    const t = Math.min(left, c.figures);
    if (t <= 0) continue;
    companies[i] = { ...c, figures: c.figures - t };
    stragglers.push({ regimentId: r.id, company: i, figures: t });
    left -= t;
  }
  return { regiment: { ...r, companies }, stragglers: stragglers.sort((a, b) => a.company - b.company) };
}

/** Merges straggler records of the same company. */
function mergeStragglers(list: readonly Straggler[]): Straggler[] {
  const byKey = new Map<string, Straggler>();
  for (const s of list) {
    const k = `${s.regimentId}#${s.company}`;
    const prev = byKey.get(k);
    byKey.set(k, prev ? { ...prev, figures: prev.figures + s.figures } : s);
  }
  return [...byKey.values()].filter((s) => s.figures > 0);
}

/** A day of unformed movement: one half-dice for the army, applied to every regiment. */
export function loseStragglers(army: Army, dice: Dice): { army: Army; percent: number; lost: number } {
  const percent = stragglerPercent(dice, `stragglers of ${army.name}`);
  const fresh: Straggler[] = [];
  const regiments = army.regiments.map((r) => {
    const n = stragglerFigures(regimentFigures(r), percent);
    const out = takeStragglers(r, n);
    fresh.push(...out.stragglers);
    return out.regiment;
  });
  const lost = fresh.reduce((n, s) => n + s.figures, 0);
  return { army: { ...army, regiments, march: { ...army.march, stragglers: mergeStragglers([...army.march.stragglers, ...fresh]) } }, percent, lost };
}

/**
 * A day of waiting at the rally point: a half-dice times 5 % of each regiment (its present figures
 * and stragglers together, rounded up) rejoins, up to the stragglers it has.
 */
export function recoverStragglers(army: Army, dice: Dice): { army: Army; percent: number; recovered: number } {
  const percent = stragglerPercent(dice, `stragglers rejoining ${army.name}`);
  let recovered = 0;
  const left: Straggler[] = [];
  const regiments = army.regiments.map((r) => {
    const mine = army.march.stragglers.filter((s) => s.regimentId === r.id);
    const behind = mine.reduce((n, s) => n + s.figures, 0);
    if (behind === 0) return r;
    let back = Math.min(behind, Math.ceil(((regimentFigures(r) + behind) * percent) / 100));
    const companies = r.companies.map((c) => ({ ...c }));
    for (const s of mine) {
      const k = Math.min(back, s.figures);
      back -= k;
      recovered += k;
      const c = companies[s.company];
      if (c) companies[s.company] = { ...c, figures: c.figures + k };
      if (s.figures - k > 0) left.push({ ...s, figures: s.figures - k });
    }
    return { ...r, companies };
  });
  const others = army.march.stragglers.filter((s) => !army.regiments.some((r) => r.id === s.regimentId));
  return { army: { ...army, regiments, march: { ...army.march, stragglers: [...left, ...others] } }, percent, recovered };
}

export function stragglerCount(army: Army): number {
  return army.march.stragglers.reduce((n, s) => n + s.figures, 0);
}
