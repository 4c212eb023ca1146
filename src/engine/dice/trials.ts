import type { NeededRoll, ProbeFill, SeededDice } from './dice.js';

/**
 * Two outcomes of the dice nobody has entered: each such die takes a different face in each (and
 * different faces from the others in a trial), so no tie is made up by the trial itself. Neither
 * reads the period's seed: what a person is asked for follows from the state and the orders alone
 * (never from a secret die, and a replay without the seeds asks the same).
 */
const TRIALS: readonly ProbeFill[] = [(n, sides) => (n % sides) + 1, (n, sides) => sides - (n % sides)];

/**
 * The manual rolls nobody has entered that `run` needs whatever those dice show: it is tried once
 * with each outcome (on a probe: the campaign's dice are not touched), and a roll only one trial
 * needs (a roll-off after a tie, a fog die after some weather) is not asked for. A trial `run`
 * reports as not played (false) needs nothing.
 * @see docs/rulings.md (Manual dice)
 */
export function neededWhateverTheyShow(dice: SeededDice, run: (probe: SeededDice) => boolean): readonly NeededRoll[] {
  const trials = TRIALS.map((fill) => {
    const probe = dice.probe(fill);
    return run(probe) ? probe.needed() : [];
  });
  const [first = [], ...others] = trials;
  return first.filter((n) => others.every((t) => t.some((o) => o.key === n.key)));
}
