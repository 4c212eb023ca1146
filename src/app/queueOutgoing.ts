import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { CampaignMeta } from '../db/campaignRepo.js';
import { queueMessage } from '../db/outboxRepo.js';
import type { Outgoing } from './deliveries/outgoing.js';

/** Queues one outgoing message made by src/app/deliveries as the outbox row it becomes (inside the caller's transaction). */
export function queueOutgoing(db: Database, meta: Pick<CampaignMeta, 'id' | 'channelId'>, o: Outgoing, nowIso: string): void {
  const base = {
    campaignId: meta.id, content: o.content, data: o.data, nonce: randomBytes(8).toString('hex'),
    ...(o.pictures && o.pictures.length > 0 ? { pictures: o.pictures } : {}),
    ...(o.cards && o.cards.length > 0 ? { cards: o.cards } : {}),
    ...(o.mentions && o.mentions.length > 0 ? { mentions: [...o.mentions] } : {}),
    ...(o.dedupeKey ? { dedupeKey: o.dedupeKey } : {}),
  };
  /* eslint-disable no-restricted-syntax */
  queueMessage(db, o.to === 'dm'
    ? { ...base, to: 'dm', userId: o.userId, ...(o.buttons && o.buttons.length > 0 ? { buttons: o.buttons.map((b) => ({ ...b })) } : {}) }
    : { ...base, to: 'channel', channelId: meta.channelId }, nowIso);
  /* eslint-enable no-restricted-syntax */
}
