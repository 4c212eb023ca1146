import type { CampaignMeta } from '../db/campaignRepo.js';
import type { Member } from '../db/memberRepo.js';
import type { CampaignSettings } from '../engine/state/index.js';
import { coRefereesOf } from './members.js';

/** The users a campaign's referee messages go to: its owner and its named co-referees. */
export function refereeIds(meta: Pick<CampaignMeta, 'ownerUserId'>, members: readonly Member[]): string[] {
  // The member list's index (members.ts), made once per list: a tick asks for each DM it addresses.
  return [...new Set([meta.ownerUserId, ...coRefereesOf(members)])];
}

/**
 * Whether someone referees a campaign: its owner, a named co-referee, or a holder of the
 * campaign's referee role (a setting). No one (`undefined`) is the scheduler, which acts with the
 * referee's authority. The one answer to "is this a referee" for commands, buttons and deliveries.
 */
export function isReferee(
  meta: Pick<CampaignMeta, 'ownerUserId'>,
  members: readonly Member[],
  settings: Pick<CampaignSettings, 'refereeRoleId'>,
  who: { readonly userId: string; readonly roleIds: readonly string[] } | undefined,
): boolean {
  if (!who) return true;
  if (refereeIds(meta, members).includes(who.userId)) return true;
  const role = settings.refereeRoleId;
  return role !== undefined && who.roleIds.includes(role);
}
