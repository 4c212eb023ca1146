import type { Hex } from '../engine/hex/index.js';
import type { BattlefieldSketch, MapView } from '../engine/views/index.js';

/**
 * What a use-case hands back for the transports to deliver. Transports only deliver; they never
 * decide content. A use-case's result is its answer to the command (`Reply`); DMs and channel
 * posts are never returned: they go through the outbox (`Outgoing` in session.ts) in the
 * use-case's own transaction.
 */
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

/** The answer to a command: public in the channel (`reply`) or seen only by the caller (`ephemeral`). */
export interface Reply {
  readonly to: 'reply' | 'ephemeral';
  readonly content: string;
  /** The structured data the text was rendered from. */
  readonly data?: unknown;
  readonly files?: readonly MessageFile[];
}

export const reply = (content: string, data?: unknown, files?: MessageFile[]): Reply => ({ to: 'reply', content, data, ...(files ? { files } : {}) });
export const ephemeral = (content: string, data?: unknown, files?: MessageFile[]): Reply => ({ to: 'ephemeral', content, data, ...(files ? { files } : {}) });

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
