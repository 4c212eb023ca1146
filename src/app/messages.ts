import type { Hex } from '../engine/hex/index.js';
import type { BattlefieldSketch, MapView } from '../engine/views/index.js';

/**
 * What a use-case hands back for the transports to deliver. Transports only deliver; they never
 * decide content. A use-case's result is its answer to the command (`Reply`); DMs and channel
 * posts are never returned: they go through the outbox (`Outgoing`, src/app/deliveries/outgoing.ts) in the
 * use-case's own transaction.
 */
export interface MessageFile {
  /** File name shown to the user, e.g. "map-day3-afternoon.png". */
  readonly name: string;
  readonly data: Uint8Array;
}

/**
 * A button a user can press; `id` carries everything needed to act on it after a restart.
 * `command` is what typing it would be (`/avoid to:1016`), or what not answering means (`do
 * nothing`): a transport without buttons (the console) shows that instead of the label.
 */
export interface MessageButton {
  readonly id: string;
  readonly label: string;
  readonly style?: 'primary' | 'secondary' | 'success' | 'danger';
  readonly command?: string;
}

/** One labelled part of a card: a name and its text (Markdown; several lines allowed). */
export interface CardField {
  readonly name: string;
  readonly value: string;
  /** Short values that may sit side by side (Discord shows up to three in a row). */
  readonly inline?: boolean;
}

/**
 * A card: a titled, structured message part, transport-neutral. Discord shows it as an embed
 * (fields, colour stripe, footer); the console prints it as indented text. `colour` is the side's
 * colour (`#rrggbb`) when the card is about one side's army. Times are written as Discord
 * timestamps (`<t:unix:f>`, see format.ts); a transport that cannot show them turns them into the
 * reader's local time.
 */
export interface Card {
  readonly title: string;
  readonly colour?: string;
  readonly description?: string;
  readonly fields?: readonly CardField[];
  readonly footer?: string;
}

/**
 * The answer to a command: public in the channel (`reply`) or seen only by the caller
 * (`ephemeral`). `update` (button presses only) replaces the message whose button was pressed:
 * its text says what was chosen, and its buttons are shown disabled.
 */
export interface Reply {
  readonly to: 'reply' | 'ephemeral' | 'update';
  /** The text; with cards, a short headline (what a notification or a reader without cards sees). */
  readonly content: string;
  /** The structured data the text was rendered from. */
  readonly data?: unknown;
  readonly files?: readonly MessageFile[];
  readonly cards?: readonly Card[];
  readonly buttons?: readonly MessageButton[];
  /** An update settles the buttons whose ids start with this (others on the message stay); none: all. */
  readonly settles?: string;
}

export const reply = (content: string, data?: unknown, files?: MessageFile[]): Reply => ({ to: 'reply', content, data, ...(files ? { files } : {}) });
export const ephemeral = (content: string, data?: unknown, files?: MessageFile[]): Reply => ({ to: 'ephemeral', content, data, ...(files ? { files } : {}) });

/** The same answer with cards (and buttons) added. */
export function withCards(r: Reply, cards: readonly Card[], buttons?: readonly MessageButton[]): Reply {
  return { ...r, cards: [...(r.cards ?? []), ...cards], ...(buttons && buttons.length > 0 ? { buttons: [...(r.buttons ?? []), ...buttons] } : {}) };
}

/**
 * A card as plain text (Markdown kept): the title in bold, the description, then each field as
 * "**name**: value" (a value of several lines goes under its name). What a transport without
 * cards prints, and what a kept DM reads like in /intel.
 */
export function cardText(card: Card): string {
  return [`**${card.title}**`, cardBody(card)].filter((t) => t.length > 0).join('\n');
}

/** A card's text without its title (the web page's referee inbox, under a heading of its own). */
export function cardBody(card: Card): string {
  const lines: string[] = [];
  if (card.description) lines.push(card.description);
  for (const f of card.fields ?? []) {
    lines.push(f.value.includes('\n') ? `**${f.name}**\n${f.value}` : `**${f.name}**: ${f.value}`);
  }
  if (card.footer) lines.push(`_${card.footer}_`);
  return lines.join('\n');
}

/** A message's whole text: its content, then its cards as text. */
export function messageText(m: { readonly content: string; readonly cards?: readonly Card[] | undefined }): string {
  return [m.content, ...(m.cards ?? []).map(cardText)].filter((t) => t.length > 0).join('\n');
}

/** How a map picture is drawn (the renderer's options, as plain data). */
export interface MapPictureOptions {
  readonly title: { readonly campaign: string; readonly time: string; readonly weather: string };
  readonly hexIds?: 'all' | 'subset' | 'none';
  readonly labels?: boolean;
  readonly around?: Hex;
  readonly radius?: number;
}

/**
 * A picture to deliver, as the view to draw (small JSON): the delivery worker draws and encodes it
 * at send time, so no image bytes are stored and a crash between a commit and a send loses none.
 * A map is drawn on its campaign's map.
 */
export type Picture =
  | { readonly kind: 'map'; readonly name: string; readonly view: MapView; readonly options: MapPictureOptions }
  | { readonly kind: 'sketch'; readonly name: string; readonly sketch: BattlefieldSketch };
