import type { CampaignTx } from './campaignTx.js';

/** Users who command an army (several users may share one; none means the referee reads it). */
export function commandersOf(tx: Pick<CampaignTx, 'members'>, armyId: string): string[] {
  return tx.members.filter((m) => m.role === 'commander' && m.armyId === armyId).map((m) => m.userId);
}

/** Armies the actor commands. */
export function armiesOf(tx: Pick<CampaignTx, 'members'>, userId: string): string[] {
  return tx.members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId);
}
