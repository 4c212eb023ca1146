import { randomBytes } from 'node:crypto';

/**
 * Where an app's new dice come from, injected like its clock: a seed for each new dice period, a
 * new campaign's secret master, and dice scripted ahead of the seeded ones. In production
 * (`randomDice`) every seed is 16 random bytes from node:crypto and nothing is scripted; the
 * console's `--seed`/`--dice` and tests inject a predictable source (src/console/seededDice.ts).
 * @see docs/dice.md
 */
export interface DiceSource {
  /** A fresh seed for dice period `period`: 32 hex digits. */
  newSeed(period: number): string;
  /** A new campaign's secret master, from which each period's secret seed is made: 32 hex digits. */
  newMaster(): string;
  /** Dice used before the seeded ones, in order (tests, the console's --dice); none in production. */
  scripted(): readonly number[];
  /** A committed transaction used the first `count` scripted dice. */
  useScripted(count: number): void;
  /** The number the seeds are made from when they are predictable: a new campaign's referee is warned. */
  readonly testSeed?: number;
}

const NOTHING_SCRIPTED: readonly number[] = Object.freeze([]);

/** Production dice: random seeds, nothing scripted. */
export const randomDice: DiceSource = {
  newSeed: () => randomBytes(16).toString('hex'),
  newMaster: () => randomBytes(16).toString('hex'),
  scripted: () => NOTHING_SCRIPTED,
  useScripted: () => undefined,
};
