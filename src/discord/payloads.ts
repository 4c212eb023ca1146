import { ActionRowBuilder, AttachmentBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { MessageButton, MessageFile } from '../app/messages.js';

/** Discord's cap on a message's content. */
const MAX_CONTENT = 2000;
const BUTTONS_PER_ROW = 5;
const MAX_ROWS = 5;
const MAX_LABEL = 80;

/**
 * Who a message may ping: nobody by what its text contains (`parse: []`: names are free text and
 * a `<@id>` or `@everyone` in a campaign, army or commander name must never ping), only the
 * users it is meant for.
 */
export interface AllowedMentions {
  parse: [];
  users?: string[];
}

/** What one Discord message send needs; files and buttons ride on the last part of a split. */
export interface DiscordPayload {
  content?: string;
  files?: AttachmentBuilder[];
  components?: ActionRowBuilder<ButtonBuilder>[];
  allowedMentions: AllowedMentions;
}

/** Nobody pinged, or exactly these users (when the text names them). */
export function allowedMentions(users: readonly string[] = []): AllowedMentions {
  return users.length > 0 ? { parse: [], users: [...new Set(users)].slice(0, 100) } : { parse: [] };
}

/** The transport-neutral parts of a message (a Message, or an outbox item). */
export interface MessageParts {
  readonly content: string;
  readonly files?: readonly MessageFile[] | undefined;
  readonly buttons?: readonly MessageButton[] | undefined;
  /** Users the message is meant to ping (an outbox item's `mentions`); nobody else is. */
  readonly mentions?: readonly string[] | undefined;
}

/**
 * Splits text into parts of at most `max` characters, preferring paragraph, then line, then word
 * boundaries, so a long chronicle or intel report arrives as several readable messages.
 */
export function splitContent(text: string, max = MAX_CONTENT): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf('\n\n');
    if (cut < max / 2) cut = window.lastIndexOf('\n');
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut <= 0) cut = max;
    // Never cut between the two halves of a surrogate pair (an emoji): a lone half is not text.
    const before = rest.charCodeAt(cut - 1);
    if (cut === max && before >= 0xd800 && before <= 0xdbff) cut--;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^\n+/, '').replace(/^ /, '');
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts.filter((p, i) => p.length > 0 || i === parts.length - 1);
}

const STYLES = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
} as const;

/** Buttons as action rows of five (Discord allows five rows). Throws on an invalid or repeated custom id. */
function buttonRows(buttons: readonly MessageButton[]): ActionRowBuilder<ButtonBuilder>[] {
  if (buttons.length > BUTTONS_PER_ROW * MAX_ROWS) {
    throw new Error(`a message can carry at most ${BUTTONS_PER_ROW * MAX_ROWS} buttons, got ${buttons.length}`);
  }
  const seen = new Set<string>();
  for (const b of buttons) {
    if (seen.has(b.id)) throw new Error(`the button id "${b.id}" is used twice in one message (Discord refuses it)`);
    seen.add(b.id);
  }
  const rows: ActionRowBuilder<ButtonBuilder>[] = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW) {
    const row = new ActionRowBuilder<ButtonBuilder>();
    for (const b of buttons.slice(i, i + BUTTONS_PER_ROW)) {
      const label = b.label.length > MAX_LABEL ? `${b.label.slice(0, MAX_LABEL - 1)}…` : b.label;
      row.addComponents(new ButtonBuilder().setCustomId(b.id).setLabel(label).setStyle(STYLES[b.style ?? 'primary']));
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The Discord messages needed to show one message: its content split under 2,000 characters,
 * files and buttons on the last part. Throws (a bug, not a Discord failure) when a button is
 * invalid.
 */
export function toDiscordPayloads(message: MessageParts): DiscordPayload[] {
  const files = (message.files ?? []).map((f) => new AttachmentBuilder(Buffer.from(f.data), { name: f.name }));
  // More buttons than one message holds (an army prompted in several contacts at once): the
  // rest follow in extra messages rather than the whole DM being refused and lost.
  const perMessage = BUTTONS_PER_ROW * MAX_ROWS;
  const buttons = message.buttons ?? [];
  const groups: ActionRowBuilder<ButtonBuilder>[][] = [];
  for (let i = 0; i < buttons.length; i += perMessage) groups.push(buttonRows(buttons.slice(i, i + perMessage)));
  const texts = splitContent(message.content);
  const mentions = message.mentions ?? [];
  const payloads = texts.map((text, i) => {
    const last = i === texts.length - 1;
    const payload: DiscordPayload = { allowedMentions: allowedMentions(mentions.filter((id) => text.includes(`<@${id}>`) || text.includes(`<@!${id}>`))) };
    if (text.length > 0) payload.content = text;
    if (last && files.length > 0) payload.files = files;
    if (last && groups[0]) payload.components = groups[0];
    // Discord refuses an empty message: a message with nothing at all says so.
    if (!payload.content && !payload.files && !payload.components) payload.content = '(no content)';
    return payload;
  });
  for (const rows of groups.slice(1)) payloads.push({ content: 'More choices:', components: rows, allowedMentions: allowedMentions() });
  return payloads;
}
