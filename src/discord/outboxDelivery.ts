import type { Client, SendableChannels } from 'discord.js';
import type { Logger } from '../app/ports.js';
import type { DeliveryContext, DeliveryOutcome, OutboxItem } from '../app/outbox.js';
import { classifySendError, loggableError } from './discordErrors.js';
import { toDiscordPayloads, type DiscordPayload } from './payloads.js';

async function target(client: Client, item: OutboxItem): Promise<SendableChannels | undefined> {
  if (item.to === 'dm') return item.userId ? client.users.createDM(item.userId) : undefined;
  if (item.to === 'channel' && item.channelId) {
    const channel = await client.channels.fetch(item.channelId);
    return channel?.isSendable() ? channel : undefined;
  }
  return undefined;
}

/**
 * The function the outbox calls for each due item: a DM (the DM channel is created if needed) or
 * a post in a channel, with files and buttons, split under Discord's 2,000 characters. Each part
 * carries a nonce made of the item's stable id and the part number, with `enforce_nonce`, so a
 * part Discord already created (a timeout or a 500 after the create) is not posted again; parts
 * already sent by an earlier attempt are skipped. Returns what the outbox should do next (see
 * classifySendError).
 */
export function makeDeliver(client: Client, logger: Logger): (item: OutboxItem, ctx: DeliveryContext) => Promise<DeliveryOutcome> {
  return async (item, ctx) => {
    const about = { outboxId: item.id, campaignId: item.campaignId, to: item.to, userId: item.userId, channelId: item.channelId, attempts: item.attempts };
    let payloads: DiscordPayload[];
    try {
      payloads = toDiscordPayloads(item);
    } catch (error) {
      logger.error({ ...about, err: error }, 'outbox message cannot be sent as built');
      return 'permanent';
    }
    try {
      const channel = await target(client, item);
      if (!channel) {
        logger.warn(about, 'outbox message has no reachable recipient or channel');
        return { result: 'permanent', reason: 'no reachable recipient or channel' };
      }
      for (const [index, payload] of payloads.entries()) {
        if (index < item.partsSent) continue;
        await channel.send({ ...payload, nonce: partNonce(item.nonce, index), enforceNonce: true });
        ctx.partSent(index);
      }
      logger.debug({ ...about, parts: payloads.length }, 'outbox message delivered');
      return 'sent';
    } catch (error) {
      const outcome = classifySendError(error);
      const level = outcome === 'permanent' ? 'error' : outcome === 'retry' ? 'warn' : 'info';
      const err = loggableError(error);
      logger[level]({ ...about, outcome, err }, 'outbox delivery failed');
      const reason = typeof err === 'object' && err !== null && 'message' in err ? String((err as { message: unknown }).message) : String(err);
      return { result: outcome, reason: reason.slice(0, 300) };
    }
  };
}

/** Discord takes a nonce of at most 25 characters: the item's id (16 hex digits) and the part number. */
export function partNonce(itemNonce: string, part: number): string {
  return `${itemNonce.slice(0, 20)}.${part}`;
}
