import {
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Options,
  RESTEvents,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import type { App } from '../app/app.js';
import { UserError } from '../app/errors.js';
import { errorMessages } from '../app/handleError.js';
import type { Reply } from '../app/messages.js';
import { runDelivery } from '../app/outbox.js';
import type { Logger } from '../app/ports.js';
import type { ButtonHandler, Choice, Command } from '../../src/app/commandContext.js';
import { DeliveryLoop } from './deliveryLoop.js';
import { DiscordCodes, loggableError, newErrorRef } from './discordErrors.js';
import { autocompleteContext, commandContext, memberRoleIds } from './interactionContext.js';
import { makeDeliver } from './outboxDelivery.js';
import { toDiscordPayloads } from './payloads.js';
import { Responder, type AnswerPart } from './responder.js';

export interface DiscordBotOptions {
  readonly app: App;
  readonly token: string;
  readonly commands: readonly Command[];
  readonly buttons: readonly ButtonHandler[];
  readonly logger: Logger;
  /** Discord's REST base, e.g. 'http://127.0.0.1:PORT/api' for a fake Discord in tests. */
  readonly restApi?: string;
  /** How often the outbox is checked (it is also checked after each interaction). Default 2,000. */
  readonly deliveryIntervalMs?: number;
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
  /** Stop taking work, let interactions and the delivery in flight finish, disconnect. */
  stop(): Promise<void>;
}

const MAX_CHOICES = 25;
const MAX_CHOICE_TEXT = 100;
const STOP_GRACE_MS = 10_000;
/** runDelivery's batch size (claimDueMessages' default limit). */
const DELIVERY_BATCH = 25;

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
    allowedMentions: { parse: ['users'] },
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 25 }),
    ...(opts.restApi ? { rest: { api: opts.restApi } } : {}),
  });

  const deliver = makeDeliver(client, logger);
  const loop: DeliveryLoop = new DeliveryLoop(
    async () => {
      // runDelivery takes a batch of due messages; a full batch means more may be waiting.
      const sent = await runDelivery(app, deliver);
      if (sent >= DELIVERY_BATCH) loop.kick();
    },
    opts.deliveryIntervalMs ?? 2000,
    (error) => logger.error({ err: loggableError(error) }, 'outbox delivery run failed'),
  );

  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  function answerParts(messages: readonly Reply[], allEphemeral: boolean): AnswerPart[] {
    const parts = messages
      .flatMap((m) => toDiscordPayloads(m).map((payload) => ({ ephemeral: allEphemeral || m.to === 'ephemeral', payload })));
    return parts.length > 0 ? parts : [{ ephemeral: true, payload: { content: 'Done.', allowedMentions: { parse: ['users'] } } }];
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

  async function onCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    const about = { interaction: 'command', command: interaction.commandName, userId: interaction.user.id, guildId: interaction.guildId, channelId: interaction.channelId };
    const responder = new Responder(interaction);
    const command = commands.get(interaction.commandName);
    const started = Date.now();
    let safety: NodeJS.Timeout | undefined;
    try {
      if (!command) throw new UserError('command.unknown', `/${interaction.commandName} is not available on this bot.`);
      if (command.defer) await responder.defer(command.defer === 'ephemeral');
      else safety = safetyDefer(responder, about);
      const messages = await command.execute(commandContext(app, interaction));
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
    const safety = safetyDefer(responder, about);
    try {
      const handler = buttons.get(prefix);
      if (!handler) throw new UserError('button.unknown', 'This button is no longer in use.');
      const messages = await handler.execute({ app, userId: interaction.user.id, customId: interaction.customId, roleIds: memberRoleIds(interaction) });
      clearTimeout(safety);
      await responder.send(answerParts(messages, true));
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
        loop.kick();
      });
    inFlight.add(handling);
  });
  client.on(Events.Error, (error) => logger.error({ err: loggableError(error) }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({}, `discord: ${message}`));
  client.on(Events.ShardDisconnect, (event, shardId) => logger.warn({ shardId, code: event.code }, 'gateway disconnected for good'));
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
  logger.info({ bot: readyClient.user.tag, applicationId: readyClient.application.id, guilds: readyClient.guilds.cache.size }, 'discord ready');
  loop.start();

  return {
    client: readyClient,
    async deliverNow() {
      loop.kick();
      await loop.idle();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      await loop.stop();
      await client.destroy();
      logger.info({}, 'discord stopped');
    },
  };
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
