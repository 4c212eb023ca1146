import type { GameTime } from '../clock/index.js';
import type { Hex } from '../hex/index.js';
import type { Bank } from '../map/index.js';

/**
 * The water rules' parts of the campaign state: couriers on their way, and the fleet an embarked
 * army rides (its vessels by kind). The water rules (src/engine/water) write them.
 */

/** What this module keeps in CourierRecord.data. */
export interface CourierData {
  readonly horse: boolean;
  /** Rides in the night period (the sender's folk are nocturnal), else by day. */
  readonly night: boolean;
  /** Points carried over within the riding period. */
  readonly carry: number;
  readonly bank?: Bank;
  /** Army whose fleet carries the courier. */
  readonly aboard?: string;
  /** timeIndex by which the courier should have arrived (for the sender's "not arrived" notice). */
  readonly expectedBy: number;
  readonly senderTold?: boolean;
  /** The captor; absent on a captured courier that was lost (in fog, its recipient was destroyed unbeknown to the sender). */
  readonly capturedBy?: string;
  readonly receivedAt?: GameTime;
  /** Hex key where the courier already survived a stop among enemies. */
  readonly safeAt?: string;
  /** Hexes ridden through, for the sender's own view. */
  readonly trail: readonly string[];
  /** Fog of war: where the sender knew the recipient to be; the courier rides there first, then on its trail. */
  readonly seek?: Hex;
  readonly waiting?: boolean;
  /** A ferry or raft crossing under way: the half period (timeIndex) it is done, and the far bank. */
  readonly crossing?: { readonly hex: string; readonly until: number; readonly bank?: Bank };
}

/** A courier on the map (or delivered, or captured), with its message. Only its sender sees it. */
export interface CourierRecord {
  readonly id: string;
  readonly fromArmy: string;
  readonly toArmy: string;
  readonly side: string;
  readonly hex: Hex;
  readonly message: string;
  readonly sentAt: GameTime;
  readonly status: 'travelling' | 'delivered' | 'captured';
  readonly data: CourierData;
}

/**
 * The fleet an embarked army rides, kept in its standing sail order (an embarked army always has
 * one; its path is empty while the fleet lies at anchor).
 */
export interface FleetState {
  readonly vessels: VesselCounts;
  /** Regiments aboard (ids). */
  readonly regiments: readonly string[];
  /** Regiments left at the embarkation hex (too few vessels); they follow by shuttle. */
  readonly ashore: readonly string[];
  /** Hex id where the army embarked. */
  readonly embarkedFrom: string;
  /** timeIndex of the half period of embarkation. */
  readonly embarkedAt: number;
  /** Escort galleys lost to the open sea for this voyage. */
  readonly escortLost: boolean;
  /** Points carried over within the current day (fractions of a hex). */
  readonly carry: number;
  /** Day the carry belongs to. */
  readonly carryDay: number;
  /** Half periods still to wait before sailing (advanced embarkation: the tide). */
  readonly waitHalves: number;
  /** Hostile armies in sight, as of the last half period (contacts at sea are reported once). */
  readonly sighted: readonly string[];
}

export const VESSEL_KINDS = ['galley', 'longship', 'riverBoat', 'sailingShip', 'troopTransport'] as const;

export type VesselKind = (typeof VESSEL_KINDS)[number];

export type VesselCounts = Readonly<Partial<Record<VesselKind, number>>>;
