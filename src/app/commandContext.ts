import type { Actor } from './actor.js';
import type { App } from './app.js';
import type { Reply } from './messages.js';

/** An uploaded file (Discord attachment, or `file:path` in the console). */
export interface UploadedFile {
  readonly name: string;
  text(): Promise<string>;
}

/**
 * One invocation of a slash command, transport-neutral. Discord and the console both build one.
 */
export interface CommandContext extends Actor {
  readonly app: App;
  readonly subcommand: string | undefined;
  string(name: string): string | undefined;
  integer(name: string): number | undefined;
  number(name: string): number | undefined;
  boolean(name: string): boolean | undefined;
  /** A user option: the user id. */
  user(name: string): string | undefined;
  /** A user option: how to call that user (display name), when the transport knows it. */
  userLabel(name: string): string | undefined;
  attachment(name: string): UploadedFile | undefined;
  /** The largest file the person's client takes in an answer, in bytes (Discord: the server's upload limit); undefined: any size (the console). */
  readonly uploadLimit?: number;
}

export interface AutocompleteContext {
  readonly app: App;
  readonly userId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly roleIds: readonly string[];
  readonly subcommand: string | undefined;
  /** The option being typed and its partial value. */
  readonly focused: { readonly name: string; readonly value: string };
  string(name: string): string | undefined;
}

export interface Choice {
  readonly name: string;
  readonly value: string;
}

/** A command option (or subcommand) as Discord registers it: the part of the API's JSON the bot uses. */
export interface CommandOptionJson {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string | number }[];
  options?: CommandOptionJson[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

/** A chat-input command as Discord registers it (the body of the command PUT). */
export interface CommandJson {
  type?: number;
  name: string;
  description: string;
  options?: CommandOptionJson[];
  /** Where Discord offers it: 0 servers, 1 the bot's DM, 2 other private channels. */
  contexts?: number[];
  integration_types?: number[];
}

/** A command's definition: built with src/app/slash.ts (discord.js's builder API). */
export interface CommandData {
  readonly name: string;
  toJSON(): CommandJson;
}

export interface Command {
  readonly data: CommandData;
  /** Acknowledge first when the work may take longer than Discord's 3 seconds. */
  readonly defer?: 'ephemeral' | 'public';
  execute(ctx: CommandContext): Promise<readonly Reply[]>;
  autocomplete?(ctx: AutocompleteContext): Promise<readonly Choice[]>;
}

/** A button press (custom id) routed to a use-case. */
export interface ButtonHandler {
  /** Prefix of the custom ids it owns, e.g. "contact". */
  readonly prefix: string;
  execute(ctx: { app: App; userId: string; /** The presser's display name, when the transport knows it. */ userName?: string; customId: string; /** The presser's roles in the campaign's guild, when the transport knows them (not in a DM). */ roleIds?: readonly string[] }): Promise<readonly Reply[]>;
}
