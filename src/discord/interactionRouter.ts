import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ComponentType,
  DiscordAPIError,
  MessageFlags,
  type APIButtonComponent,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import type { App } from '../app/app.js';
import type { ButtonHandler, Choice, Command } from '../app/commandContext.js';
import { UserError } from '../app/errors.js';
import { errorMessages } from '../app/handleError.js';
import { takeInteraction } from '../app/interactionClaim.js';
import { runButton, runCommand } from '../app/journal/invocation.js';
import type { Reply } from '../app/messages.js';
import type { Logger } from '../app/ports.js';
import { DiscordCodes, loggableError, newErrorRef } from './discordErrors.js';
import { autocompleteContext, commandContext, displayName, memberRoleIds } from './interactionContext.js';
import { allowedMentions, toDiscordPayloads, type DiscordPayload } from './payloads.js';
import { Responder, type AnswerPart } from './responder.js';

/**
 * The interaction router: an interaction in, the use-case it names run, its answer sent back. One
 * error path for all of them (answerError). The bot's lifecycle (login, ready, reconnect, stop)
 * is in bot.ts; this file never sees the gateway.
 */
export interface RouterOptions {
  readonly app: App;
  readonly logger: Logger;
  readonly commands: readonly Command[];
  readonly buttons: readonly ButtonHandler[];
  /** A command without `defer` (or a button) still working after this long gets a private deferral. */
  readonly safetyDeferMs: number;
}

/** What the router's steps share: the options, with commands and buttons indexed. */
interface Router extends RouterOptions {
  readonly commandsByName: ReadonlyMap<string, Command>;
  readonly buttonsByPrefix: ReadonlyMap<string, ButtonHandler>;
}

type About = Record<string, unknown>;

const MAX_CHOICES = 25;
const MAX_CHOICE_TEXT = 100;

/** Routes each interaction to its command, autocomplete or button handler. */
export function interactionRouter(opts: RouterOptions): (interaction: Interaction) => Promise<void> {
  const router: Router = {
    ...opts,
    commandsByName: new Map(opts.commands.map((c) => [c.data.name, c])),
    buttonsByPrefix: new Map(opts.buttons.map((b) => [b.prefix, b])),
  };
  return async (interaction) => {
    if (interaction.isChatInputCommand()) await onCommand(router, interaction);
    else if (interaction.isAutocomplete()) await onAutocomplete(router, interaction);
    else if (interaction.isButton()) await onButton(router, interaction);
    else if (interaction.isRepliable()) {
      await interaction.reply({ content: 'This bot does not handle that kind of interaction.', flags: MessageFlags.Ephemeral }).catch(() => undefined);
    }
  };
}

async function onCommand(router: Router, interaction: ChatInputCommandInteraction): Promise<void> {
  const about = { interaction: 'command', command: interaction.commandName, userId: interaction.user.id, guildId: interaction.guildId, channelId: interaction.channelId };
  const responder = newResponder(router, interaction, about);
  const command = router.commandsByName.get(interaction.commandName);
  const started = Date.now();
  let safety: NodeJS.Timeout | undefined;
  let messages: readonly Reply[];
  try {
    if (!taken(router, interaction.id, about)) return;
    if (!command) throw new UserError('command.unknown', `/${interaction.commandName} is not available on this bot.`);
    if (command.defer) await responder.defer(command.defer === 'ephemeral').catch((error: unknown) => deferralFailed(router, error, about));
    else safety = safetyDefer(router, responder, about);
    messages = await runCommand(command, commandContext(router.app, interaction));
  } catch (error) {
    await answerError(router, responder, error, { ...about, ms: Date.now() - started });
    return;
  } finally {
    clearTimeout(safety);
  }
  await deliverAnswer(router, responder, answerParts(messages, false), about);
  router.logger.debug({ ...about, ms: Date.now() - started }, 'command answered');
}

async function onButton(router: Router, interaction: ButtonInteraction): Promise<void> {
  const prefix = interaction.customId.split(':')[0] ?? '';
  const about = { interaction: 'button', prefix, userId: interaction.user.id, channelId: interaction.channelId };
  const responder = newResponder(router, interaction, about);
  let safety: NodeJS.Timeout | undefined;
  let messages: readonly Reply[];
  try {
    // Inside the one error path: a store that cannot be reached is answered, not dropped.
    if (!taken(router, interaction.id, about)) return;
    safety = safetyDefer(router, responder, about);
    const handler = router.buttonsByPrefix.get(prefix);
    if (!handler) throw new UserError('button.unknown', 'This button is no longer in use.');
    messages = await runButton(handler, { app: router.app, userId: interaction.user.id, userName: displayName(interaction), customId: interaction.customId, roleIds: memberRoleIds(interaction) });
  } catch (error) {
    await answerError(router, responder, error, about);
    return;
  } finally {
    clearTimeout(safety);
  }
  await deliverAnswer(router, responder, answerParts(messages, true, interaction), about);
}

/** A responder for one interaction; a late acknowledgement (an expected case on a loaded machine) is logged at info. */
function newResponder(router: Router, interaction: ChatInputCommandInteraction | ButtonInteraction, about: About): Responder {
  return new Responder(interaction, (what) => router.logger.info(about, what));
}

/**
 * Sends the answer of a command or button that ran. Its work is done and stands, so a failure to
 * deliver the answer is never turned into "Something went wrong" (which would tell the user it
 * failed): it is logged as a warning, or as expired when Discord no longer takes an answer.
 */
async function deliverAnswer(router: Router, responder: Responder, parts: AnswerPart[], about: About): Promise<void> {
  try {
    await responder.send(parts);
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === DiscordCodes.unknownInteraction) router.logger.warn(about, 'interaction expired before it was answered');
    else router.logger.warn({ ...about, err: loggableError(error) }, 'the answer of a command that ran could not be delivered');
  }
}

async function onAutocomplete(router: Router, interaction: AutocompleteInteraction): Promise<void> {
  const about = { interaction: 'autocomplete', command: interaction.commandName, userId: interaction.user.id };
  try {
    const command = router.commandsByName.get(interaction.commandName);
    const choices = command?.autocomplete ? await command.autocomplete(autocompleteContext(router.app, interaction)) : [];
    await interaction.respond(fitChoices(choices));
  } catch (error) {
    if (error instanceof UserError) router.logger.debug({ ...about, code: error.code }, 'autocomplete refused');
    else router.logger.error({ ...about, ref: newErrorRef(), err: loggableError(error) }, 'autocomplete failed');
    if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
  }
}

/**
 * Whether this process takes the interaction: another instance on the same token and database
 * may have received it too, and the first to record it runs it. The other does nothing.
 */
function taken(router: Router, interactionId: string, about: About): boolean {
  if (takeInteraction(router.app, interactionId)) return true;
  router.logger.debug({ ...about, interactionId }, 'interaction taken by another process');
  return false;
}

/**
 * A declared deferral that failed: when Discord refused it (the interaction expired...), the
 * command is not run and the one error path answers; when it was lost on the way twice (a network
 * failure), the command still runs: its answer replies, or edits the deferral if Discord had it.
 */
function deferralFailed(router: Router, error: unknown, about: About): void {
  if (error instanceof DiscordAPIError) throw error;
  router.logger.warn({ ...about, err: loggableError(error) }, 'deferral failed; the command runs and answers anyway');
}

function safetyDefer(router: Router, responder: Responder, about: About): NodeJS.Timeout {
  return setTimeout(() => {
    responder.defer(true).catch((error: unknown) => router.logger.warn({ ...about, err: loggableError(error) }, 'safety deferral failed'));
  }, router.safetyDeferMs);
}

/** The app's one error path (a refusal shown as is; anything else logged with a reference), sent privately. */
async function answerError(router: Router, responder: Responder, error: unknown, about: About): Promise<void> {
  if (error instanceof DiscordAPIError && error.code === DiscordCodes.unknownInteraction) {
    // Nobody is listening any more: the 3 seconds passed (a slow start, or an interaction
    // replayed after a reconnect).
    router.logger.warn(about, 'interaction expired before it was answered');
    return;
  }
  const messages = errorMessages(error, router.logger, about);
  try {
    await responder.send(answerParts(messages, true));
  } catch (sendError) {
    router.logger.warn({ ...about, err: loggableError(sendError) }, 'could not tell the user about the failure');
  }
}

function answerParts(messages: readonly Reply[], allEphemeral: boolean, pressed?: ButtonInteraction): AnswerPart[] {
  const parts = messages.flatMap((m): AnswerPart[] => {
    if (m.to === 'update') return pressed ? [{ ephemeral: true, update: true, payload: answeredMessage(pressed, m) }] : [];
    return toDiscordPayloads(m).map((payload) => ({ ephemeral: allEphemeral || m.to === 'ephemeral', payload }));
  });
  return parts.length > 0 ? parts : [{ ephemeral: true, payload: { content: 'Done.', allowedMentions: allowedMentions() } }];
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
