import type { CampaignTx } from '../campaignTx.js';
import { commandersOf } from '../members.js';

/**
 * The armies that follow their plan at the next tick: those with a plan that nobody commands,
 * and those whose plan is marked `standing` (the army is under standing orders: the referee set
 * it with `/army plan standing:true`, or the absence rules did, for an absent commander).
 * An army with a commander and no standing mark gives its own orders; its plan waits.
 */
export function planFollowers(tx: Pick<CampaignTx, 'members' | 'state'>): Set<string> {
  const out = new Set<string>();
  for (const [id, plan] of Object.entries(tx.state.plans)) {
    const army = Object.hasOwn(tx.state.armies, id) ? tx.state.armies[id] : undefined;
    if (!army || army.status.destroyed) continue;
    if (plan.standing || army.seat?.standing === true || commandersOf(tx, id).length === 0) out.add(id);
  }
  return out;
}
