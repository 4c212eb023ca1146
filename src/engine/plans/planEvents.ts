import type { Fact, RefereeAudience, Told } from '../events/index.js';

/** What a plan made its army do this half period. */
export type PlanAction =
  /** A march order toward `to`. */
  | 'march'
  /** A rest order where it stands. */
  | 'rest'
  /** Its standing order kept (a crossing under way, aboard ship). */
  | 'keep'
  /** An answer to a contact (`answer`, `contactId`). */
  | 'answer'
  /** No answer to a contact: the referee answers. */
  | 'wait';

/** Why, as a stable code; the describer says it in words. */
export type PlanReason =
  | 'hold'
  | 'arrived'
  | 'heading'
  | 'nextPoint'
  | 'restDue'
  | 'blocked'
  | 'committed'
  | 'aboard'
  | 'noSighting'
  | 'shadowing'
  | 'watching'
  | 'tooClose'
  | 'strongerMet'
  | 'fellBack'
  | 'stronger'
  | 'notStronger'
  | 'noEstimate'
  | 'cannotEvade'
  | 'refereeDecides'
  | 'refused';

/**
 * A plan's decision with its reason, for the referee only: a plan and its reasons are never a
 * player's to read (an enemy's plan is a hidden fact, like its figures).
 */
export type PlanDecidedFact = Fact<'planDecided', {
  readonly armyId: string;
  /** The plan in words ("patrol 0712 → 0915"). */
  readonly plan: string;
  readonly action: PlanAction;
  readonly to?: string;
  readonly contactId?: string;
  readonly answer?: string;
  readonly reason: PlanReason;
  /** The rule's own sentence where one decided it (a refused march, a rest owed). */
  readonly detail?: string;
  /** Figures of the army's own engaging regiment, and its estimate of the enemy's (when judged on them). */
  readonly own?: number;
  readonly estimate?: number;
  /** The enemy army the reason is about (shadow, withdraw). */
  readonly enemy?: string;
}, RefereeAudience>;

export type PlanFact = PlanDecidedFact;
export type PlanEvent = Told<PlanFact>;
