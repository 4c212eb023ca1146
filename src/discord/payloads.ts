import { ActionRowBuilder, AttachmentBuilder, ButtonBuilder, ButtonStyle, type APIEmbed, type APIEmbedField } from 'discord.js';
import type { Card, MessageButton, MessageFile } from '../app/messages.js';

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
  embeds?: APIEmbed[];
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
  readonly cards?: readonly Card[] | undefined;
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

/** Discord's embed limits (what it refuses beyond). */
const EMBED = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, total: 6000, perMessage: 10 } as const;

/** Cuts text to `max` characters, ending with an ellipsis when cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Splits a field's value into values of at most 1,024 characters, at line ends where it can. */
function fieldValues(value: string): string[] {
  const text = value.trim().length > 0 ? value : '—';
  return splitContent(text, EMBED.fieldValue).map((v) => (v.length > 0 ? v : '—'));
}

/** The characters Discord counts towards an embed's 6,000. */
function embedSize(e: APIEmbed): number {
  return (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0)
    + (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
}

/**
 * One card as embeds within Discord's limits: the title cut to 256 characters, a long
 * description split over embeds, a field value over 1,024 characters split into several fields
 * ("name (continued)"), more than 25 fields (or more than fit in 6,000 characters) continued in
 * another embed of the same colour.
 */
export function cardEmbeds(card: Card): APIEmbed[] {
  const colour = card.colour && /^#[0-9a-f]{6}$/i.test(card.colour) ? Number.parseInt(card.colour.slice(1), 16) : undefined;
  const title = cut(card.title, EMBED.title);
  const budget = EMBED.total - 200;
  const out: APIEmbed[] = [];
  let current: APIEmbed = { title, ...(colour !== undefined ? { color: colour } : {}) };
  const next = (): APIEmbed => {
    out.push(current);
    current = { title: cut(`${card.title} (continued)`, EMBED.title), ...(colour !== undefined ? { color: colour } : {}) };
    return current;
  };
  const descriptions = card.description ? splitContent(card.description, EMBED.description) : [];
  descriptions.forEach((d, i) => {
    if (i > 0) next();
    current.description = d;
  });
  const fields: APIEmbedField[] = (card.fields ?? []).flatMap((f) => {
    const name = cut(f.name.trim().length > 0 ? f.name : '—', EMBED.fieldName - 12);
    return fieldValues(f.value).map((value, i) => ({ name: i === 0 ? name : `${name} (continued)`, value, ...(f.inline ? { inline: true } : {}) }));
  });
  for (const f of fields) {
    const have = current.fields ?? [];
    if (have.length >= EMBED.fields || embedSize(current) + f.name.length + f.value.length > budget) next();
    current.fields = [...(current.fields ?? []), f];
  }
  if (card.footer) {
    const footer = cut(card.footer, EMBED.footer);
    if (embedSize(current) + footer.length > budget) next();
    current.footer = { text: footer };
  }
  out.push(current);
  return out;
}

/** Embeds grouped by message: at most 10 a message and 6,000 characters in all. */
function embedGroups(cards: readonly Card[]): APIEmbed[][] {
  const groups: APIEmbed[][] = [];
  let group: APIEmbed[] = [];
  let size = 0;
  for (const e of cards.flatMap(cardEmbeds)) {
    const n = embedSize(e);
    if (group.length > 0 && (group.length >= EMBED.perMessage || size + n > EMBED.total)) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(e);
    size += n;
  }
  if (group.length > 0) groups.push(group);
  return groups;
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
 * The Discord messages needed to show one message: its content split under 2,000 characters, its
 * cards as embeds (after the content, in as many messages as Discord's limits need), files and
 * buttons on the last part. Throws (a bug, not a Discord failure) when a button is invalid.
 */
export function toDiscordPayloads(message: MessageParts): DiscordPayload[] {
  // A view on the picture's bytes, not a copy (src/app/pictures.ts).
  const files = (message.files ?? []).map((f) => new AttachmentBuilder(Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength), { name: f.name }));
  // More buttons than one message holds (an army prompted in several contacts at once): the
  // rest follow in extra messages rather than the whole DM being refused and lost.
  const perMessage = BUTTONS_PER_ROW * MAX_ROWS;
  const buttons = message.buttons ?? [];
  const groups: ActionRowBuilder<ButtonBuilder>[][] = [];
  for (let i = 0; i < buttons.length; i += perMessage) groups.push(buttonRows(buttons.slice(i, i + perMessage)));
  const embeds = embedGroups(message.cards ?? []);
  const texts = splitContent(message.content);
  // The first embeds ride with the last part of the text; more go in messages of their own.
  const parts: { text: string; embeds?: APIEmbed[] }[] = texts.map((text) => ({ text }));
  embeds.forEach((group, i) => {
    const lastPart = parts[parts.length - 1];
    if (i === 0 && lastPart) lastPart.embeds = group;
    else parts.push({ text: '', embeds: group });
  });
  const mentions = message.mentions ?? [];
  const payloads = parts.map(({ text, embeds: group }, i) => {
    const last = i === parts.length - 1;
    const payload: DiscordPayload = { allowedMentions: allowedMentions(mentions.filter((id) => text.includes(`<@${id}>`) || text.includes(`<@!${id}>`))) };
    if (text.length > 0) payload.content = text;
    if (group && group.length > 0) payload.embeds = group;
    if (last && files.length > 0) payload.files = files;
    if (last && groups[0]) payload.components = groups[0];
    // Discord refuses an empty message: a message with nothing at all says so.
    if (!payload.content && !payload.files && !payload.components && !payload.embeds) payload.content = '(no content)';
    return payload;
  });
  for (const rows of groups.slice(1)) payloads.push({ content: 'More choices:', components: rows, allowedMentions: allowedMentions() });
  return payloads;
}
