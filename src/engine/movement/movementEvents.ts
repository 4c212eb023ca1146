import type { HalfPeriod } from '../clock/index.js';
import type { ArmyAudience, Fact, PublicAudience, RefereeAudience, Told } from '../events/index.js';
import type { FatigueReason } from '../forces/index.js';
import type { Violation } from '../result.js';
import type { TieBreak } from './contest.js';
import type { CrossingMethod } from '../state/index.js';

/**
 * What the movement rules report, as typed facts (hexes as map ids). Their sentences are written
 * by describeMovement.
 * @see 000 Strategic Movement; 000 Overland Travel; RULINGS 2-4
 */

/** A river crossed on the way: how, and where. */
export interface RiverCrossing {
  readonly method: CrossingMethod;
  readonly hex: string;
}

/** Why an army stopped, or what else befell its march in a half period, for its commander. */
export type MarchNote =
  | { readonly kind: 'stragglersLeft'; readonly figures: number; readonly at: string }
  | { readonly kind: 'crossingBegun'; readonly method: 'ferry' | 'rafts'; readonly at: string; readonly days: number }
  | { readonly kind: 'orderCancelled'; readonly violation: Violation }
  | { readonly kind: 'crossingChanged'; readonly method: CrossingMethod }
  | { readonly kind: 'haltedByContact'; readonly mayGoOn: boolean }
  | { readonly kind: 'haltedOccupied'; readonly at: string; readonly blockedAt: string; readonly cancelled: boolean }
  | { readonly kind: 'lostContest'; readonly at: string; readonly contested: string }
  | { readonly kind: 'waitingToPass'; readonly at: string; readonly through: string };

export type MovementFact =
  | Fact<'armyMoved', { readonly armyId: string; readonly from: string; readonly to: string; readonly path: readonly string[]; readonly crossings: readonly RiverCrossing[] }, PublicAudience>
  | Fact<'movementOutcome', {
    readonly armyId: string;
    readonly half: HalfPeriod;
    /** Where it stood before the half period, and where it stands after. */
    readonly from: string;
    readonly hex: string;
    /** Entered a hex, only crossed a river, or stayed. */
    readonly moved: 'marched' | 'crossed' | 'stayed';
    readonly pointsLeft: number;
    readonly allowance: number;
    readonly notes: readonly MarchNote[];
  }, ArmyAudience>
  | Fact<'armyBlocked', { readonly armyId: string; readonly hex: string; readonly blockedAt: string; readonly reason: 'occupied'; readonly by: string }, PublicAudience>
  | Fact<'armyBlocked', { readonly armyId: string; readonly hex: string; readonly blockedAt: string; readonly reason: 'contested' }, PublicAudience>
  | Fact<'passageDisordered', { readonly armyId: string; readonly allyIds: readonly string[]; readonly hex: string }, PublicAudience>
  | Fact<'crossingStarted', { readonly armyId: string; readonly hex: string; readonly kind: 'ferry' | 'rafts' }, PublicAudience>
  | Fact<'armyFatigued', { readonly armyId: string; readonly reason: FatigueReason; /** What recovers it, under the campaign's profile. */ readonly recovery?: string }, ArmyAudience>
  | Fact<'hexContested', { readonly hex: string; readonly half: HalfPeriod; readonly ranking: readonly string[] }, PublicAudience>
  | Fact<'hexContestDecided', { readonly hex: string; readonly ranking: readonly string[]; readonly decidedBy: TieBreak }, RefereeAudience>
  | Fact<'hexContested', {
    readonly hex: string;
    readonly contenders: readonly { readonly armyId: string; readonly figures: number; readonly pointsLeft: number; readonly dailyPoints: number }[];
    readonly rolls: Readonly<Record<string, readonly number[]>>;
  }, RefereeAudience>
  /** `standing`: a standoff's next round, with the same forces or with forces that changed. */
  | Fact<'contactMade', { readonly contactId: string; readonly armyIds: readonly string[]; readonly near: string; readonly standing?: 'same' | 'changed' }, PublicAudience>
  /**
   * A standoff with no next round: its forces (nobody pressed the contact, fight on the morrow) no
   * longer face each other when the next half period begins (one marched away, or was destroyed).
   * It names the forces that faced each other, never where they are now.
   */
  | Fact<'contactParted', { readonly contactId: string; readonly armyIds: readonly string[] }, PublicAudience>
  | Fact<'stragglersLost', { readonly armyId: string; readonly percent: number; readonly figures: number }, ArmyAudience>
  | Fact<'armyReformed', { readonly armyId: string; readonly hex: string }, PublicAudience>
  | Fact<'stragglersRejoined', { readonly armyId: string; readonly hex: string; readonly percent: number; readonly figures: number; readonly stillOut: number }, ArmyAudience>
  | Fact<'fatigueRecovered', { readonly armyId: string }, ArmyAudience>
  | Fact<'machinesReady', { readonly armyId: string; readonly state: 'assembled' | 'disassembled' }, ArmyAudience>
  | Fact<'machinesOrdered', { readonly armyId: string; readonly to: 'assembled' | 'disassembled'; readonly readyDay: number }, ArmyAudience>
  | Fact<'armySplit', { readonly armyId: string; readonly divisionId: string; readonly hex: string }, PublicAudience>
  | Fact<'armiesMerged', { readonly armyId: string; readonly intoId: string; readonly hex: string }, PublicAudience>
  | Fact<'raftsFailed', { readonly armyId: string; readonly hex: string }, PublicAudience>
  | Fact<'raftsFailed', { readonly armyId: string; readonly hex: string; readonly roll: number }, ArmyAudience>
  | Fact<'timberFound', { readonly armyId: string; readonly hex: string; readonly roll: number }, ArmyAudience>
  | Fact<'riverCrossed', { readonly armyId: string; readonly hex: string; readonly method: 'ferry' | 'rafts' }, PublicAudience>
  | Fact<'riverCrossed', { readonly armyId: string; readonly hex: string }, ArmyAudience>;

export type MovementEvent = Told<MovementFact>;
