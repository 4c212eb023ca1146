import { ApplicationCommandOptionType, GuildMember, PermissionFlagsBits, type Attachment, type AutocompleteInteraction, type BaseInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { App } from '../app/app.js';
import { UserError } from '../app/errors.js';
import type { AutocompleteContext, CommandContext, UploadedFile } from '../../src/app/commandContext.js';

/** Uploads larger than this are refused before download (scenario files are a few hundred kB). */
const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 15_000;
/** Discord's upload limit for a server without boosts, when an interaction does not say its own. */
export const DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024;

/** Role ids of the member who used the interaction, without @everyone; none outside a guild. */
export function memberRoleIds(interaction: BaseInteraction): string[] {
  const member = interaction.member;
  if (!member) return [];
  if (member instanceof GuildMember) return [...member.roles.cache.keys()].filter((id) => id !== interaction.guildId);
  return [...member.roles];
}

export function displayName(interaction: BaseInteraction): string {
  const member = interaction.member;
  if (member instanceof GuildMember) return member.displayName;
  return member?.nick ?? interaction.user.displayName;
}

/** A Discord attachment as an UploadedFile: the text is downloaded when the command asks for it. */
function uploadedFile(attachment: Attachment): UploadedFile {
  return {
    name: attachment.name,
    async text() {
      if (attachment.size > MAX_UPLOAD_BYTES) {
        throw new UserError('upload.tooLarge', `${attachment.name} is ${Math.ceil(attachment.size / 1024)} kB; files up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB are accepted.`);
      }
      const response = await fetch(attachment.url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`downloading attachment ${attachment.name} failed: HTTP ${response.status}`);
      return response.text();
    },
  };
}

/**
 * The id given in a user option. Role and mentionable options also hold an id; they are read the
 * same way (the contract has no role getter: /campaign settings referee-role is a role option).
 */
function snowflakeOption(interaction: ChatInputCommandInteraction, name: string): string | undefined {
  const option = interaction.options.get(name);
  if (!option) return undefined;
  if (option.type === ApplicationCommandOptionType.User) return option.user?.id ?? String(option.value);
  if (option.type === ApplicationCommandOptionType.Role || option.type === ApplicationCommandOptionType.Mentionable) return String(option.value);
  throw new Error(`option "${name}" is of type ${ApplicationCommandOptionType[option.type]}, not a user`);
}

/**
 * What the bot lacks in the interaction's guild channel to run a campaign there, from the
 * interaction's `app_permissions` (the bot's permissions in that channel, overwrites included):
 * View Channel, Send Messages (Send Messages in Threads in a thread), Embed Links (the cards: the
 * chronicle, statuses, the briefing) and Attach Files (the map). Outside a guild: nothing.
 */
function botMissingPermissions(interaction: BaseInteraction): string[] {
  if (!interaction.inGuild()) return [];
  const perms = interaction.appPermissions;
  const thread = interaction.channel?.isThread() ?? false;
  const needed: [bigint, string][] = [
    [PermissionFlagsBits.ViewChannel, 'View Channel'],
    thread ? [PermissionFlagsBits.SendMessagesInThreads, 'Send Messages in Threads'] : [PermissionFlagsBits.SendMessages, 'Send Messages'],
    [PermissionFlagsBits.EmbedLinks, 'Embed Links'],
    [PermissionFlagsBits.AttachFiles, 'Attach Files'],
  ];
  return needed.filter(([bit]) => !perms.has(bit, false)).map(([, name]) => name);
}

/**
 * The transport-neutral CommandContext of a slash command. Outside a guild (a DM) guildId is ''
 * and channelId the DM channel, so campaign commands find no campaign there.
 */
export function commandContext(app: App, interaction: ChatInputCommandInteraction): CommandContext {
  const o = interaction.options;
  return {
    app,
    userId: interaction.user.id,
    userName: displayName(interaction),
    guildId: interaction.guildId ?? '',
    channelId: interaction.channelId,
    roleIds: memberRoleIds(interaction),
    botMissingPermissions: botMissingPermissions(interaction),
    subcommand: o.getSubcommand(false) ?? undefined,
    string: (name) => o.getString(name) ?? undefined,
    integer: (name) => o.getInteger(name) ?? undefined,
    number: (name) => o.getNumber(name) ?? undefined,
    boolean: (name) => o.getBoolean(name) ?? undefined,
    user: (name) => snowflakeOption(interaction, name),
    userLabel: (name) => {
      const member = o.getMember(name);
      if (member instanceof GuildMember) return member.displayName;
      const user = o.getUser(name);
      return (member && 'nick' in member ? member.nick : undefined) ?? user?.displayName;
    },
    attachment: (name) => {
      const a = o.getAttachment(name);
      return a ? uploadedFile(a) : undefined;
    },
    uploadLimit: (interaction.attachmentSizeLimit as number | undefined) ?? DEFAULT_ATTACHMENT_LIMIT,
  };
}

/**
 * The AutocompleteContext of an autocomplete request. Values of other options are raw (what the
 * user typed so far), so `string` returns any option's value as text.
 */
export function autocompleteContext(app: App, interaction: AutocompleteInteraction): AutocompleteContext {
  const focused = interaction.options.getFocused(true);
  return {
    app,
    userId: interaction.user.id,
    guildId: interaction.guildId ?? '',
    channelId: interaction.channelId,
    roleIds: memberRoleIds(interaction),
    subcommand: interaction.options.getSubcommand(false) ?? undefined,
    focused: { name: focused.name, value: String(focused.value) },
    string: (name) => {
      const value = interaction.options.get(name)?.value;
      return value === undefined || value === null ? undefined : String(value);
    },
  };
}
