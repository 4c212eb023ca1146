import { rollStream, type DiceStream } from './rollKinds.js';
import { sha256Hex, sha256Words } from './sha256.js';

/**
 * Every die in the game is rolled through a Dice service. The engine has no ambient randomness:
 * the app injects the campaign's dice (or scripted ones in tests) and records every roll with its
 * purpose in the campaign's event log.
 * @see RULINGS 7 Dice; docs/dice.md (how anyone can check the dice)
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

/**
 * The campaign's dice, stored with it. The dice come in periods: a tick starts a new one, which
 * goes on through the commands until the next tick. Each period has two seeds (32 hex digits,
 * 128 random bits each): the public seed (`seed`), which rolls the dice everyone sees anyway
 * (the weather) and is revealed when the period ends, and the secret seed, which rolls every other
 * die (contacts, scouts, estimates, battles, couriers, marches) and is revealed only when the
 * campaign ends (the referee may check it at any time). Both are committed (their SHA-256
 * published) before the period starts. A die is made from its seed and its label (the purpose
 * and how many times that purpose was rolled in the period), not from its place in a sequence:
 * a tick replayed after an undo rolls the same dice wherever it makes the same rolls.
 * @see docs/dice.md
 */
export interface RngState {
  /** The period in use (numbered from 0, the campaign's setup). */
  readonly period: number;
  /** Its public seed: 32 lowercase hex digits. Secret until the period ends. */
  readonly seed: string;
  /** Public dice rolled from it in this period so far (a campaign from before secret dice: numbers drawn from its one stream). */
  readonly draws: number;
  /** The public seed of the next period: committed (its SHA-256 published) before it is used. */
  readonly next: string;
  /**
   * The secret stream: absent in a campaign saved before secret dice, until its next period
   * begins (until then every die comes from the one seed, drawn in order, as it always did).
   */
  readonly secret?: SecretDice;
  /** How many times each purpose was rolled from a seed in this period (the dice's labels). */
  readonly counts?: Readonly<Record<string, number>>;
}

/** The secret dice of a campaign. */
export interface SecretDice {
  /** The campaign's secret master (32 hex digits): the secret seed of period n is {@link secretSeedOf}(master, n). */
  readonly master: string;
  /** The first period with a secret stream (0, or the first after an upgrade). */
  readonly since: number;
  /** Secret dice rolled in this period so far. */
  readonly draws: number;
  /** Secret dice rolled in each period that is over, by period (what the referee's check counts them against). */
  readonly rolled?: Readonly<Record<string, number>>;
}

/** The secret seed of a period: the first 32 hex digits of SHA-256("<master>:<period>"). */
export function secretSeedOf(master: string, period: number): string {
  return sha256Hex(`${master}:${period}`).slice(0, 32);
}

/** The label of the n-th roll of a purpose in a period: `<purpose>#<n>`. */
export function rollLabel(purpose: string, nth: number): string {
  return `${purpose}#${nth}`;
}

/**
 * A die of a period with labelled dice: the die {@link dieFromSeed} makes from draw 0 of the text
 * "<seed>:<label>" (so its numbers are SHA-256("<seed>:<label>:0"), ":1"...).
 */
export function labelledDie(seed: string, label: string, sides: number): number {
  return dieFromSeed(`${seed}:${label}`, 0, sides).value;
}

/** Where a die's value came from. */
export type RollSource = 'seeded' | 'scripted' | 'manual';

/** A roll as the dice service records it for the log. */
export interface LoggedRoll extends DiceRoll {
  readonly source: RollSource;
  /** The dice period it belongs to. */
  readonly period: number;
  /** Its name among the rolls of one resolution: the purpose, numbered from its second time ("... #2"). */
  readonly key: string;
  /** A seeded roll of a period with one stream: the draw of its period whose number made the die (earlier draws were rejected, if any). */
  readonly draw?: number;
  /** A seeded roll of a period with two streams: the stream it came from... */
  readonly stream?: DiceStream;
  /** ...and which roll of its purpose in the period it was (its label is `<purpose>#<nth>`). */
  readonly nth?: number;
  /** A manual roll: the user who entered it. */
  readonly enteredBy?: string;
  /** A roll the campaign's setting makes manual that nobody entered in time: the seeded die was used. */
  readonly notEntered?: boolean;
}

/** A die entered by a person for a manual roll, by its key. */
export interface EnteredDie {
  readonly key: string;
  readonly value: number;
  readonly enteredBy: string;
}

/** A manual roll a resolution would need and nobody has entered yet (what a probe finds). */
export interface NeededRoll {
  readonly key: string;
  readonly purpose: string;
  readonly sides: number;
}

/** Values a trial (a probe with a fill) gives every die nobody entered, manual or not: the n-th such die (from 0) of `sides`. */
export type ProbeFill = (n: number, sides: number) => number;

export const SEED_PATTERN = /^[0-9a-f]{32}$/;

/** The SHA-256 of a seed, as published before its period starts: the hash of its 32 hex digits (ASCII). */
export function seedCommitment(seed: string): string {
  return sha256Hex(seed);
}

/** The 32-bit number of draw `i` of a period: the first 8 hex digits of SHA-256("<seed>:<i>"). */
function drawNumber(seed: string, i: number): number {
  return sha256Words(`${seed}:${i}`)[0] as number;
}

/**
 * One die of `sides` faces from a period's seed, starting at draw `draw`: a draw at or above the
 * largest multiple of `sides` below 2^32 is rejected (every face stays equally likely) and the next
 * draw is used; the die is (number mod sides) + 1. Returns the die and the draw that made it.
 */
export function dieFromSeed(seed: string, draw: number, sides: number): { value: number; draw: number } {
  const limit = Math.floor(0x100000000 / sides) * sides;
  let i = draw;
  let n = drawNumber(seed, i);
  while (n >= limit) n = drawNumber(seed, ++i);
  return { value: (n % sides) + 1, draw: i };
}

/** A seed made from a number (tests, the console's --seed): predictable, so never used for a real campaign's dice. */
export function seedFromNumber(n: number, period: number): string {
  return sha256Hex(`valormr-test-seed:${n >>> 0}:${period}`).slice(0, 32);
}

/** The dice of a campaign about to begin: period 0 with its public seed, the public seed of period 1, and the secret master. */
export function firstPeriod(seed: string, next: string, master: string): RngState {
  return { period: 0, seed, draws: 0, next, secret: { master, since: 0, draws: 0 }, counts: {} };
}

/**
 * Dice made from a number (tests of rules, scripts): period 0 and 1 seeds derived from it, one
 * stream drawn in order (as a campaign saved before secret dice), unless `secret` asks for both
 * streams (the secret master derived from the number too).
 */
export function createRngState(n: number, secret = false): RngState {
  if (secret) return firstPeriod(seedFromNumber(n, 0), seedFromNumber(n, 1), sha256Hex(`valormr-test-secret:${n >>> 0}`).slice(0, 32));
  return { period: 0, seed: seedFromNumber(n, 0), draws: 0, next: seedFromNumber(n, 1) };
}

/**
 * The next period: the committed public seed comes into use; `fresh` (new, secret) becomes the
 * one to commit. A campaign without a secret stream gets one from `master` (from this period on).
 */
function nextPeriod(rng: RngState, fresh: string, master: string | undefined): RngState {
  const period = rng.period + 1;
  const secret = rng.secret
    ? { ...rng.secret, draws: 0, ...(rng.period >= rng.secret.since ? { rolled: { ...rng.secret.rolled, [rng.period]: rng.secret.draws } } : {}) }
    : master !== undefined ? { master, since: period, draws: 0 } : undefined;
  return { period, seed: rng.next, draws: 0, next: fresh, ...(secret ? { secret, counts: {} } : {}) };
}

export interface DiceOptions {
  /** d6 results used first (tests, the console's --dice). */
  readonly script?: readonly number[];
  /** Dice people entered for manual rolls, by key: used before anything else. */
  readonly entered?: readonly EnteredDie[];
  /** Whether the campaign's setting makes a roll manual (people roll it). */
  readonly isManual?: (purpose: string) => boolean;
  /** Replay: the dice the original run drew, taken in order instead of the seed's (docs/replay.md). */
  readonly recorded?: RecordedDice;
}

/** A die as the journal keeps it: what it was for, its sides, its value and where the value came from. */
export interface JournalDie {
  readonly purpose: string;
  readonly sides: number;
  readonly value: number;
  readonly source: RollSource;
  /** A seeded die of a one-stream period: the draw that made it (earlier ones rejected). */
  readonly draw?: number;
}

/** The dice a replayed invocation must draw, in the order the original drew them. */
export interface RecordedDice {
  /** The next recorded die (not entered by hand: those come from the state), checked against the roll asked for. */
  take(purpose: string, sides: number): JournalDie;
}

const isScript = (x: readonly number[] | DiceOptions): x is readonly number[] => Array.isArray(x);

/**
 * The campaign's dice service. A roll takes, in order: a die a person entered for it (manual
 * dice), a scripted result (tests and the console's --dice), or the period's seeded die. Every
 * roll is recorded with where it came from; `state()` is the generator state to store back.
 * A probe (`probe()`) rolls the same dice without touching this service, and lists the manual
 * rolls nobody has entered yet: what a step would have to wait for.
 */
export class SeededDice implements Dice {
  readonly rolls: LoggedRoll[] = [];
  private rng: RngState;
  private readonly script: number[];
  private readonly entered: Map<string, EnteredDie>;
  private readonly used = new Set<string>();
  private readonly seen = new Map<string, number>();
  private readonly wanted: NeededRoll[] = [];
  private moved = false;
  /** Dice a trial (a probe with a fill) gave its values to. */
  private filled = 0;
  private readonly isManual: (purpose: string) => boolean;
  private readonly recorded: RecordedDice | undefined;
  /**
   * The counts of `this.rng` when this service made them and nobody else has seen them yet: a roll
   * counts into them in place instead of copying every count (a tick of 800 armies labels thousands
   * of purposes; a copy per roll was quadratic). Dropped once `state()` or a probe hands them out.
   */
  private ownCounts: Record<string, number> | undefined;
  /** The secret seed of the period in use, made once per period (a SHA-256 per die otherwise). */
  private secretSeed: { readonly master: string; readonly period: number; readonly seed: string } | undefined;

  constructor(rng: RngState, scriptOrOptions: readonly number[] | DiceOptions = [], private readonly probing = false, private readonly fill?: ProbeFill) {
    const opts: DiceOptions = isScript(scriptOrOptions) ? { script: scriptOrOptions } : scriptOrOptions;
    this.rng = rng;
    this.script = [...(opts.script ?? [])];
    this.entered = new Map((opts.entered ?? []).map((e) => [e.key, e]));
    this.isManual = opts.isManual ?? (() => false);
    this.recorded = probing ? undefined : opts.recorded;
  }

  d6(purpose: string): number {
    return this.roll(6, purpose);
  }

  roll(sides: number, purpose: string): number {
    const n = (this.seen.get(purpose) ?? 0) + 1;
    this.seen.set(purpose, n);
    const key = n === 1 ? purpose : `${purpose} #${n}`;
    const base = { purpose, sides, period: this.rng.period, key };
    const entry = this.entered.get(key);
    if (entry && !this.used.has(key) && entry.value >= 1 && entry.value <= sides) {
      this.used.add(key);
      return this.record({ ...base, value: entry.value, source: 'manual', enteredBy: entry.enteredBy });
    }
    const manual = this.isManual(purpose);
    if (manual && this.probing) this.wanted.push({ key, purpose, sides });
    // A trial never reads the seed (an export withholds it, so a replay could not): every die nobody entered takes the trial's value.
    if (this.probing && this.fill) return this.record({ ...base, value: this.fill(this.filled++, sides), source: 'scripted' });
    const late = manual && !this.probing ? { notEntered: true } : {};
    const replayed = this.recorded?.take(purpose, sides);
    if (replayed?.source === 'scripted') return this.record({ ...base, value: replayed.value, source: 'scripted', ...late });
    const scripted = replayed ? undefined : this.script.shift();
    if (scripted !== undefined) {
      if (!Number.isInteger(scripted) || scripted < 1 || scripted > sides) {
        throw new Error(`Scripted die ${scripted} is not a valid d${sides} result (for ${purpose})`);
      }
      return this.record({ ...base, value: scripted, source: 'scripted', ...late });
    }
    return this.record({ ...base, ...this.seeded(purpose, sides, replayed), ...late });
  }

  /** A die from the period's seed (or, replaying, the recorded value in its place), moving the generator on. */
  private seeded(purpose: string, sides: number, replayed: JournalDie | undefined): { value: number; source: 'seeded'; draw?: number; stream?: DiceStream; nth?: number } {
    const secret = this.rng.secret;
    if (!secret || this.rng.period < secret.since) {
      // Replayed from an export, the seed may be withheld: the recorded die is the value, its draw the next one.
      const die = replayed ? { value: replayed.value, draw: replayed.draw ?? this.rng.draws } : dieFromSeed(this.rng.seed, this.rng.draws, sides);
      this.rng = { ...this.rng, draws: die.draw + 1 };
      return { value: die.value, source: 'seeded', draw: die.draw };
    }
    const stream = rollStream(purpose);
    // Own counts only: `constructor` or `__proto__` read through a plain object would find Object's.
    const counted = this.rng.counts !== undefined && Object.hasOwn(this.rng.counts, purpose) ? this.rng.counts[purpose]! : 0;
    const nth = counted + 1;
    const seed = stream === 'public' ? this.rng.seed : this.secretSeedOf(secret.master, this.rng.period);
    const value = replayed ? replayed.value : labelledDie(seed, rollLabel(purpose, nth), sides);
    // The same object as `{ ...counts, [purpose]: nth }` (same keys, same order), made once per hand-out.
    let counts = this.ownCounts ?? { ...this.rng.counts };
    // An assignment to `__proto__` would set the prototype: that one purpose gets a spread's own property.
    if (purpose === '__proto__') counts = { ...counts, [purpose]: nth };
    else counts[purpose] = nth;
    this.ownCounts = counts;
    this.rng = stream === 'public' ? { ...this.rng, draws: this.rng.draws + 1, counts } : { ...this.rng, secret: { ...secret, draws: secret.draws + 1 }, counts };
    return { value, source: 'seeded', stream, nth };
  }

  private secretSeedOf(master: string, period: number): string {
    const s = this.secretSeed;
    if (s?.master === master && s.period === period) return s.seed;
    const seed = secretSeedOf(master, period);
    this.secretSeed = { master, period, seed };
    return seed;
  }

  private record(roll: LoggedRoll): number {
    this.rolls.push(roll);
    this.moved = true;
    return roll.value;
  }

  /** A die entered by a person during this resolution (before the step that rolls it). */
  enter(die: EnteredDie): void {
    this.entered.set(die.key, die);
  }

  /**
   * A new dice period begins (a tick): the committed public seed comes into use; `fresh` is the
   * next one; `master` starts the secret stream of a campaign that has none yet.
   */
  startPeriod(fresh: string, master?: string): void {
    this.rng = nextPeriod(this.rng, fresh, master);
    this.ownCounts = undefined;
    this.moved = true;
  }

  /**
   * The same dice, rolled apart: nothing it rolls touches this service. Its `needed()` lists the
   * manual rolls nobody entered. With `fill`, those rolls take the values it gives (the n-th such
   * roll, its sides) instead of the seeded die: a trial of one possible outcome of the dice asked for.
   */
  probe(fill?: ProbeFill): SeededDice {
    this.ownCounts = undefined;
    return new SeededDice(this.rng, { script: this.script, entered: [...this.entered.values()].filter((e) => !this.used.has(e.key)), isManual: this.isManual }, true, fill);
  }

  /** For a probe: the manual rolls it came to that nobody has entered. */
  needed(): readonly NeededRoll[] {
    return this.wanted;
  }

  /** Keys of the entered dice used. */
  usedEntries(): readonly string[] {
    return [...this.used];
  }

  /** Scripted results not used yet. */
  remainingScript(): number[] {
    return [...this.script];
  }

  /** Whether anything was rolled or a period began (the state to store changed). */
  changed(): boolean {
    return this.moved;
  }

  state(): RngState {
    // Handed out: the next roll counts into a copy, never into what the caller holds.
    this.ownCounts = undefined;
    return this.rng;
  }
}
