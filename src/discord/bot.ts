import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  ComponentType,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Options,
  RESTEvents,
  GatewayCloseCodes,
  type APIButtonComponent,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import type { App } from '../app/app.js';
import { UserError } from '../app/errors.js';
import { errorMessages } from '../app/handleError.js';
import type { Reply } from '../app/messages.js';
import { takeInteraction } from '../app/interactionClaim.js';
import { runButton, runCommand } from '../app/journal/invocation.js';
import { DeliveryLanes, DRAW_AHEAD } from '../app/outbox.js';
import type { Logger } from '../app/ports.js';
import type { ButtonHandler, Choice, Command } from '../../src/app/commandContext.js';
import { DiscordCodes, loggableError, newErrorRef } from './discordErrors.js';
import { autocompleteContext, commandContext, displayName, memberRoleIds } from './interactionContext.js';
import { managerIdentifyThrottler } from './identifyGate.js';
import { isOutboxRoute, makeDeliver } from './outboxDelivery.js';
import { allowedMentions, toDiscordPayloads, type DiscordPayload } from './payloads.js';
import { Responder, type AnswerPart } from './responder.js';

export interface DiscordBotOptions {
  readonly app: App;
  readonly token: string;
  readonly commands: readonly Command[];
  readonly buttons: readonly ButtonHandler[];
  readonly logger: Logger;
  /** Discord's REST base, e.g. 'http://127.0.0.1:PORT/api' for a fake Discord in tests (DISCORD_API_BASE). */
  readonly restApi?: string;
  /** How long a REST request may take before it is abandoned (and retried). Default 15,000. */
  readonly restTimeoutMs?: number;
  /**
   * How often the outbox is checked (it is also checked after each interaction and each
   * scheduler run; other processes' messages and retries are found by this check). Default 500.
   */
  readonly deliveryIntervalMs?: number;
  /** Destinations delivered to at the same time, one message in flight each. Default 16. */
  readonly deliveryLanes?: number;
  /** Deliveries started at most per second (Discord's global limit is 50 requests a second). Default 50. */
  readonly deliveryPerSecond?: number;
  /** How long a stop waits for interactions and sends in flight before abandoning them. Default 1,000. */
  readonly stopGraceMs?: number;
  /** Checked before each delivery run: false skips it (the database is no longer the one opened). */
  readonly canDeliver?: () => boolean;
  /**
   * Discord will not take this bot any more: a gateway close that cannot be resumed (4004
   * authentication failed, 4010-4014) or a REST 401 while running. The process should stop.
   */
  readonly onFatal?: (error: DiscordFatalError) => void;
  /**
   * A command without `defer` (or a button) still working after this long gets a private
   * deferral, so Discord's 3 seconds are never missed. Default 2,000.
   */
  readonly safetyDeferMs?: number;
}

export interface DiscordBot {
  readonly client: Client<true>;
  /** Deliver due outbox messages now and wait until that is done. */
  deliverNow(): Promise<void>;
  /** Deliver due outbox messages soon (after the run in flight), without waiting. */
  deliverSoon(): void;
  /** Stop taking work, let interactions and the delivery in flight finish, disconnect. */
  stop(): Promise<void>;
}

const MAX_CHOICES = 25;
const MAX_CHOICE_TEXT = 100;

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

/**
 * Logs in with the Guilds intent only (DMs are sent, never received), routes interactions to the
 * commands and button handlers, and delivers the outbox. Resolves once the client is ready.
 */
export async function startDiscordBot(opts: DiscordBotOptions): Promise<DiscordBot> {
  const { app, logger } = opts;
  const commands = new Map(opts.commands.map((c) => [c.data.name, c]));
  const buttons = new Map(opts.buttons.map((b) => [b.prefix, b]));

  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // Nothing pings unless a message names its users (see payloads.ts).
    allowedMentions: { parse: [] },
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 25 }),
    // Under the ShardingManager the manager spaces every shard process's IDENTIFY (identifyGate.ts).
    ...(process.env.SHARDING_MANAGER && process.send ? { ws: { buildIdentifyThrottler: () => managerIdentifyThrottler() } } : {}),
    rest: {
      ...(opts.restApi ? { api: opts.restApi } : {}),
      ...(opts.restTimeoutMs ? { timeout: opts.restTimeoutMs } : {}),
      // The outbox's sends reject on a rate limit instead of waiting inside discord.js.
      rejectOnRateLimit: (data) => isOutboxRoute(data.route, data.method),
    },
  });

  const shutdown = new AbortController();
  const onDeliveryError = (error: unknown): void => logger.error({ err: loggableError(error) }, 'outbox delivery run failed');
  // Each destination a lane: a slow send holds only its own; lanes are refilled as they free up.
  const lanes = new DeliveryLanes(app, makeDeliver(client, logger), {
    ...(opts.deliveryLanes ? { lanes: opts.deliveryLanes } : {}),
    ...(opts.deliveryPerSecond ? { perSecond: opts.deliveryPerSecond } : {}),
    // Maps are drawn without holding a lane: text to other destinations goes out meanwhile.
    drawAhead: DRAW_AHEAD,
    signal: shutdown.signal,
    onError: onDeliveryError,
  });
  /** Claims what is due into the free lanes (synchronous; a cheap read when nothing is). */
  const poll = (): void => {
    if (stopping) return;
    if (opts.canDeliver && !opts.canDeliver()) return;
    try {
      lanes.fill();
    } catch (error) {
      onDeliveryError(error);
    }
  };

  let fatal = false;
  // Before ready, login itself fails with the reason (TokenInvalid...): no second report.
  let started = false;
  const fail = (error: DiscordFatalError): void => {
    if (fatal || stopping || !started) return;
    fatal = true;
    logger.error({ code: error.code, closeCode: error.closeCode }, `discord: ${error.message}`);
    opts.onFatal?.(error);
  };

  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  function answerParts(messages: readonly Reply[], allEphemeral: boolean, pressed?: ButtonInteraction): AnswerPart[] {
    const parts = messages.flatMap((m): AnswerPart[] => {
      if (m.to === 'update') return pressed ? [{ ephemeral: true, update: true, payload: answeredMessage(pressed, m) }] : [];
      return toDiscordPayloads(m).map((payload) => ({ ephemeral: allEphemeral || m.to === 'ephemeral', payload }));
    });
    return parts.length > 0 ? parts : [{ ephemeral: true, payload: { content: 'Done.', allowedMentions: allowedMentions() } }];
  }

  /** The app's one error path (a refusal shown as is; anything else logged with a reference), sent privately. */
  async function answerError(responder: Responder, error: unknown, about: Record<string, unknown>): Promise<void> {
    if (error instanceof DiscordAPIError && error.code === DiscordCodes.unknownInteraction) {
      // Nobody is listening any more: the 3 seconds passed (a slow start, or an interaction
      // replayed after a reconnect).
      logger.warn(about, 'interaction expired before it was answered');
      return;
    }
    const messages = errorMessages(error, logger, about);
    try {
      await responder.send(answerParts(messages, true));
    } catch (sendError) {
      logger.warn({ ...about, err: loggableError(sendError) }, 'could not tell the user about the failure');
    }
  }

  function safetyDefer(responder: Responder, about: Record<string, unknown>): NodeJS.Timeout {
    return setTimeout(() => {
      responder.defer(true).catch((error: unknown) => logger.warn({ ...about, err: loggableError(error) }, 'safety deferral failed'));
    }, opts.safetyDeferMs ?? 2000);
  }

  /**
   * Whether this process takes the interaction: another instance on the same token and database
   * may have received it too, and the first to record it runs it. The other does nothing.
   */
  function taken(interactionId: string, about: Record<string, unknown>): boolean {
    if (takeInteraction(app, interactionId)) return true;
    logger.debug({ ...about, interactionId }, 'interaction taken by another process');
    return false;
  }

  async function onCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    const about = { interaction: 'command', command: interaction.commandName, userId: interaction.user.id, guildId: interaction.guildId, channelId: interaction.channelId };
    const responder = new Responder(interaction);
    const command = commands.get(interaction.commandName);
    const started = Date.now();
    let safety: NodeJS.Timeout | undefined;
    try {
      if (!taken(interaction.id, about)) return;
      if (!command) throw new UserError('command.unknown', `/${interaction.commandName} is not available on this bot.`);
      if (command.defer) await responder.defer(command.defer === 'ephemeral');
      else safety = safetyDefer(responder, about);
      const messages = await runCommand(command, commandContext(app, interaction));
      clearTimeout(safety);
      await responder.send(answerParts(messages, false));
      logger.debug({ ...about, ms: Date.now() - started }, 'command answered');
    } catch (error) {
      clearTimeout(safety);
      await answerError(responder, error, { ...about, ms: Date.now() - started });
    }
  }

  async function onButton(interaction: ButtonInteraction): Promise<void> {
    const prefix = interaction.customId.split(':')[0] ?? '';
    const about = { interaction: 'button', prefix, userId: interaction.user.id, channelId: interaction.channelId };
    const responder = new Responder(interaction);
    if (!taken(interaction.id, about)) return;
    const safety = safetyDefer(responder, about);
    try {
      const handler = buttons.get(prefix);
      if (!handler) throw new UserError('button.unknown', 'This button is no longer in use.');
      const messages = await runButton(handler, { app, userId: interaction.user.id, userName: displayName(interaction), customId: interaction.customId, roleIds: memberRoleIds(interaction) });
      clearTimeout(safety);
      await responder.send(answerParts(messages, true, interaction));
    } catch (error) {
      clearTimeout(safety);
      await answerError(responder, error, about);
    }
  }

  async function onAutocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const about = { interaction: 'autocomplete', command: interaction.commandName, userId: interaction.user.id };
    try {
      const command = commands.get(interaction.commandName);
      const choices = command?.autocomplete ? await command.autocomplete(autocompleteContext(app, interaction)) : [];
      await interaction.respond(fitChoices(choices));
    } catch (error) {
      if (error instanceof UserError) logger.debug({ ...about, code: error.code }, 'autocomplete refused');
      else logger.error({ ...about, ref: newErrorRef(), err: loggableError(error) }, 'autocomplete failed');
      if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
    }
  }

  async function route(interaction: Interaction): Promise<void> {
    if (interaction.isChatInputCommand()) await onCommand(interaction);
    else if (interaction.isAutocomplete()) await onAutocomplete(interaction);
    else if (interaction.isButton()) await onButton(interaction);
    else if (interaction.isRepliable()) {
      await interaction.reply({ content: 'This bot does not handle that kind of interaction.', flags: MessageFlags.Ephemeral }).catch(() => undefined);
    }
  }

  client.on(Events.InteractionCreate, (interaction) => {
    if (stopping) return;
    const handling = route(interaction)
      .catch((error: unknown) => logger.error({ err: loggableError(error) }, 'interaction routing failed'))
      .finally(() => {
        inFlight.delete(handling);
        if (interaction.isAutocomplete()) return;
        poll();
      });
    inFlight.add(handling);
  });
  client.on(Events.Error, (error) => logger.error({ err: loggableError(error) }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({}, `discord: ${message}`));
  client.on(Events.ShardDisconnect, (event, shardId) => {
    logger.warn({ shardId, code: event.code }, 'gateway disconnected for good');
    const message = FATAL_CLOSE_CODES.get(event.code);
    if (message) fail(new DiscordFatalError(message, event.code === GatewayCloseCodes.AuthenticationFailed ? 'TokenInvalid' : 'GatewayClosed', event.code));
  });
  // A 401 on a request made with the bot token: the token was reset or revoked. discord.js then
  // drops the token and every later call fails, so the process must not go on as if connected.
  client.rest.on(RESTEvents.Response, (request, response) => {
    if (response.status === 401 && request.data.auth !== false) fail(new DiscordFatalError('An invalid token was provided', 'TokenInvalid'));
  });
  client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway reconnecting'));
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway resumed'));
  client.rest.on(RESTEvents.RateLimited, (info) => logger.warn({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'discord rate limit'));

  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  try {
    await client.login(opts.token);
    await ready;
  } catch (error) {
    await client.destroy();
    throw error;
  }
  const readyClient = client as Client<true>;
  started = true;
  logger.info({ bot: readyClient.user.tag, applicationId: readyClient.application.id, guilds: readyClient.guilds.cache.size }, 'discord ready');
  const pollTimer = setInterval(poll, opts.deliveryIntervalMs ?? 500);
  pollTimer.unref();
  poll();

  return {
    client: readyClient,
    async deliverNow() {
      if (opts.canDeliver && !opts.canDeliver()) return;
      await lanes.drain();
    },
    deliverSoon() {
      poll();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      // Interactions and sends in flight get a short grace; then waiting sends are abandoned
      // (their messages stay queued: the nonce makes a later resend harmless).
      const graceMs = opts.stopGraceMs ?? 1000;
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      clearInterval(pollTimer);
      await Promise.race([Promise.allSettled([...inFlight, lanes.close()]), grace]);
      shutdown.abort();
      await lanes.close();
      await client.destroy();
      logger.info({}, 'discord stopped');
    },
  };
}

/**
 * The pressed message after an answer: its text with what was chosen added, the buttons of the
 * question it settles disabled (the one pressed marked green), so an answered question cannot be
 * answered twice and says how it was answered.
 */
function answeredMessage(pressed: ButtonInteraction, update: Reply): DiscordPayload {
  const before = pressed.message.content;
  const content = before ? `${before}\n${update.content}` : update.content;
  const components = pressed.message.components.map((row) => {
    const json = row.toJSON() as { components?: { type: number }[] };
    const buttons = (json.components ?? []).filter((c): c is APIButtonComponent => c.type === ComponentType.Button).map((c) => {
      const id = 'custom_id' in c ? c.custom_id : '';
      const b = new ButtonBuilder(c);
      if (update.settles === undefined || id.startsWith(update.settles)) b.setDisabled(true);
      if (id === pressed.customId) b.setStyle(ButtonStyle.Success);
      return b;
    });
    return new ActionRowBuilder<ButtonBuilder>().addComponents(buttons);
  }).filter((row) => row.components.length > 0);
  return { content: content.length > 2000 ? update.content.slice(0, 2000) : content, components, allowedMentions: allowedMentions() };
}

/** At most 25 choices; names of 1 to 100 characters; values over 100 characters are dropped. */
export function fitChoices(choices: readonly Choice[]): Choice[] {
  return choices
    .filter((c) => c.value.length > 0 && c.value.length <= MAX_CHOICE_TEXT)
    .slice(0, MAX_CHOICES)
    .map((c) => {
      const name = c.name.length === 0 ? c.value : c.name;
      return { name: name.length > MAX_CHOICE_TEXT ? `${name.slice(0, MAX_CHOICE_TEXT - 1)}…` : name, value: c.value };
    });
}
