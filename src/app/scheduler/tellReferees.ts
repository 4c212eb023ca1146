import type { Database } from '../../db/client.js';
import type { CampaignMeta } from '../../db/campaignRepo.js';
import { appendEvents } from '../../db/eventRepo.js';
import { listMembers } from '../../db/memberRepo.js';
import { enqueue } from '../../db/outboxRepo.js';
import { REFEREE } from '../../engine/events/events.js';
import type { CampaignState } from '../../engine/state/campaign.js';
import { refereeIds } from '../referees.js';

/**
 * Queues a DM to the campaign's referees (the owner and named co-referees) and logs it as a
 * referee event, once: `key` makes the message idempotent (a second call with the same key does
 * nothing). Call inside a transaction. Returns whether it was queued now.
 */
export function tellReferees(db: Database, meta: CampaignMeta, state: Pick<CampaignState, 'name' | 'clock'>, type: string, text: string, key: string, data: Record<string, unknown>, nowIso: string): boolean {
  const referees = refereeIds(meta, listMembers(db, meta.id));
  let queued = false;
  for (const userId of referees) {
    const added = enqueue(db, { campaignId: meta.id, to: 'dm', userId, content: `**Referee** (${state.name})\n${text}`, data: { type, ...data }, dedupeKey: `${key}:${userId}` }, nowIso);
    queued = queued || added;
  }
  if (queued) appendEvents(db, meta.id, state.clock, null, [{ type, audience: REFEREE, text, data }], nowIso);
  return queued;
}
