import type { GameTime, HalfPeriod } from '../clock/index.js';
import type { ArmyAudience, Fact, PublicAudience, RefereeAudience, Told } from '../events/index.js';
import type { Violation } from '../result.js';
import type { VesselCounts } from '../state/index.js';

/**
 * What the waterborne rules and the couriers report, as typed facts (hexes as map ids). Their
 * sentences are written by describeWater. Couriers never appear in public facts.
 * @see 000 Waterborne Transport; 000 Overland Travel: Courier
 */

/** A regiment taken aboard or left ashore. */
export type LoadedRegiment = { readonly id: string; readonly name: string; readonly figures: number };

/** Something more the commander of a landing or boarding army is told. */
export type LandingNote =
  | { readonly kind: 'embarkCost'; readonly points: number }
  | { readonly kind: 'tide' }
  | { readonly kind: 'debarkCost'; readonly points: number }
  | { readonly kind: 'escortRejoins' }
  | { readonly kind: 'awaiting'; readonly lastArrives: GameTime };

/** Why a fleet did not sail on, or what befell it, for its commander. */
export type FleetNote =
  | { readonly kind: 'tide' }
  | { readonly kind: 'night' }
  | { readonly kind: 'calm' }
  | { readonly kind: 'gale' }
  | { readonly kind: 'portClosed'; readonly hex: string }
  | { readonly kind: 'occupied'; readonly hex: string; readonly by: string }
  | { readonly kind: 'cancelled'; readonly violation: Violation }
  | { readonly kind: 'escortLost' };

/** How a courier sets out: with the fleet, on horseback or on foot. */
export type CourierGoes = 'fleet' | 'horse' | 'foot';

export type CourierFact =
  | Fact<'courierSent', { readonly courierId: string; readonly to: string; readonly from: string; readonly goes: CourierGoes }, ArmyAudience>
  | Fact<'courierSent', { readonly courierId: string; readonly fromArmy: string; readonly toArmy: string; readonly from: string; readonly message: string }, RefereeAudience>
  | Fact<'courierDelivered', { readonly courierId: string; readonly from: string; readonly at: string; readonly sentAt: GameTime; readonly receivedAt: GameTime; readonly message: string }, ArmyAudience>
  | Fact<'courierDelivered', { readonly courierId: string; readonly toArmy: string; readonly hex: string }, RefereeAudience>
  | Fact<'courierCaptured', { readonly courierId: string; readonly from: string; readonly to: string; readonly hex: string; readonly sentAt: GameTime; readonly message: string }, ArmyAudience>
  | Fact<'courierCaptured', { readonly courierId: string; readonly fromArmy: string; readonly toArmy: string; readonly by: string; readonly hex: string; readonly when: 'passing' | 'stopping'; readonly roll: number }, RefereeAudience>
  | Fact<'courierOverdue', { readonly courierId: string; readonly to: string; readonly sentAt: GameTime; readonly dueBy: GameTime }, ArmyAudience>
  | Fact<'courierReturned', { readonly courierId: string; readonly to: string }, ArmyAudience>
  | Fact<'courierWaiting', { readonly courierId: string; readonly to: string; readonly toHex?: string; readonly at: string }, ArmyAudience>
  | Fact<'courierEscaped', { readonly courierId: string; readonly hex: string; readonly roll: number }, RefereeAudience>;

export type FleetFact =
  | Fact<'armyEmbarked', { readonly armyId: string; readonly hex: string; readonly port?: string }, PublicAudience>
  | Fact<'armyEmbarked', { readonly armyId: string; readonly hex: string; readonly vessels: VesselCounts; readonly aboard: readonly LoadedRegiment[]; readonly ashore: readonly LoadedRegiment[]; readonly notes: readonly LandingNote[] }, ArmyAudience>
  | Fact<'armyDebarked', { readonly armyId: string; readonly hex: string; readonly port?: string }, PublicAudience>
  | Fact<'armyDebarked', { readonly armyId: string; readonly hex: string; readonly notes: readonly LandingNote[] }, ArmyAudience>
  | Fact<'fleetStopped', { readonly armyId: string; readonly hex: string; readonly berth: FleetBerth; readonly cancelled: readonly string[]; readonly time: GameTime; readonly byReferee: boolean }, ArmyAudience>
  | Fact<'armyAssembled', { readonly armyId: string; readonly port: string }, PublicAudience>
  | Fact<'regimentsLanded', { readonly armyId: string; readonly port: string; readonly regiments: readonly string[]; readonly assembled: true }, ArmyAudience>
  | Fact<'regimentsLanded', { readonly armyId: string; readonly port: string; readonly regiments: readonly string[]; readonly assembled: false; readonly tripsLeft: number; readonly lastArrives: GameTime }, ArmyAudience>
  | Fact<'fleetSailed', { readonly armyId: string; readonly from: string; readonly to: string; readonly path: readonly string[] }, PublicAudience>
  | Fact<'fleetOutcome', { readonly armyId: string; readonly half: HalfPeriod; readonly hex: string; readonly sailed: boolean; readonly arrived: boolean; readonly notes: readonly FleetNote[] }, ArmyAudience>
  | Fact<'fleetSighted', { readonly armyIds: readonly [string, string]; readonly hexes: readonly [string, string]; readonly otherAfloat: boolean }, PublicAudience>
  | Fact<'fleetSighted', { readonly armyIds: readonly [string, string]; readonly hexes: readonly [string, string]; readonly vessels: VesselCounts }, RefereeAudience>;

export type WaterFact = CourierFact | FleetFact;

export type WaterEvent = Told<WaterFact>;

/**
 * How a fleet lies when it is not under way:
 * - `docked`: in a port (a land port hex, or a coast hex with a port);
 * - `river`: drawn up on the bank of a navigable river (river boats, longships);
 * - `beach`: off the beach of the land hex where the army embarked (longships and galleys
 *   beached, sailing ships offshore);
 * - `beached`: on a coast hex, longships and galleys drawn up on the shore;
 * - `offshore`: on a coast hex, sailing ships at anchor offshore;
 * - `channel`: on a coast hex with a channel, troop transports at anchor in it;
 * - `atSea`: hove to in coastal waters, out of reach of the shore;
 * - `openSea`: hove to in the open sea, out of sight of land.
 */
export type BerthKind = 'docked' | 'river' | 'beach' | 'beached' | 'offshore' | 'channel' | 'atSea' | 'openSea';

/** Where a fleet lies still, and what the describer needs to say where and how the army may land. */
export type FleetBerth = {
  readonly kind: BerthKind;
  readonly hex: string;
  /** The port's name (docked). */
  readonly port?: string;
  /** Docked in a port on a land hex (not a coast hex with a port). */
  readonly landPort?: boolean;
  /** The river's name (river). */
  readonly river?: string;
  /** The beach is where the army embarked. */
  readonly whereEmbarked?: boolean;
};
