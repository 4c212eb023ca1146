import { echo } from '../engine/events/index.js';
import type { Army } from '../engine/forces/index.js';
import type { CampaignState } from '../engine/state/index.js';
import { UserError } from './errors.js';
import { armiesOf } from './members.js';
import type { CampaignTx } from './campaignTx.js';

const norm = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** Finds an army by id, army name or commander name (case-insensitive; a unique prefix also works). */
export function findArmy(state: CampaignState, text: string): Army | undefined {
  const q = norm(text);
  const all = Object.values(state.armies);
  const exact = all.find((a) => a.id === q || norm(a.name) === q || norm(a.commander) === q);
  if (exact) return exact;
  const partial = all.filter((a) => a.id.startsWith(q) || norm(a.name).includes(q) || norm(a.commander).includes(q));
  return partial.length === 1 ? partial[0] : undefined;
}

export function requireArmy(state: CampaignState, text: string | undefined): Army {
  if (!text) throw new UserError('army.missing', 'Say which army, e.g. `army:hadewych` (an army id, its name or its commander).');
  const army = findArmy(state, text);
  if (!army) {
    const ids = Object.keys(state.armies).sort().join(', ');
    throw new UserError('army.unknown', `There is no army ${echo(text)} in this campaign. Army ids: ${ids}.`);
  }
  return army;
}

/** The armies a player commands, as they would type them: "Army of Hadewych (`army:hadewych`)". */
function yourArmies(state: CampaignState, ids: readonly string[]): string {
  const named = ids.map((id) => `${state.armies[id]?.name ?? id} (\`army:${id}\`)`);
  return named.length <= 1 ? named.join('') : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/**
 * The army the actor may give orders to: their own, or any army when the actor is the referee
 * (then `asReferee` is true and the use-case logs it as such). A player who leaves `army:` out
 * while commanding several, names one that does not exist or is not theirs, is told their own
 * armies as they would type them.
 */
export function requireControl(tx: CampaignTx, text: string | undefined): { army: Army; asReferee: boolean } {
  const actor = tx.actor;
  const mine = actor ? armiesOf(tx, actor.userId) : [];
  const none = ' You command no army in this campaign; ask the referee to `/campaign assign` you one.';
  if (text === undefined || text.trim() === '') {
    const only = mine.length === 1 ? tx.state.armies[mine[0] as string] : undefined;
    if (only) return { army: only, asReferee: false };
    if (mine.length > 1) throw new UserError('army.missing', `Say which army: you command ${yourArmies(tx.state, mine)}.`, { yours: mine });
    if (tx.isReferee) throw new UserError('army.missing', 'Say which army, e.g. `army:hadewych` (an army id, its name or its commander).');
    throw new UserError('army.missing', `Say which army.${none}`);
  }
  const army = findArmy(tx.state, text);
  if (!army) {
    if (!tx.isReferee) throw new UserError('army.unknown', `There is no army ${echo(text)} in this campaign.${mine.length > 0 ? ` You command ${yourArmies(tx.state, mine)}.` : none}`, { yours: mine });
    return { army: requireArmy(tx.state, text), asReferee: true };
  }
  if (actor && mine.includes(army.id)) return { army, asReferee: false };
  if (tx.isReferee) return { army, asReferee: true };
  throw new UserError('army.notYours', `${army.name} is not your army.${mine.length > 0 ? ` You command ${yourArmies(tx.state, mine)}.` : none}`, { yours: mine });
}
