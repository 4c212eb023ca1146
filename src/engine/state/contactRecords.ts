import type { GameTime } from '../clock/index.js';
import type { Hex } from '../hex/index.js';
import type { BattleConditions, DeploymentBriefing, DisengagementOutcome, TabletopRecord } from './battleRecords.js';
import type { ContactModifierCode, DealtCard, Estimate, ForceTruth, ScoutOutcome } from './reconnaissanceRecords.js';

/**
 * A contact as the campaign state keeps it: its step, its forces and hexes, and the data the
 * contact rules (src/engine/contact) gather from step 1 to its close. Plain JSON.
 */

/** The steps of a contact, in the order a contact goes through them: ContactStep is read from this list. @see RULINGS 5 Contact and battle */
export const CONTACT_STEPS = ['step1', 'decision', 'battle', 'closed'] as const;

/** The steps of a contact. @see RULINGS 5 Contact and battle */
export type ContactStep = (typeof CONTACT_STEPS)[number];

/** Whether a word read from outside (a button's id) names a step of a contact. */
export function isContactStep(word: string | undefined): word is ContactStep {
  return (CONTACT_STEPS as readonly (string | undefined)[]).includes(word);
}

/** A commander's answer before the contact phase. */
export type Step1Choice =
  | { readonly kind: 'proceed' }
  | { readonly kind: 'silent' }
  | { readonly kind: 'delay' }
  | { readonly kind: 'avoid'; readonly to: Hex };

export type Decision = 'engage' | 'evade';

export interface ContactDie {
  readonly raw: number;
  readonly modifiers: readonly { readonly code: ContactModifierCode; readonly label: string; readonly value: number }[];
  readonly modified: number;
}

/** How a contact ended. */
export type ContactOutcome =
  | 'fightOnMorrow'
  | 'disengaged'
  | 'bothEvaded'
  | 'evaded'
  | 'battle'
  | 'split';

/** A support, reserve or manoeuvre operation, logged on the contact it belongs to. */
export interface OperationLog {
  readonly kind: 'relief' | 'support' | 'exploit' | 'maneuver' | 'secondContact' | 'reinforce';
  readonly armyId: string;
  readonly other?: string;
  readonly day: number;
  readonly half: number;
  /** Move points the operation cost (0 for the first relief or support of the turn). */
  readonly points: number;
}

export interface BattleRecord {
  readonly lossesByArmy: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly withdrawals: readonly { readonly armyId: string; readonly condition: 'formed' | 'retreat' | 'rout' }[];
  readonly pursuers: readonly string[];
  readonly recordedAt: number;
}

/**
 * The contact module's shape of ContactRecord.data. Plain JSON. Secret parts (dice, scouts,
 * estimates, truth) live here for the referee view and /intel; events carry them out only to
 * army or referee audiences.
 */
export interface ContactData {
  /** Time index when the current step began; defaults apply once the clock has moved past it. */
  readonly stepAt?: number;
  /** Ticks already waited for answers at the current step (when the deadline is more than one tick). */
  readonly wait?: { readonly step: ContactStep; readonly ticks: number };
  readonly step1?: Readonly<Record<string, Step1Choice>>;
  readonly decisions?: Readonly<Record<string, Decision>>;
  readonly scouts?: Readonly<Record<string, readonly ScoutOutcome[]>>;
  readonly contactDice?: Readonly<Record<string, ContactDie>>;
  /** Hour of the day (1-24, sunrise = 1) at which contact occurred. */
  readonly contactHour?: number;
  /** estimates[observer][target] */
  readonly estimates?: Readonly<Record<string, Readonly<Record<string, Estimate>>>>;
  readonly truth?: Readonly<Record<string, ForceTruth>>;
  readonly terrain?: readonly DealtCard[];
  readonly disengagements?: readonly DisengagementOutcome[];
  readonly deployment?: DeploymentBriefing;
  /** The conditions the battle is fought in (hour, weather, fog's visibility, arrangement, each force's state). */
  readonly conditions?: BattleConditions;
  readonly battle?: BattleRecord;
  /** The battle companion: the tabletop turn and the casualties entered turn by turn. */
  readonly tabletop?: TabletopRecord;
  readonly outcome?: ContactOutcome;
  /** No new contact between these forces before this time index (fight on the morrow, disengagement). */
  readonly quietUntil?: number;
  /** Armies whose half period (time index) the contact used up (delay, battle). */
  readonly halfSpent?: Readonly<Record<string, number>>;
  /** supporter army id -> supported army id. */
  readonly supports?: Readonly<Record<string, string>>;
  /** reserve army id -> supported army id. */
  readonly reserves?: Readonly<Record<string, string>>;
  /** Supporters that will reinforce (prevent displacement of) the force they support. */
  readonly reinforce?: Readonly<Record<string, boolean>>;
  /** Armies that used the maneuver action: time index of the half period it lasts. */
  readonly maneuver?: Readonly<Record<string, number>>;
  readonly operations?: readonly OperationLog[];
  /** Withdrawals commanders declared during the battle, until the referee records the result. */
  readonly withdrawals?: Readonly<Record<string, 'formed' | 'retreat' | 'rout'>>;
  /** Armies that fought the battle. */
  readonly combatants?: readonly string[];
  /** Armies that left this contact by avoiding, delaying or evading. */
  readonly departed?: readonly string[];
  /** Ids of contacts this one was split into, or the contact it came from. */
  readonly splitInto?: readonly string[];
  readonly splitFrom?: string;
  /** Set on a second contact forced by a maneuver. */
  readonly forcedBy?: string;
  /**
   * A standing contact: nobody pressed it (fight on the morrow) and its forces face each other
   * again the next half period, so it goes on under the same id. The round before this one: when
   * it opened (time index) and who took part ("previous contact" for the contact dice).
   */
  readonly previousRound?: { readonly at: number; readonly armyIds: readonly string[] };
}

/**
 * One contact between forces in map contact, from step 1 to its close. Plain JSON; the contact
 * rules own it. @see RULINGS 5 Contact and battle
 */
export interface ContactRecord {
  readonly id: string;
  /** The forces still taking part (those that disengaged are listed in `data.departed`). */
  readonly armyIds: readonly string[];
  readonly hexes: readonly Hex[];
  readonly openedAt: GameTime;
  readonly step: ContactStep;
  readonly data: ContactData;
}
