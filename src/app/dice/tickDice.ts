import { askForDice, classifyRoll, clearDice, isContactRoll, neededWhateverTheyShow, type ManualDiceState } from '../../engine/dice/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { resolveTick, TICK_PLAN } from '../../engine/tick/index.js';
import type { SeededDice } from '../../engine/dice/index.js';

/**
 * The manual dice after a tick. The requests it was the deadline of go (what a waiting contact
 * asked for stays). With every roll manual (`manual-dice:all`), the referee is asked at once for
 * the dice the next tick will roll outside contacts (weather, contested hexes, rafts, stragglers,
 * couriers, drought) whatever those dice show: the next tick is tried, with the orders standing
 * now, under two outcomes of the dice nobody entered, never with its seed (asking would tell what
 * the secret dice show, and a replay, which has no seeds, must ask the same). Only the referee is
 * asked (asking a commander would tell them other armies' orders); a die the orders given later
 * or the dice entered bring (fog after some weather) takes the seeded die.
 * @see docs/rulings.md (Manual dice)
 */
export function manualDiceAfterTick(state: CampaignState, map: MapModel, dice: SeededDice): ManualDiceState {
  const cleared = clearDice(state.manualDice);
  if (state.settings.manualDice !== 'all' || state.status !== 'running') return cleared;
  // The next tick, tried with two outcomes of the dice nobody entered (never its seed: see neededWhateverTheyShow).
  const next = { ...state, manualDice: cleared };
  const trials = neededWhateverTheyShow(dice, (probe) => {
    probe.startPeriod(state.rng.next);
    resolveTick(next, map, probe, TICK_PLAN);
    return true;
  });
  const armies = Object.values(state.armies);
  const needed = trials.filter((n) => !isContactRoll(classifyRoll(n.purpose, armies)));
  return askForDice(cleared, needed, () => undefined, state.clock);
}
