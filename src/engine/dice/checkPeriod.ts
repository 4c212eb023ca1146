import { dieFromSeed, type RollSource } from './dice.js';

/** A roll as the log holds it: what `/dice verify` compares. */
export interface RollRecord {
  readonly purpose: string;
  readonly sides: number;
  readonly value: number;
  readonly source: RollSource;
  readonly draw?: number;
}

/** What checking one dice period's log against its revealed seed found. */
export type PeriodCheck =
  | { readonly ok: true; readonly checked: number; readonly manual: number; readonly scripted: number }
  | { readonly ok: false; readonly problem: 'value'; readonly purpose: string; readonly logged: number; readonly expected: number; readonly draw: number }
  | { readonly ok: false; readonly problem: 'skipped'; readonly purpose: string; readonly loggedDraw: number; readonly expectedDraw: number }
  | { readonly ok: false; readonly problem: 'unlogged'; readonly logged: number; readonly revealed: number };

/**
 * Recomputes every seeded die of a period from its revealed seed, in the order of the log, and
 * compares it with the logged value purpose by purpose: the same value, made by the draw the log
 * names (a die rolled and left out of the log would shift every later draw), and in all as many
 * draws as the reveal states (none rolled after the last one logged). Dice entered by hand and
 * scripted dice draw nothing and are counted apart.
 * @see docs/dice.md
 */
export function checkPeriod(seed: string, revealedDraws: number, rolls: readonly RollRecord[]): PeriodCheck {
  let draw = 0;
  let checked = 0;
  let manual = 0;
  let scripted = 0;
  for (const r of rolls) {
    if (r.source === 'manual') {
      manual++;
      continue;
    }
    if (r.source === 'scripted') {
      scripted++;
      continue;
    }
    const die = dieFromSeed(seed, draw, r.sides);
    if (r.draw !== undefined && r.draw !== die.draw) return { ok: false, problem: 'skipped', purpose: r.purpose, loggedDraw: r.draw, expectedDraw: die.draw };
    if (r.value !== die.value) return { ok: false, problem: 'value', purpose: r.purpose, logged: r.value, expected: die.value, draw: die.draw };
    draw = die.draw + 1;
    checked++;
  }
  if (draw !== revealedDraws) return { ok: false, problem: 'unlogged', logged: draw, revealed: revealedDraws };
  return { ok: true, checked, manual, scripted };
}
