import type { ArmyAudience, Fact, PublicAudience, RefereeAudience, Told } from '../events/index.js';
import type { Violation } from '../result.js';
import type { PublicConditions } from './battleConditions.js';
import type { AppliedModifier, ContactDie, DealtCard, DeploymentBriefing, DisengagementOutcome, DisengageOperation, Estimate, ForceCondition, ForceTruth, ScoutOutcome, TerrainCard } from '../state/index.js';

/** How a side left the field: formed in good order, in retreat or in rout. */
export type WithdrawalCondition = 'formed' | 'retreat' | 'rout';

/** What the referee records after a tabletop battle. */
export interface BattleResult {
  /** Figures lost per regiment id, per army. */
  readonly losses: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Sides that withdrew and how: formed in good order, in retreat or in rout. */
  readonly withdrawals?: readonly { readonly armyId: string; readonly condition: WithdrawalCondition }[];
  /** Armies ordering an aggressive pursuit (a maneuver action). */
  readonly pursuers?: readonly string[];
}

/**
 * What the contact rules report, as typed facts (hexes as map ids). Numbers (dice, strengths,
 * estimates) only travel on facts for the army concerned or the referee; public facts name
 * forces and hexes. Their sentences are written by describeContact.
 * @see 001 Contact and Deployment; RULINGS 5 and 6
 */

/** A deployment briefing as the channel sees it: the modifiers' reasons are contact-dice secrets. */
export type PublicBriefing = Omit<DeploymentBriefing, 'entries'> & { readonly entries: readonly Omit<DeploymentBriefing['entries'][number], 'modifiers'>[] };

/** A regiment's strength after a battle, for its commander. */
export type RegimentAfter = { readonly name: string; readonly figures: number; readonly strength: number };

export type ContactFact =
  | Fact<'contactMade', { readonly how: 'opened'; readonly contactId: string; readonly armyIds: readonly string[]; readonly hexes: readonly string[] }, PublicAudience>
  | Fact<'contactMade', { readonly how: 'exploitJoined'; readonly contactId: string; readonly armyIds: readonly string[]; readonly armyId: string }, PublicAudience>
  | Fact<'contactMade', { readonly how: 'forcedJoined'; readonly contactId: string; readonly armyIds: readonly string[]; readonly newcomers: readonly { readonly armyId: string; readonly hex: string }[]; readonly forcedBy: string }, PublicAudience>
  | Fact<'forceDisengaged', { readonly armyId: string; readonly operation: 'avoid' | 'delay'; readonly opposed: false }, PublicAudience>
  | Fact<'forceDisengaged', { readonly armyId: string; readonly operation: DisengageOperation; readonly opposed: true; readonly to?: string }, PublicAudience>
  | Fact<'armyAvoided', { readonly armyId: string; readonly to: string }, PublicAudience>
  | Fact<'avoidForcedMarch', { readonly armyId: string; readonly to: string; readonly day: number; readonly noRestOwed?: true }, ArmyAudience>
  | Fact<'avoidBlocked', { readonly armyId: string; readonly to: string; readonly violation: Violation }, ArmyAudience>
  | Fact<'contactMoveNoted', { readonly armyId: string; readonly to: string; readonly becameUnformed: boolean; readonly stragglersLost: number; readonly rallyPoint: string }, ArmyAudience>
  /** `again`: the same forces deferred the round before too (a standoff going on, which the chronicle says once). */
  | Fact<'contactDeferred', { readonly contactId: string; readonly armyIds: readonly string[]; readonly again?: true }, PublicAudience>
  | Fact<'scoutsReturned', { readonly contactId: string; readonly scouts: readonly ScoutOutcome[] }, ArmyAudience>
  | Fact<'scoutCaptured', { readonly contactId: string; readonly from: string }, ArmyAudience>
  | Fact<'contactEstimated', { readonly contactId: string; readonly die: ContactDie; readonly hour: number; readonly estimates: Readonly<Record<string, Estimate>> }, ArmyAudience>
  | Fact<'terrainDealt', { readonly contactId: string; readonly cards: readonly TerrainCard[]; readonly order: readonly string[] }, ArmyAudience>
  | Fact<'contactTruth', {
    readonly contactId: string;
    readonly armyIds: readonly string[];
    readonly contactDice: Readonly<Record<string, ContactDie>>;
    readonly truth: Readonly<Record<string, ForceTruth>>;
    readonly estimates: Readonly<Record<string, Readonly<Record<string, Estimate>>>>;
    readonly scouts: Readonly<Record<string, readonly ScoutOutcome[]>>;
    readonly terrain: readonly DealtCard[];
    readonly hour: number;
  }, RefereeAudience>
  | Fact<'contactPhaseRun', { readonly contactId: string; readonly armyIds: readonly string[] }, PublicAudience>
  | Fact<'contactEvaded', { readonly contactId: string; readonly armyIds: readonly string[] }, PublicAudience>
  | Fact<'battleJoined', { readonly contactId: string; readonly armyIds: readonly string[]; readonly hexes: readonly string[]; readonly deployment: PublicBriefing; readonly conditions: PublicConditions }, PublicAudience>
  | Fact<'forceCondition', { readonly contactId: string; readonly condition: ForceCondition }, ArmyAudience>
  | Fact<'forceConditions', { readonly contactId: string; readonly conditions: readonly ForceCondition[] }, RefereeAudience>
  | Fact<'deploymentRolled', { readonly contactId: string; readonly deployment: DeploymentBriefing }, RefereeAudience>
  | Fact<'battleLossesApplied', { readonly contactId: string; readonly armyId: string; readonly regiments: readonly RegimentAfter[] }, ArmyAudience>
  | Fact<'battleRecorded', { readonly contactId: string; readonly result: BattleResult; readonly outcomes: readonly DisengagementOutcome[] }, RefereeAudience>
  /** `pushedBack`: the hex each withdrawing force was displaced to, told in the same line (its own forceDisengaged line is not sent). */
  | Fact<'battleFought', { readonly contactId: string; readonly armyIds: readonly string[]; readonly withdrew: readonly string[]; readonly pushedBack?: Readonly<Record<string, string>> }, PublicAudience>
  | Fact<'contactSplit', { readonly contactId: string; readonly into: readonly string[]; readonly groups: readonly (readonly string[])[] }, PublicAudience>
  | Fact<'disengagementRolled', { readonly outcome: DisengagementOutcome; readonly regimentName?: string; readonly displacedTo?: string }, ArmyAudience | RefereeAudience>
  | Fact<'disengagementOpposed', { readonly armyId: string; readonly operation: DisengageOperation; readonly die: number; readonly modifiers: readonly AppliedModifier[]; readonly modified: number }, ArmyAudience>
  | Fact<'forceDisplaced', { readonly armyId: string; readonly to: string }, PublicAudience>
  | Fact<'armyDestroyed', { readonly armyId: string }, PublicAudience>
  | Fact<'roleAssumed', { readonly armyId: string; readonly role: 'support' | 'reserve'; readonly supportedId: string }, PublicAudience>
  | Fact<'reinforceDeclared', { readonly armyId: string; readonly on: boolean }, ArmyAudience>
  | Fact<'forceRelieved', { readonly supporterId: string; readonly supportedId: string }, PublicAudience>
  | Fact<'supportSwitched', { readonly reserveId: string; readonly supporterId: string }, PublicAudience>
  | Fact<'forceExploited', { readonly reserveId: string; readonly through: string; readonly to: string }, PublicAudience>
  | Fact<'armyManeuvered', { readonly armyId: string }, PublicAudience>;

export type ContactEvent = Told<ContactFact>;
