import { seedFromNumber, sha256Hex } from '../engine/dice/index.js';
import { randomDice, type DiceSource } from '../app/dice/diceSource.js';

/**
 * Dice for scripts and tests (the console's `--seed` and `--dice`): `script` used first, in order;
 * with a `seed`, every seed made from it and the period and the secret master from it
 * (reproducible, so never for a real campaign: a new campaign's referee is told); without one,
 * random seeds as in production.
 */
export function seededDice(seed: number | undefined, script: readonly number[] = []): DiceSource & { readonly script: number[] } {
  const left = [...script];
  const scripted = { script: left, scripted: () => left, useScripted: (count: number) => { left.splice(0, count); } };
  if (seed === undefined) return { ...scripted, newSeed: randomDice.newSeed, newMaster: randomDice.newMaster };
  return {
    ...scripted,
    testSeed: seed,
    newSeed: (period) => seedFromNumber(seed, period),
    newMaster: () => sha256Hex(`valormr-test-secret:${seed >>> 0}`).slice(0, 32),
  };
}
