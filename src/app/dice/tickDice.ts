import { askForDice, classifyRoll, clearDice, isContactRoll, type ManualDiceState } from '../../engine/dice/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { resolveTick, TICK_PLAN } from '../../engine/tick/index.js';
import type { SeededDice } from '../../engine/dice/index.js';

/**
 * The manual dice after a tick. The requests it was the deadline of go (what a waiting contact
 * asked for stays). With every roll manual (`manual-dice:all`), the referee is asked at once for
 * the dice the next tick will roll outside contacts (weather, contested hexes, rafts, stragglers,
 * couriers, drought): a probe plays the next tick with its committed seed and the orders standing
 * now. Only the referee is asked (asking a commander would tell them other armies' orders); a die
 * the orders given later bring takes the seeded die.
 * @see docs/rulings.md (Manual dice)
 */
export function manualDiceAfterTick(state: CampaignState, map: MapModel, dice: SeededDice): ManualDiceState {
  const cleared = clearDice(state.manualDice);
  if (state.settings.manualDice !== 'all' || state.status !== 'running') return cleared;
  const probe = dice.probe();
  // The next tick starts the period whose seed is committed now (the fresh seed after it does not matter here).
  probe.startPeriod(state.rng.next);
  resolveTick({ ...state, manualDice: cleared }, map, probe, TICK_PLAN);
  const armies = Object.values(state.armies);
  const needed = probe.needed().filter((n) => !isContactRoll(classifyRoll(n.purpose, armies)));
  return askForDice(cleared, needed, () => undefined, state.clock);
}
