import type { Army } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { awaitedRegiments } from '../../engine/water/index.js';
import type { RefusalCode } from '../../engine/refusalCodes.js';
import { UserError } from '../errors.js';

type LandVerb = 'move' | 'rest' | 'hold';

/** Each land order's refusal codes, spelt out so that each code is found where it is made. */
const EMBARKED: Readonly<Record<LandVerb, RefusalCode>> = { move: 'move.embarked', rest: 'rest.embarked', hold: 'hold.embarked' };
const AWAITING: Readonly<Record<LandVerb, RefusalCode>> = { move: 'move.awaitingRegiments', rest: 'rest.awaitingRegiments', hold: 'hold.awaitingRegiments' };

/**
 * Land orders do not apply to an army aboard ship (its sail order stands), nor to one waiting at
 * its landing place for regiments still at sea. (`/hold` aboard ship stops the fleet instead:
 * orderHold hands an embarked army to the water use-case before calling this.)
 */
export function refuseAfloat(army: Army, verb: LandVerb, state?: CampaignState): void {
  if (army.status.embarked) {
    throw new UserError(EMBARKED[verb], `${army.name} is aboard ship: give it \`/sail\` orders, or \`/debark\` first. (A full day in a troop transport counts as rest.)`);
  }
  // Its standing 'debark' order holds the shuttle: replacing or cancelling it would lose the
  // regiments still at sea and let the army march before they land.
  if (state && awaitedRegiments(state, army.id)) {
    const after = verb === 'move' ? 'it can march after that' : 'it rests there meanwhile and takes new orders once they are ashore';
    throw new UserError(AWAITING[verb], `${army.name} waits at its landing place until all its regiments have arrived by sea; ${after}.`);
  }
}
