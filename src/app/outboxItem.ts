import type { OutboxRow } from '../db/outboxRepo.js';
import type { App } from './app.js';
import type { Card, MessageButton, MessageFile, Picture } from './messages.js';
import { paint } from './pictures.js';

/** A message ready for a transport to deliver: a DM or a channel post, its pictures drawn. */
export interface OutboxItem {
  readonly id: number;
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly userId?: string;
  readonly channelId?: string;
  /** The text; with cards, a short headline. */
  readonly content: string;
  readonly cards?: readonly Card[];
  readonly data?: unknown;
  readonly buttons?: readonly MessageButton[];
  /** Users the message is meant to ping (a transport pings nobody else). */
  readonly mentions: readonly string[];
  readonly files: readonly MessageFile[];
  readonly attempts: number;
  /** Parts of a split message already delivered by an earlier attempt: send only the rest. */
  readonly partsSent: number;
  /** Stable id of the item: with the part number, the nonce that makes a repeated send harmless. */
  readonly nonce: string;
}

/** What a transport gets besides the item. */
export interface DeliveryContext {
  /** Call after part `index` (0-based) of the item went out, so a retry starts after it. */
  partSent(index: number): void;
  /** Aborted when the process shuts down: give up waiting (the item stays pending). */
  readonly signal: AbortSignal;
}

export type DeliveryResult = 'sent' | 'dmClosed' | 'retry' | 'permanent';
/**
 * A transport may say why a delivery failed (kept for the referee), and for a rate limit how long
 * to wait before this item is tried again (other items keep flowing meanwhile).
 */
export type DeliveryOutcome = DeliveryResult | {
  readonly result: DeliveryResult;
  readonly reason?: string;
  readonly retryAfterMs?: number;
  /** The permission the bot lacks in the channel, as the platform names it (the referee's notice says which). */
  readonly missingPermission?: string;
  /**
   * A refusal for missing permissions that the bot's live permissions in the channel do not
   * explain: the permissions it does hold there (the notice says so instead of guessing).
   */
  readonly permissionsHeld?: readonly string[];
};

/** What a transport does with an item. */
export type Deliver = (item: OutboxItem, ctx: DeliveryContext) => Promise<DeliveryOutcome>;

/** Cards as stored (the app's own JSON). */
function cardsOf(row: OutboxRow): readonly Card[] {
  return Array.isArray(row.cards) ? (row.cards as Card[]) : [];
}

/** Pictures as stored (the app's own JSON). */
export function picturesOf(row: OutboxRow): readonly Picture[] {
  return Array.isArray(row.pictures) ? (row.pictures as Picture[]) : [];
}

/** A claimed row as a transport gets it: its stored cards and buttons read, its pictures drawn. */
export async function toItem(app: App, r: OutboxRow): Promise<OutboxItem> {
  const drawn: MessageFile[] = [];
  for (const p of picturesOf(r)) drawn.push(await paint(app, r.campaignId, p));
  const legacy = (r.legacyFiles ?? []).map((f) => ({ name: f.name, data: new Uint8Array(Buffer.from(f.base64, 'base64')) }));
  return {
    id: r.id,
    campaignId: r.campaignId,
    to: r.to,
    ...(r.userId ? { userId: r.userId } : {}),
    ...(r.channelId ? { channelId: r.channelId } : {}),
    content: r.content,
    ...(cardsOf(r).length > 0 ? { cards: cardsOf(r) } : {}),
    data: r.data,
    ...(r.buttons ? { buttons: r.buttons.map((b) => ({ id: b.id, label: b.label, ...(b.style ? { style: b.style as MessageButton['style'] } : {}), ...(b.command ? { command: b.command } : {}) })) } : {}),
    mentions: r.mentions ?? [],
    files: [...legacy, ...drawn],
    attempts: r.attempts,
    partsSent: r.partsSent,
    nonce: r.nonce,
  };
}
