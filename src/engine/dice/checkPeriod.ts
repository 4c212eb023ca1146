import { dieFromSeed, labelledDie, rollLabel, type RollSource } from './dice.js';
import { rollStream, type DiceStream } from './rollKinds.js';

/** A roll as the log holds it: what `/dice verify` compares. */
export interface RollRecord {
  readonly purpose: string;
  readonly sides: number;
  readonly value: number;
  readonly source: RollSource;
  readonly draw?: number;
  /** A roll of a period with two streams: its stream and which roll of its purpose it was. */
  readonly stream?: DiceStream;
  readonly nth?: number;
  /** Withdrawn by an undo: checked against the seed, but not counted (the replay rolls the same labels again). */
  readonly undone?: boolean;
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

/** What checking one stream of a dice period found. */
export type StreamCheck =
  | { readonly ok: true; readonly checked: number; readonly manual: number; readonly scripted: number; readonly undone: number }
  | { readonly ok: false; readonly problem: 'value'; readonly purpose: string; readonly label: string; readonly logged: number; readonly expected: number }
  | { readonly ok: false; readonly problem: 'skipped'; readonly purpose: string; readonly label: string; readonly expectedLabel: string }
  | { readonly ok: false; readonly problem: 'unlogged'; readonly logged: number; readonly revealed: number };

/**
 * Checks one stream (public or secret) of a period with labelled dice against its seed: every
 * seeded die of the stream in the log is recomputed from its label (`<purpose>#<n>`) and compared;
 * the labels of each purpose run 1, 2, 3... in log order among the dice not withdrawn (a die rolled
 * and left out of the log would leave a gap); and there are as many as the period rolled in that
 * stream (`rolled`). Dice withdrawn by an undo are checked too but not counted: the replay rolls
 * the same labels again. Dice entered by hand and scripted dice are counted apart.
 * @see docs/dice.md
 */
export function checkStream(seed: string, stream: DiceStream, rolled: number, rolls: readonly RollRecord[]): StreamCheck {
  const next = new Map<string, number>();
  let checked = 0;
  let manual = 0;
  let scripted = 0;
  let undone = 0;
  for (const r of rolls) {
    if ((r.stream ?? rollStream(r.purpose)) !== stream) continue;
    if (r.source === 'manual' || r.source === 'scripted') {
      if (!r.undone && r.source === 'manual') manual++;
      else if (!r.undone) scripted++;
      continue;
    }
    const nth = r.nth ?? 0;
    const label = rollLabel(r.purpose, nth);
    const expected = labelledDie(seed, label, r.sides);
    if (r.value !== expected) return { ok: false, problem: 'value', purpose: r.purpose, label, logged: r.value, expected };
    if (r.undone) {
      undone++;
      continue;
    }
    const want = (next.get(r.purpose) ?? 0) + 1;
    if (nth !== want) return { ok: false, problem: 'skipped', purpose: r.purpose, label, expectedLabel: rollLabel(r.purpose, want) };
    next.set(r.purpose, want);
    checked++;
  }
  if (checked !== rolled) return { ok: false, problem: 'unlogged', logged: checked, revealed: rolled };
  return { ok: true, checked, manual, scripted, undone };
}
