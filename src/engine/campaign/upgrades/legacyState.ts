import type { Army, MarchState } from '../../forces/index.js';
import type { Hex } from '../../hex/index.js';
import type { Assembly, CampaignState, ContactData, ContactRecord, FleetState, OrderGiven } from '../../state/index.js';

/**
 * The campaign state as it was stored before its parts had exact types (issue 18): the shapes
 * the upgrade steps in this folder read. Only the parts that changed differ from CampaignState.
 */

/**
 * The march books with a log of one letter per half period, oldest first (m moved, w worked,
 * r rested, b battle), and the reason for fatigue as the sentence status showed.
 */
export type LegacyMarchState = Omit<MarchState, 'recentHalves' | 'fatigueReason'> & { readonly recentHalves: string; readonly fatigueReason?: string };

export type LegacyArmy = Omit<Army, 'march'> & { readonly march: LegacyMarchState };

/**
 * One wide order for every kind: sail and debark orders filled `path: [], forced: false, ...` and
 * carried their fleet or their assembly in `extra`. 'hold', 'embark' and 'operation' were
 * declared but never written.
 */
export interface LegacyOrder extends OrderGiven {
  readonly kind: 'move' | 'rest' | 'hold' | 'sail' | 'embark' | 'debark' | 'operation';
  readonly period: 'day' | 'night' | 'split';
  readonly path: readonly Hex[];
  readonly forced: boolean;
  readonly unformed: boolean;
  readonly save: boolean;
  readonly crossAtEnd?: boolean;
  readonly crossings?: readonly { readonly hex: Hex; readonly method: string }[];
  readonly extra?: { readonly fleet?: FleetState; readonly assembly?: Assembly };
}

/** A contact whose data could hold `joined` (newcomers, written by the movement rules, never read). */
export type LegacyContactRecord = Omit<ContactRecord, 'step' | 'data'> & {
  readonly step: string;
  readonly data: ContactData & { readonly joined?: readonly string[] };
};

export type LegacyState = Omit<CampaignState, 'armies' | 'orders' | 'contacts'> & {
  readonly armies: Readonly<Record<string, LegacyArmy>>;
  readonly orders: Readonly<Record<string, LegacyOrder>>;
  readonly contacts: Readonly<Record<string, LegacyContactRecord>>;
};
