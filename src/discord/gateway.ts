import {
  Client,
  Events,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  Options,
  RESTEvents,
} from 'discord.js';
import type { Logger } from '../app/ports.js';
import { loggableError } from './discordErrors.js';
import { managerIdentifyThrottler } from './identifyGate.js';
import { isOutboxRoute } from './outboxDelivery.js';

/**
 * The connection to Discord: the client as this bot configures it, what the gateway and REST
 * report while it runs (reconnects, rate limits, the closes Discord never takes back), and login.
 */

/** Gateway close codes after which Discord will not take the bot back without an operator. */
const FATAL_CLOSE_CODES: ReadonlyMap<number, string> = new Map([
  [GatewayCloseCodes.AuthenticationFailed, 'An invalid token was provided'],
  [GatewayCloseCodes.InvalidShard, 'Discord refused the shard (gateway close 4010 Invalid shard)'],
  [GatewayCloseCodes.ShardingRequired, 'Discord requires sharding for this many servers (gateway close 4011): run with SHARDS=auto'],
  [GatewayCloseCodes.InvalidAPIVersion, 'Discord refused the gateway API version (gateway close 4012)'],
  [GatewayCloseCodes.InvalidIntents, 'Discord refused the gateway intents (gateway close 4013 Invalid intents)'],
  [GatewayCloseCodes.DisallowedIntents, 'Discord refused a privileged intent that is not enabled for this application (gateway close 4014)'],
]);

/**
 * Discord will not take the bot any more. `code` is 'TokenInvalid' for a token Discord refuses
 * (as discord.js names it at login), or 'GatewayClosed' with the close code.
 */
export class DiscordFatalError extends Error {
  constructor(message: string, readonly code: 'TokenInvalid' | 'GatewayClosed', readonly closeCode?: number) {
    super(message);
    this.name = 'DiscordFatalError';
  }
}

export interface ClientOptions {
  /** Discord's REST base (a fake Discord in tests). */
  readonly restApi?: string;
  /** How long a REST request may take before it is abandoned (and retried). */
  readonly restTimeoutMs?: number;
}

/** A client with the Guilds intent only (DMs are sent, never received) and a small message cache. */
export function discordClient(opts: ClientOptions): Client {
  // Under the ShardingManager the manager spaces every shard process's IDENTIFY (identifyGate.ts).
  const throttler = process.env.SHARDING_MANAGER && process.send ? managerIdentifyThrottler() : undefined;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // Nothing pings unless a message names its users (see payloads.ts).
    allowedMentions: { parse: [] },
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 25 }),
    ...(throttler ? { ws: { buildIdentifyThrottler: () => throttler } } : {}),
    rest: {
      ...(opts.restApi ? { api: opts.restApi } : {}),
      ...(opts.restTimeoutMs ? { timeout: opts.restTimeoutMs } : {}),
      // The outbox's sends reject on a rate limit instead of waiting inside discord.js.
      rejectOnRateLimit: (data) => isOutboxRoute(data.route, data.method),
    },
  });
  if (throttler) {
    // The manager spaces the bucket's next IDENTIFY from this one's answer (READY comes after
    // Discord received it) or from the connection's end, whichever comes first.
    client.ws.on(GatewayDispatchEvents.Ready, (_data, shardId) => throttler.settled(shardId));
    client.on(Events.ShardReconnecting, (shardId) => throttler.settled(shardId));
    client.on(Events.ShardDisconnect, (_event, shardId) => throttler.settled(shardId));
  }
  return client;
}

/**
 * Logs what the gateway and REST report, and calls `fatal` when Discord will not take the bot any
 * more: a gateway close that cannot be resumed, or a 401 on a request made with the bot token.
 */
export function watchGateway(client: Client, logger: Logger, fatal: (error: DiscordFatalError) => void): void {
  client.on(Events.Error, (error) => logger.error({ err: loggableError(error) }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({}, `discord: ${message}`));
  client.on(Events.ShardDisconnect, (event, shardId) => {
    logger.warn({ shardId, code: event.code }, 'gateway disconnected for good');
    const message = FATAL_CLOSE_CODES.get(event.code);
    if (message) fatal(new DiscordFatalError(message, event.code === GatewayCloseCodes.AuthenticationFailed ? 'TokenInvalid' : 'GatewayClosed', event.code));
  });
  // A 401 on a request made with the bot token: the token was reset or revoked. discord.js then
  // drops the token and every later call fails, so the process must not go on as if connected.
  client.rest.on(RESTEvents.Response, (request, response) => {
    if (response.status === 401 && request.data.auth !== false) fatal(new DiscordFatalError('An invalid token was provided', 'TokenInvalid'));
  });
  client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway reconnecting'));
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway resumed'));
  client.rest.on(RESTEvents.RateLimited, (info) => logger.warn({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'discord rate limit'));
}

/** Logs in and waits for ready; on failure the client is destroyed and the reason thrown (TokenInvalid...). */
export async function logIn(client: Client, token: string): Promise<Client<true>> {
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  try {
    await client.login(token);
    return await ready;
  } catch (error) {
    await client.destroy();
    throw error;
  }
}
