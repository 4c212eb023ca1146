import type { Member } from '../db/memberRepo.js';
import type { CampaignTx } from './campaignTx.js';

/**
 * Each army's commanders, in the members' order, worked out once per member list: a transaction's
 * list is read once and never changed, and a tick asks for every army several times (plans, the
 * routing of its events, each DM): a filter of the whole list each time was armies x members.
 */
const commandersByArmy = new WeakMap<readonly Member[], ReadonlyMap<string, readonly string[]>>();

function commandersIndex(members: readonly Member[]): ReadonlyMap<string, readonly string[]> {
  let index = commandersByArmy.get(members);
  if (!index) {
    const built = new Map<string, string[]>();
    for (const m of members) {
      if (m.role !== 'commander') continue;
      const list = built.get(m.armyId);
      if (list) list.push(m.userId);
      else built.set(m.armyId, [m.userId]);
    }
    index = built;
    commandersByArmy.set(members, index);
  }
  return index;
}

/** Users who command an army (several users may share one; none means the referee reads it). */
export function commandersOf(tx: Pick<CampaignTx, 'members'>, armyId: string): string[] {
  return [...(commandersIndex(tx.members).get(armyId) ?? [])];
}

/** Armies the actor commands. */
export function armiesOf(tx: Pick<CampaignTx, 'members'>, userId: string): string[] {
  return tx.members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId);
}
