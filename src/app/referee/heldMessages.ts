import { deliver, OPEN } from '../deliveries/audience.js';
import type { UndeliveredRow } from '../../db/outboxRepo.js';
import type { Card, Picture } from '../messages.js';
import type { CampaignTx } from '../campaignTx.js';
import type { Outgoing } from '../deliveries/outgoing.js';

/**
 * How a channel post given up for a fault of its channel (a permission refused, the channel gone
 * or out of reach) begins its recorded error: `/campaign resume` sends these again.
 */
export const CHANNEL_FAULT = 'channel fault: ';

/** The channel posts a fault of the campaign channel held (given up, not yet sent again), oldest first. */
export function heldByChannelFault(tx: CampaignTx): UndeliveredRow[] {
  return tx.read.undelivered().filter((m) => m.status === 'failed' && m.to === 'channel' && (m.lastError ?? '').startsWith(CHANNEL_FAULT));
}

/** A given-up message's error as the referee reads it (without the fault's mark). */
export function givenUpReason(row: UndeliveredRow): string {
  const error = row.lastError ?? 'gave up';
  return error.startsWith(CHANNEL_FAULT) ? `held by the channel: ${error.slice(CHANNEL_FAULT.length)}` : error;
}

/**
 * A given-up message made again as a new delivery, to the same reader. Its audience was decided
 * when it was first made; the caller marks the old row read (`readMessages`).
 */
export function sendAgain(tx: CampaignTx, row: UndeliveredRow): Outgoing[] {
  const base = {
    content: row.content, data: row.data,
    ...(Array.isArray(row.cards) ? { cards: row.cards as Card[] } : {}),
    ...(Array.isArray(row.pictures) ? { pictures: row.pictures as Picture[] } : {}),
    ...(row.mentions ? { mentions: row.mentions } : {}),
  };
  return deliver(tx, row.to === 'dm' && row.userId ? { user: row.userId } : 'channel', OPEN, base);
}
