import type { Card, MessageButton, Picture } from '../messages.js';

/**
 * A DM or channel post a use-case wants delivered after commit. Pictures travel as views, drawn
 * at send time. `mentions` names the users the message is meant to ping (nothing else in it
 * ever pings: names are free text). `dedupeKey` makes it idempotent (queued once whatever calls it).
 */
export interface OutgoingBase {
  /** The text; with cards, a short headline (what a notification shows). */
  readonly content: string;
  readonly cards?: readonly Card[];
  readonly data?: unknown;
  readonly pictures?: readonly Picture[];
  readonly mentions?: readonly string[];
  readonly dedupeKey?: string;
}
export type Outgoing =
  | (OutgoingBase & { readonly to: 'dm'; readonly userId: string; readonly buttons?: readonly MessageButton[] })
  | (OutgoingBase & { readonly to: 'channel' });
