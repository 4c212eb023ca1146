import type { Client, SendableChannels } from 'discord.js';
import type { Logger } from '../app/ports.js';
import type { DeliveryOutcome } from '../app/outbox.js';
import { classifySendError, loggableError } from './discordErrors.js';
import { toDiscordPayloads, type DiscordPayload, type MessageParts } from './payloads.js';

/** What the Discord delivery needs of a message to send (an outbox item, or a stray Message). */
export interface Deliverable extends MessageParts {
  readonly id?: number | string;
  readonly campaignId?: string;
  readonly to: 'dm' | 'channel' | 'reply' | 'ephemeral';
  readonly userId?: string | undefined;
  readonly channelId?: string | undefined;
  readonly attempts?: number;
}

async function target(client: Client, item: Deliverable): Promise<SendableChannels | undefined> {
  if (item.to === 'dm') return item.userId ? client.users.createDM(item.userId) : undefined;
  if (item.to === 'channel' && item.channelId) {
    const channel = await client.channels.fetch(item.channelId);
    return channel?.isSendable() ? channel : undefined;
  }
  return undefined;
}

/**
 * The function the outbox calls for each due item: a DM (the DM channel is created if needed) or
 * a post in a channel, with files and buttons, split under Discord's 2,000 characters. Sends are
 * awaited one by one; discord.js queues them under Discord's rate limits.
 * Returns what the outbox should do next (see classifySendError).
 */
export function makeDeliver(client: Client, logger: Logger): (item: Deliverable) => Promise<DeliveryOutcome> {
  return async (item) => {
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
      for (const payload of payloads) await channel.send(payload);
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
