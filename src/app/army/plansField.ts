import { namesOf } from '../../engine/events/index.js';
import { describeWholePlan } from '../../engine/plans/index.js';
import type { CampaignTx } from '../campaignTx.js';
import type { CardField } from '../messages.js';
import { planFollowers } from './planFollowers.js';

/** A card field's most characters (Discord). */
const FIELD_MAX = 1024;

/**
 * The referee's view of the armies that follow plans now: each army, its plan in words and what it
 * is doing this half period (its plan's order). The reasons of each decision come in the tick DMs
 * as they change; `/army plan army:X` shows one plan whole. Undefined when no army follows one.
 */
export function plansField(tx: Pick<CampaignTx, 'members' | 'state' | 'map'>): CardField | undefined {
  const s = tx.state;
  const following = [...planFollowers(tx)].sort();
  if (following.length === 0) return undefined;
  const names = namesOf(s.armies);
  const lines = following.flatMap((id) => {
    const plan = s.plans[id];
    const army = s.armies[id];
    if (!plan || !army) return [];
    const order = s.orders[id];
    const last = order?.kind === 'move' ? order.path[order.path.length - 1] : undefined;
    const now = army.status.inContact ? 'in contact' : last ? `marching to ${tx.map.format(last)}` : order?.kind === 'rest' ? `resting at ${tx.map.format(army.hex)}` : `at ${tx.map.format(army.hex)}`;
    return [`${army.name}: ${describeWholePlan(plan, tx.map, names)} (now ${now})`];
  });
  let value = '';
  for (const [i, line] of lines.entries()) {
    const more = `\n… and ${lines.length - i} more (\`/army plan army:ID\` shows each)`;
    if (value.length + line.length + 1 + more.length > FIELD_MAX) {
      value += more;
      break;
    }
    value += `${value ? '\n' : ''}${line}`;
  }
  return { name: `Armies following plans (${lines.length})`, value };
}
