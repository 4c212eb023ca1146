import { DiscordAPIError, PermissionFlagsBits, RateLimitError, Routes, type Client, type RawFile } from 'discord.js';
import type { Logger } from '../app/ports.js';
import type { DeliveryContext, DeliveryOutcome, OutboxItem } from '../app/outbox.js';
import { classifySendError, DiscordCodes, loggableError } from './discordErrors.js';
import { toDiscordPayloads, type DiscordPayload } from './payloads.js';

/**
 * The REST routes the outbox sends on. discord.js rejects on a rate limit there (RateLimitError)
 * instead of waiting inside the send, so the outbox reschedules that one item and the others keep
 * flowing; interaction answers (other routes) still wait their turn, as they must.
 */
export function isOutboxRoute(route: string, method: string): boolean {
  const m = method.toUpperCase();
  return m === 'POST' && (route === '/channels/:id/messages' || route === '/users/@me/channels');
}

/** The permissions a campaign post needs, by the names Discord shows in a channel's settings. */
const PERMISSION_NAMES = [
  [PermissionFlagsBits.ViewChannel, 'View Channel'],
  [PermissionFlagsBits.SendMessages, 'Send Messages'],
  [PermissionFlagsBits.SendMessagesInThreads, 'Send Messages in Threads'],
  [PermissionFlagsBits.EmbedLinks, 'Embed Links'],
  [PermissionFlagsBits.AttachFiles, 'Attach Files'],
] as const;

/** What the bot's permissions in a channel say about a refused post: the first one it lacks, or those it holds. */
type PermissionView = { readonly missing: string } | { readonly held: readonly string[] };

/**
 * The bot's permissions for this post in a guild channel, from its view of roles and overwrites
 * (Discord's 50013 does not say which one is missing): the first needed permission it lacks, or
 * the needed ones it holds. Undefined when the channel is not a guild channel or not known.
 */
function postPermissions(client: Client, channelId: string, withFiles: boolean, withEmbeds: boolean): PermissionView | undefined {
  const channel = client.channels.cache.get(channelId);
  if (!channel || channel.isDMBased() || !('guild' in channel)) return undefined;
  const me = channel.guild.members.me;
  const perms = me ? channel.permissionsFor(me) : null;
  if (!perms) return undefined;
  const needed = [
    PermissionFlagsBits.ViewChannel,
    channel.isThread() ? PermissionFlagsBits.SendMessagesInThreads : PermissionFlagsBits.SendMessages,
    ...(withEmbeds ? [PermissionFlagsBits.EmbedLinks] : []),
    ...(withFiles ? [PermissionFlagsBits.AttachFiles] : []),
  ];
  const name = (bit: bigint): string => PERMISSION_NAMES.find(([b]) => b === bit)?.[1] ?? String(bit);
  const missing = needed.find((bit) => !perms.has(bit, false));
  return missing !== undefined ? { missing: name(missing) } : { held: needed.map(name) };
}

/**
 * The permissions as they are now: the cache may be stale (a channel or role update missed while
 * reconnecting), so a refusal the cache does not explain is checked against the channel, the
 * bot's member and the guild's roles fetched from Discord. Undefined when they cannot be fetched.
 */
async function livePostPermissions(client: Client, channelId: string, withFiles: boolean, withEmbeds: boolean, signal: AbortSignal): Promise<PermissionView | undefined> {
  try {
    const channel = await client.channels.fetch(channelId, { force: true });
    if (!channel || channel.isDMBased() || !('guild' in channel) || signal.aborted) return undefined;
    await channel.guild.roles.fetch(undefined, { force: true });
    await channel.guild.members.fetchMe({ force: true });
  } catch {
    return undefined;
  }
  return postPermissions(client, channelId, withFiles, withEmbeds);
}

/** One message part as Discord's REST body and file parts (files[n] matching attachments[n]). */
function messageBody(payload: DiscordPayload, nonce: string): { body: Record<string, unknown>; files: RawFile[] } {
  const files = (payload.files ?? []).map((f, i) => ({ key: `files[${i}]`, name: f.name ?? `file${i}`, data: f.attachment as Buffer }));
  const body: Record<string, unknown> = {
    ...(payload.content !== undefined ? { content: payload.content } : {}),
    ...(payload.embeds ? { embeds: payload.embeds } : {}),
    ...(payload.components ? { components: payload.components.map((r) => r.toJSON()) } : {}),
    ...(files.length > 0 ? { attachments: files.map((f, i) => ({ id: String(i), filename: f.name })) } : {}),
    allowed_mentions: payload.allowedMentions,
    nonce,
    enforce_nonce: true,
  };
  return { body, files };
}

/**
 * The function the outbox calls for each due item: a DM (the DM channel is opened if needed) or a
 * post in a channel, with files and buttons, split under Discord's 2,000 characters, straight
 * through discord.js's REST client so the shutdown signal can abandon the request.
 * - Each part carries a nonce made of the item's stable id and the part number, with
 *   `enforce_nonce`: a part Discord already created (a timeout or a 500 after the create) comes
 *   back as the existing message instead of a second one. Parts sent by an earlier attempt are
 *   skipped.
 * - Nobody is pinged but the item's `mentions`.
 * - A rate limit rejects at once (see isOutboxRoute): the item is retried after Discord's
 *   `retry_after`, alone.
 * - A refusal for a missing permission names the permission (the referee's notice says which),
 *   checked against the live permissions when the cache does not explain it; when neither does,
 *   the notice says which permissions the bot holds instead of guessing.
 * - Cards go as embeds (Embed Links in a channel).
 */
export function makeDeliver(client: Client, logger: Logger): (item: OutboxItem, ctx: DeliveryContext) => Promise<DeliveryOutcome> {
  const dmChannels = new Map<string, string>();

  async function channelOf(item: OutboxItem, signal: AbortSignal): Promise<string | undefined> {
    if (item.to === 'channel') return item.channelId;
    if (!item.userId) return undefined;
    const known = dmChannels.get(item.userId);
    if (known) return known;
    const dm = (await client.rest.post(Routes.userChannels(), { body: { recipient_id: item.userId }, signal })) as { id: string };
    dmChannels.set(item.userId, dm.id);
    return dm.id;
  }

  return async (item, ctx) => {
    const about: About = { outboxId: item.id, campaignId: item.campaignId, to: item.to, userId: item.userId, channelId: item.channelId, attempts: item.attempts };
    const built = buildPayloads(item, logger, about);
    if (!Array.isArray(built)) return built;
    const attempt: Attempt = { withFiles: false, withEmbeds: false };
    try {
      attempt.channelId = await channelOf(item, ctx.signal);
      if (!attempt.channelId) {
        logger.warn(about, 'outbox message has no recipient or channel');
        return { result: 'permanent', reason: 'no recipient or channel' };
      }
      await sendParts(client, { item, ctx, payloads: built, channelId: attempt.channelId, attempt });
      logger.debug({ ...about, parts: built.length }, 'outbox message delivered');
      return 'sent';
    } catch (error) {
      return failedDelivery({ client, logger, about, ctx, attempt }, error);
    }
  };
}

type About = Record<string, unknown>;

/** How far a delivery got: its channel, and whether the part being sent had files or embeds. */
interface Attempt {
  channelId?: string | undefined;
  withFiles: boolean;
  withEmbeds: boolean;
}

/** The item as Discord payloads, or a permanent failure when it cannot be sent as built. */
function buildPayloads(item: OutboxItem, logger: Logger, about: About): DiscordPayload[] | DeliveryOutcome {
  try {
    return toDiscordPayloads(item);
  } catch (error) {
    logger.error({ ...about, err: error }, 'outbox message cannot be sent as built');
    return { result: 'permanent', reason: `the message cannot be sent as built: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) };
  }
}

/** Posts the parts an earlier attempt did not, each with its nonce, recording each as sent. */
async function sendParts(client: Client, send: { item: OutboxItem; ctx: DeliveryContext; payloads: readonly DiscordPayload[]; channelId: string; attempt: Attempt }): Promise<void> {
  const { item, ctx, attempt } = send;
  for (const [index, payload] of send.payloads.entries()) {
    if (index < item.partsSent) continue;
    const { body, files } = messageBody(payload, partNonce(item.nonce, index));
    attempt.withFiles = files.length > 0;
    attempt.withEmbeds = (payload.embeds ?? []).length > 0;
    await client.rest.post(Routes.channelMessages(send.channelId), { body, files, signal: ctx.signal });
    ctx.partSent(index);
  }
}

/** What a failed send means for the item: abandoned on shutdown, retried after a rate limit, or classified (with the permission a refusal names). */
async function failedDelivery(at: { client: Client; logger: Logger; about: About; ctx: DeliveryContext; attempt: Attempt }, error: unknown): Promise<DeliveryOutcome> {
  const { logger, about } = at;
  const err = loggableError(error);
  if (at.ctx.signal.aborted) {
    logger.info({ ...about, err }, 'outbox delivery abandoned: shutting down (the message stays queued)');
    return { result: 'retry', reason: 'shutting down' };
  }
  if (error instanceof RateLimitError) {
    const retryAfterMs = Math.max(error.retryAfter, error.timeToReset, 250);
    logger.warn({ ...about, err, retryAfterMs }, 'outbox delivery rate limited: this message waits, the others go on');
    return { result: 'retry', reason: `rate limited by Discord for ${Math.ceil(retryAfterMs / 1000)} s`, retryAfterMs };
  }
  const outcome = classifySendError(error);
  const { permission, held } = await refusedPermission(at.client, error, at.attempt, at.ctx.signal);
  const level = outcome === 'permanent' ? 'error' : outcome === 'retry' ? 'warn' : 'info';
  logger[level]({ ...about, outcome, err, permission, permissionsHeld: held }, 'outbox delivery failed');
  const message = typeof err === 'object' && err !== null && 'message' in err ? String((err as { message: unknown }).message) : String(err);
  const reason = permission ? `missing permission ${permission} (${message})` : held ? `refused (${message}) though I hold ${held.join(', ')} there` : message;
  return { result: outcome, reason: reason.slice(0, 300), ...(permission ? { missingPermission: permission } : {}), ...(held ? { permissionsHeld: held } : {}) };
}

/**
 * For a refusal for permissions (50013, 50001): the permission missing, from the cache or else
 * the live permissions; when neither names one, the needed permissions the bot holds there.
 */
async function refusedPermission(client: Client, error: unknown, attempt: Attempt, signal: AbortSignal): Promise<{ permission?: string | undefined; held?: readonly string[] | undefined }> {
  const permissionCode = error instanceof DiscordAPIError && (error.code === DiscordCodes.missingPermissions || error.code === DiscordCodes.missingAccess);
  const { channelId, withFiles, withEmbeds } = attempt;
  if (!permissionCode) return {};
  let view = channelId ? postPermissions(client, channelId, withFiles, withEmbeds) : undefined;
  if (channelId && !(view && 'missing' in view)) view = (await livePostPermissions(client, channelId, withFiles, withEmbeds, signal)) ?? view;
  if (view && 'missing' in view) return { permission: view.missing };
  if (error.code === DiscordCodes.missingAccess) return { permission: 'View Channel' };
  return { held: view && 'held' in view ? view.held : undefined };
}

/** Discord takes a nonce of at most 25 characters: the item's id (16 hex digits) and the part number. */
function partNonce(itemNonce: string, part: number): string {
  return `${itemNonce.slice(0, 20)}.${part}`;
}
