/**
 * Every die in the game is rolled through a Dice service. The engine has no ambient randomness:
 * the app injects a dice service seeded per campaign (or a scripted one in tests) and records
 * every roll with its purpose in the campaign's event log.
 * @see RULINGS 7 Dice
 */
export interface DiceRoll {
  readonly purpose: string;
  readonly sides: number;
  readonly value: number;
}

export interface Dice {
  /** One six-sided die. */
  d6(purpose: string): number;
  /** One die with any number of sides. */
  roll(sides: number, purpose: string): number;
}

/** A half-dice: a d6 divided by two, rounded up (1-3). @see 000 Terrain Effects, note 2 */
export function halfDice(dice: Dice, purpose: string): number {
  return Math.ceil(dice.d6(purpose) / 2);
}

/** Two six-sided dice added together. */
export function twoD6(dice: Dice, purpose: string): number {
  return dice.d6(`${purpose} (1 of 2)`) + dice.d6(`${purpose} (2 of 2)`);
}

/** Serializable state of the seeded generator, stored with the campaign. */
export interface RngState {
  readonly seed: number;
  /** Numbers drawn so far. */
  readonly draws: number;
  /** sfc32 internal state. */
  readonly s: readonly [number, number, number, number];
}

function splitmix32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x9e3779b9) >>> 0;
    let z = a;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRngState(seed: number): RngState {
  const next = splitmix32(seed);
  return { seed: seed >>> 0, draws: 0, s: [next(), next(), next(), next()] };
}

/** One sfc32 step: a 32-bit unsigned integer and the next state. */
function sfc32(s: readonly [number, number, number, number]): [number, [number, number, number, number]] {
  let [a, b, c, d] = s;
  const t = (((a + b) >>> 0) + d) >>> 0;
  d = (d + 1) >>> 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) >>> 0;
  c = ((c << 21) | (c >>> 11)) >>> 0;
  c = (c + t) >>> 0;
  return [t >>> 0, [a >>> 0, b, c, d]];
}

/**
 * A seeded dice service. `script` is a queue of d6 results used first (for tests and for the
 * console's --dice flag); after it runs out the seeded generator takes over. `rolls` records
 * every roll, and `state()` returns the generator state to store back with the campaign.
 */
export class SeededDice implements Dice {
  readonly rolls: DiceRoll[] = [];
  private rng: RngState;
  private readonly script: number[];

  constructor(rng: RngState, script: readonly number[] = []) {
    this.rng = rng;
    this.script = [...script];
  }

  d6(purpose: string): number {
    return this.roll(6, purpose);
  }

  roll(sides: number, purpose: string): number {
    let value: number;
    const scripted = this.script.shift();
    if (scripted !== undefined) {
      if (!Number.isInteger(scripted) || scripted < 1 || scripted > sides) {
        throw new Error(`Scripted die ${scripted} is not a valid d${sides} result (for ${purpose})`);
      }
      value = scripted;
    } else {
      // Rejection sampling keeps every face equally likely.
      const limit = Math.floor(0x100000000 / sides) * sides;
      let n: number;
      let s = this.rng.s;
      let draws = this.rng.draws;
      do {
        [n, s] = sfc32(s);
        draws++;
      } while (n >= limit);
      this.rng = { seed: this.rng.seed, draws, s };
      value = (n % sides) + 1;
    }
    this.rolls.push({ purpose, sides, value });
    return value;
  }

  /** Scripted results not used yet. */
  remainingScript(): number[] {
    return [...this.script];
  }

  state(): RngState {
    return this.rng;
  }
}
