import type { DeliveryResult } from '../app/outbox.js';
import { randomBytes } from 'node:crypto';
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';

/** Discord's JSON error codes the transport cares about. */
export const DiscordCodes = {
  unknownChannel: 10003,
  unknownUser: 10013,
  unknownInteraction: 10062,
  missingAccess: 50001,
  cannotSendToUser: 50007,
  missingPermissions: 50013,
  alreadyAcknowledged: 40060,
} as const;

/** A short reference shown to the user and written to the log, to find one failure. */
export function newErrorRef(): string {
  return randomBytes(3).toString('hex');
}

/**
 * Classifies a failed send:
 * - 50007 "Cannot send messages to this user": closed DMs;
 * - 429, 5xx (after discord.js' own retries), 401/408 and network failures: retry later;
 * - any other 4xx (unknown channel, missing access, invalid body): permanent.
 */
export function classifySendError(error: unknown): Exclude<DeliveryResult, 'sent'> {
  if (error instanceof DiscordAPIError) {
    if (error.code === DiscordCodes.cannotSendToUser) return 'dmClosed';
    if (error.status === 429 || error.status === 401 || error.status === 408 || error.status >= 500) return 'retry';
    return 'permanent';
  }
  if (error instanceof HTTPError || error instanceof RateLimitError) return 'retry';
  return 'retry';
}

/**
 * An error made safe for the log: Discord errors carry the request body (message contents, which
 * may be secret) and the URL (which holds interaction tokens); keep only what identifies them.
 */
export function loggableError(error: unknown): unknown {
  if (error instanceof DiscordAPIError) {
    return { type: 'DiscordAPIError', message: error.message, code: error.code, status: error.status, method: error.method, route: redactUrl(error.url) };
  }
  if (error instanceof HTTPError) {
    return { type: 'HTTPError', message: error.message, status: error.status, method: error.method, route: redactUrl(error.url) };
  }
  if (error instanceof RateLimitError) {
    return { type: 'RateLimitError', route: error.route, retryAfter: error.retryAfter, global: error.global };
  }
  return error;
}

/** Strips tokens from a Discord URL (interaction and webhook tokens sit in the path). */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/interactions\/\d+\/)[^/?]+/, '$1:token')
    .replace(/(\/webhooks\/\d+\/)[^/?]+/, '$1:token');
}
