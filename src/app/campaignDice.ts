import { classifyRoll, consumeDice, enteredDice, isManualRoll, SeededDice } from '../engine/dice/index.js';
import type { CampaignState } from '../engine/state/index.js';
import { currentInvocation } from './journal/invocation.js';

/** The campaign's dice: entered manual dice first, then the script (tests, --dice), then the period's seeded dice. */
export function campaignDice(state: CampaignState, script: readonly number[]): SeededDice {
  const group = state.settings.manualDice;
  const armies = Object.values(state.armies);
  const recorded = currentInvocation()?.recorded;
  return new SeededDice(state.rng, {
    script,
    entered: enteredDice(state.manualDice),
    ...(recorded ? { recorded } : {}),
    ...(group === 'none' ? {} : { isManual: (purpose: string) => isManualRoll(classifyRoll(purpose, armies), group) }),
  });
}

/** The state with what the dice did: the generator moved on, and the entered manual dice used up. */
export function withDice(next: CampaignState, dice: SeededDice, before: CampaignState): CampaignState {
  const s = dice.changed() ? { ...next, rng: dice.state() } : next;
  const manual = consumeDice(s.manualDice, dice.usedEntries(), before.manualDice);
  return manual === s.manualDice ? s : { ...s, manualDice: manual };
}
