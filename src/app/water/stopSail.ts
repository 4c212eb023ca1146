import type { Army } from '../../engine/forces/index.js';
import { berthLanding, berthWhere, stopFleet } from '../../engine/water/index.js';
import { ephemeral, type Reply } from '../messages.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import { orRefuse } from '../errors.js';

/**
 * Stops an embarked army's fleet where it lies, inside the caller's transaction: `/sail stop:true`
 * and `/hold` on an army aboard ship both come here. The army stays aboard; the answer (private)
 * says where and how the fleet lies and how the army may land from there.
 */
export function stopSailChange(tx: CampaignTx, army: Army, asReferee: boolean): Change<Reply[]> {
  const out = orRefuse(stopFleet(tx.state, tx.map, { armyId: army.id, givenBy: tx.actor?.userId ?? 'referee', byReferee: asReferee }));
  const { berth, cancelled } = out;
  const by = asReferee ? ' (by the referee)' : '';
  const lines = cancelled.length > 0
    ? [`**${army.name}**'s fleet stops${by}: the voyage to ${cancelled[cancelled.length - 1] as string} is cancelled (${cancelled.length} hex(es) not sailed). The fleet lies ${berthWhere(berth)}; the army stays aboard.`]
    : [`**${army.name}**'s fleet had no voyage under way${by}; it lies ${berthWhere(berth)}, the army aboard.`];
  lines.push(`It does not move until you give a new voyage with \`/sail to:\` or \`path:\`. To go ashore: ${berthLanding(berth)}.`);
  if (out.fleet.waitHalves > 0) lines.push('Advanced rule: the fleet still waits for the tide before it can sail.');
  return { state: out.state, events: out.events, result: [ephemeral(lines.join('\n'), { armyId: army.id, hex: berth.hex, berth: berth.kind, cancelled })] };
}
