/**
 * What a use-case hands back for the transports to deliver. Transports only deliver; they never
 * decide content.
 * - reply: a public answer to the command in the channel
 * - ephemeral: a private answer only the caller sees
 * - dm: a direct message to one user (through the outbox)
 * - channel: a post in the campaign channel (through the outbox)
 */
export type MessageTo = 'reply' | 'ephemeral' | 'dm' | 'channel';

export interface MessageFile {
  /** File name shown to the user, e.g. "map-day3-afternoon.png". */
  readonly name: string;
  readonly data: Uint8Array;
}

/** A button a user can press; `id` carries everything needed to act on it after a restart. */
export interface MessageButton {
  readonly id: string;
  readonly label: string;
  readonly style?: 'primary' | 'secondary' | 'success' | 'danger';
}

export interface Message {
  readonly to: MessageTo;
  /** Recipient for dm (user id). */
  readonly userId?: string;
  /** Channel for channel posts. */
  readonly channelId?: string;
  readonly content: string;
  /** The structured data the text was rendered from. */
  readonly data?: unknown;
  readonly files?: readonly MessageFile[];
  readonly buttons?: readonly MessageButton[];
}

export const reply = (content: string, data?: unknown, files?: MessageFile[]): Message => ({ to: 'reply', content, data, ...(files ? { files } : {}) });
export const ephemeral = (content: string, data?: unknown, files?: MessageFile[]): Message => ({ to: 'ephemeral', content, data, ...(files ? { files } : {}) });
