import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command, CommandOptionJson } from '../app/commandContext.js';

export type CommandPayload = RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Discord's limits on application commands (chat input). */
const CommandLimits = {
  commands: 100,
  name: 32,
  description: 100,
  options: 25,
  choices: 25,
  choiceText: 100,
  totalCharacters: 4000,
} as const;

/** Names: 1 to 32 characters, lowercase letters (any script), digits, '-' and '_'. */
const NAME = /^[-_'\p{Ll}\p{Lo}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

const SUBCOMMAND = 1;
const GROUP = 2;


/** The JSON Discord receives for each command (the builders' toJSON). */
export function commandPayloads(commands: readonly Command[]): CommandPayload[] {
  return commands.map((c) => c.data.toJSON());
}

/** Thrown with every limit a set of commands breaks, one line each. */
export class CommandLimitError extends Error {
  constructor(readonly violations: readonly string[]) {
    super(`Discord would refuse these commands (${violations.length} problem${violations.length === 1 ? '' : 's'}):\n${violations.map((v) => `- ${v}`).join('\n')}`);
    this.name = 'CommandLimitError';
  }
}

/** Every way the payloads break Discord's limits (empty when Discord will accept them). */
export function commandLimitViolations(payloads: readonly CommandPayload[]): string[] {
  const problems: string[] = [];
  if (payloads.length > CommandLimits.commands) problems.push(`${payloads.length} commands (at most ${CommandLimits.commands})`);
  const seen = new Set<string>();
  for (const payload of payloads) {
    const where = `/${payload.name}`;
    if (seen.has(payload.name)) problems.push(`${where}: the name is used by more than one command`);
    seen.add(payload.name);
    checkName(payload.name, where, problems);
    checkDescription(payload.description, where, problems);
    checkOptions((payload.options ?? []) as CommandOptionJson[], where, 0, problems);
    const total = characterCount(payload.name, payload.description, (payload.options ?? []) as CommandOptionJson[]);
    if (total > CommandLimits.totalCharacters) {
      problems.push(`${where}: ${total} characters in names, descriptions and choices together (at most ${CommandLimits.totalCharacters})`);
    }
  }
  return problems;
}

/** Throws a CommandLimitError listing every violation; returns the payloads when they fit. */
export function checkCommandLimits(payloads: readonly CommandPayload[]): readonly CommandPayload[] {
  const problems = commandLimitViolations(payloads);
  if (problems.length > 0) throw new CommandLimitError(problems);
  return payloads;
}

function checkName(name: string, where: string, problems: string[]): void {
  if (!NAME.test(name)) {
    problems.push(`${where}: name "${name}" must be 1-32 lowercase letters, digits, '-' or '_'`);
  }
}

function checkDescription(description: string | undefined, where: string, problems: string[]): void {
  const length = description?.length ?? 0;
  if (length < 1 || length > CommandLimits.description) {
    problems.push(`${where}: description is ${length} characters (1-${CommandLimits.description})`);
  }
}

function checkOptions(options: readonly CommandOptionJson[], where: string, depth: number, problems: string[]): void {
  if (options.length > CommandLimits.options) problems.push(`${where}: ${options.length} options (at most ${CommandLimits.options})`);
  const nested = options.filter((o) => o.type === SUBCOMMAND || o.type === GROUP);
  if (nested.length > 0 && nested.length !== options.length) {
    problems.push(`${where}: subcommands cannot sit beside plain options`);
  }
  const names = new Set<string>();
  let optionalSeen = false;
  for (const option of options) {
    const at = `${where} ${option.name}`;
    if (names.has(option.name)) problems.push(`${at}: option name used twice`);
    names.add(option.name);
    checkName(option.name, at, problems);
    checkDescription(option.description, at, problems);
    if (option.type === GROUP || option.type === SUBCOMMAND) {
      checkNested(option, at, depth, problems);
      continue;
    }
    if (option.required && optionalSeen) problems.push(`${at}: required options must come before optional ones`);
    if (!option.required) optionalSeen = true;
    checkChoices(option, at, problems);
  }
}

/** A subcommand group (top level only, subcommands only) or a subcommand (no subcommands inside), and what it holds. */
function checkNested(option: CommandOptionJson, at: string, depth: number, problems: string[]): void {
  const inner = option.options ?? [];
  if (option.type === GROUP) {
    if (depth > 0) problems.push(`${at}: a subcommand group can only sit at the top level`);
    if (inner.some((o) => o.type !== SUBCOMMAND)) problems.push(`${at}: a group holds only subcommands`);
  } else if (inner.some((o) => o.type === SUBCOMMAND || o.type === GROUP)) {
    problems.push(`${at}: a subcommand cannot hold subcommands`);
  }
  checkOptions(inner, at, depth + 1, problems);
}

/** A plain option's fixed choices: at most 25, not with autocomplete, names and string values of 1-100 characters. */
function checkChoices(option: CommandOptionJson, at: string, problems: string[]): void {
  const choices = option.choices ?? [];
  if (choices.length > CommandLimits.choices) problems.push(`${at}: ${choices.length} choices (at most ${CommandLimits.choices})`);
  if (choices.length > 0 && option.autocomplete) problems.push(`${at}: autocomplete and fixed choices exclude each other`);
  for (const choice of choices) {
    if (choice.name.length < 1 || choice.name.length > CommandLimits.choiceText) {
      problems.push(`${at}: choice "${choice.name.slice(0, 40)}" has a name of ${choice.name.length} characters (1-${CommandLimits.choiceText})`);
    }
    if (typeof choice.value === 'string' && (choice.value.length < 1 || choice.value.length > CommandLimits.choiceText)) {
      problems.push(`${at}: choice "${choice.name.slice(0, 40)}" has a value of ${choice.value.length} characters (1-${CommandLimits.choiceText})`);
    }
  }
}

function characterCount(name: string, description: string, options: readonly CommandOptionJson[]): number {
  let total = name.length + description.length;
  for (const o of options) {
    total += characterCount(o.name, o.description, o.options ?? []);
    for (const c of o.choices ?? []) total += c.name.length + String(c.value).length;
  }
  return total;
}

/**
 * What the bot needs in a campaign channel: see it, post, embed links, attach map PNGs; members
 * use its slash commands. No thread permissions: the bot posts in the campaign channel itself.
 */
const BOT_PERMISSIONS = {
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  UseApplicationCommands: 1n << 31n,
} as const;

/** The permission integer for the invite URL (2147535872). */
export const BOT_PERMISSION_BITS = Object.values(BOT_PERMISSIONS).reduce((a, b) => a | b, 0n);

/** The invite URL: the bot user and its slash commands, with BOT_PERMISSION_BITS. */
export function inviteUrl(clientId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${clientId}&scope=bot%20applications.commands&permissions=${BOT_PERMISSION_BITS}`;
}
