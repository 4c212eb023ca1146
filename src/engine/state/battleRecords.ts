import type { Direction, Hex } from '../hex/index.js';
import type { CardReading, LengthUnit, TableFormation } from '../profiles/index.js';
import type { Sky } from './weatherRecords.js';

/**
 * The battle parts of a contact's record: the conditions it is fought in, the table's briefing
 * notes, the deployment, the tabletop's turns and each disengagement's outcome. Plain JSON, kept on
 * the contact; the contact rules (src/engine/contact) write them.
 */

/** One force's own state at the table: what its commander and the referee are told. */
export interface ForceCondition {
  readonly armyId: string;
  /** Fatigued by strategic movement: it fights fatigued. @see 000 Overland Travel: Fatigued */
  readonly fatigued: boolean;
  readonly unformed: boolean;
  /** Unformed, and the campaign counts that as in retreat: its units begin the battle unrallied. */
  readonly asIfInRetreat: boolean;
  /** Collecting timber or building rafts: it defends with a third of its force. */
  readonly raftsDefence?: { readonly phase: 'timber' | 'build'; readonly share: number };
  /** Still waiting at its port for regiments: only those present fight. */
  readonly debarking?: { readonly present: readonly string[]; readonly awaited: readonly string[] };
  /** War machine companies disassembled (or still at work on them): not usable in this battle. @see 004 Movement of War Machines */
  readonly machinesUnavailable?: readonly string[];
  /** How its state reads on the campaign's tabletop (the tactical profile's readings). */
  readonly table?: readonly ForceTableNote[];
}

/** A force's place among three or more: the forces of the battle next to it, and on which side. */
export interface ArrangedForce {
  readonly armyId: string;
  readonly hex: string;
  readonly next: readonly { readonly armyId: string; readonly direction: Direction; readonly enemy: boolean }[];
}

/** What the table needs of the conditions a battle is fought in. */
export interface BattleConditions {
  /** The contact hour (1-24, sunrise the 1st); absent when no contact dice were rolled. */
  readonly hour?: number;
  /** The hour falls in the night period: a night battle. */
  readonly night: boolean;
  readonly sky: Sky;
  /** The cumulative rain level: the ground is soft from level 1. */
  readonly rainLevel: number;
  /** Fog: the visibility rolled when the battle was joined (one die x 30 yards). */
  readonly fog?: { readonly die: number; readonly yards: number };
  /** High winds (or a gale, on land): missile fire scores one hit fewer. */
  readonly highWinds: boolean;
  /** Missile hits lost in the wind when the movement profile says other than one (ACKS: none); absent: one. */
  readonly windHits?: number;
  /** The movement profile's penalty to missile attack throws in this weather (ACKS), absent when none. */
  readonly missileAttack?: number;
  /** How the table reads under the campaign's tactical profile (public notes). */
  readonly table?: readonly TableNote[];
  /** Three or more forces in one battle: how they stand on the map, for the deployment. */
  readonly arrangement?: readonly ArrangedForce[];
  /** Each force's own state, by army id: secret to its commander and the referee. */
  readonly forces: Readonly<Record<string, ForceCondition>>;
}

/** Figures one regiment lost in one tabletop turn. */
export interface TurnCasualty {
  readonly turn: number;
  readonly armyId: string;
  readonly regimentId: string;
  readonly figures: number;
}

/** The tabletop's progress, kept on the battle's contact. */
export interface TabletopRecord {
  /** The turn being fought (0: deployed, before the first turn). */
  readonly turn: number;
  readonly casualties: readonly TurnCasualty[];
}

export interface AppliedModifier {
  readonly code: string;
  readonly label: string;
  readonly value: number;
}

export interface DeploymentUnits {
  readonly count: number;
  readonly unit: DeployUnit;
  /** True when the count reaches the whole engaging regiment. */
  readonly wholeRegiment: boolean;
}

export interface DeploymentEntry {
  readonly armyId: string;
  readonly die: number;
  readonly modifiers: readonly AppliedModifier[];
  /** Modified deployment dice, clamped to 1-6. */
  readonly score: number;
  /** The highest scorer counts from the rear baseline; everyone else (and every tied top scorer) from the forward one. */
  readonly countFrom: 'rear' | 'forward';
  /** The baseline number as counted (equals the score). */
  readonly baseline: number;
  /** The same baseline numbered 1 (forward) to 6 (rear). */
  readonly baselineFromForward: number;
  /** Inches from this side's table edge. */
  readonly distanceFromEdge: number;
  readonly formation: MarchFormation;
  readonly base: { readonly count: number; readonly unit: DeployUnit };
  readonly turn: { readonly count: number; readonly unit: DeployUnit };
  /** Own score minus the lowest score on the field. */
  readonly multiplier: number;
  /** Base + turn x multiplier, capped at the whole regiment. */
  readonly initial: DeploymentUnits;
  /** Deployment rounds after the first battle turn until the regiment is all on the table. */
  readonly subsequentRounds: number;
}

export interface DeploymentBriefing {
  readonly layout: BaselineLayout;
  readonly entries: readonly DeploymentEntry[];
  readonly initiative: string;
  readonly initiativeBy: 'score' | 'unmodified' | 'rolloff';
  /** First initial round: highest to lowest; second: lowest to highest. */
  readonly initialRounds: readonly [readonly string[], readonly string[]];
  /** Every later deployment round: lowest to highest. */
  readonly subsequentOrder: readonly string[];
}

export interface OpponentResult {
  readonly opponentId: string;
  readonly die: number;
  readonly modifiers: readonly AppliedModifier[];
  readonly modified: number;
  readonly difference: number;
  /** Row read, after any move down for a blocked displacement. */
  readonly row: number;
  readonly cell: LossCell;
}

/** The result of one disengagement operation. Secret: goes to its commander and the referee. */
export interface DisengagementOutcome {
  readonly operation: DisengageOperation;
  readonly armyId: string;
  readonly die: number;
  readonly modifiers: readonly AppliedModifier[];
  readonly modified: number;
  readonly against: readonly OpponentResult[];
  /** Sum of the percentages, at most 100. */
  readonly percent: number;
  readonly figuresLost: number;
  readonly regimentId?: string;
  readonly destroyed: boolean;
  readonly displacedTo?: Hex;
  readonly reinforcedBy?: string;
  readonly supporterDisplaced?: { readonly armyId: string; readonly to: Hex };
  /** Displacement was blocked and the next line down was read this many times. */
  readonly linesDown: number;
}

/** What the whole table needs: public, in the briefing. */
export type TableNote =
  /** The chapter's rates are not in the text as stored: the referee's. */
  | { readonly kind: 'table'; readonly name: string; readonly unit: LengthUnit }
  /** 002: each force's starting formation from its march formation. */
  | { readonly kind: 'startingFormations'; readonly armies: readonly { readonly armyId: string; readonly formation: TableFormation }[] }
  /** 002: dirt roads, dry or wet after the campaign's rain. */
  | { readonly kind: 'roads'; readonly wet: boolean; readonly rainLevel: number }
  /** 002: the dealt terrain cards the chapter reads. */
  | { readonly kind: 'terrainCards'; readonly cards: readonly { readonly card: 'woods' | 'river' | 'stream' | 'hill'; readonly reading: CardReading }[] }
  /** 003: rout, pursuit and evade against 001's withdrawal, pursuit and evade. */
  | { readonly kind: 'conventions' };

/** What one force brings to the table: secret to its commander and the referee. */
export type ForceTableNote =
  /** 002: it force-marched today or is fatigued: the chapter's forced-march attrition and exhaustion check. */
  | {
    readonly kind: 'forcedMarchAttrition';
    readonly because: readonly ('forcedMarch' | 'fatigued')[];
    readonly attrition: readonly { readonly label: string; readonly endurance: number }[];
    readonly exhaustionDie: number;
    readonly exhaustion: readonly { readonly label: string; readonly from: number }[];
  }
  /** 002: companies that start out of the force's formation (skirmishers in open order, levies in mass). */
  | { readonly kind: 'companyFormations'; readonly groups: readonly { readonly formation: TableFormation; readonly companies: readonly string[] }[] }
  /** 003: the force flies (or has flyers): flight heights and costs. */
  | { readonly kind: 'flying'; readonly unit: LengthUnit; readonly combatHeight: readonly [number, number]; readonly takeOff: string; readonly climb: string; readonly dive: string; readonly land: string };

/** The six baselines of each side on the wargames table. All distances in the table's unit (inches unless said). */
export interface BaselineLayout {
  /** The tactical profile's unit of length; absent: inches (layouts stored before tactical profiles). */
  readonly unit?: LengthUnit;
  readonly tableWidth: number;
  readonly shortBowRange: number;
  /** Distance from each table edge to that side's forward baseline: Bf = (T - R) / 2. */
  readonly forward: number;
  /** Interval between baselines: Bf / 7 to the nearest half, or 1.75 on 32-35 inch tables. */
  readonly interval: number;
  /** True when the 32-35 inch exception set the interval. */
  readonly narrowException: boolean;
  /** Distance from the table edge of baseline 1 (forward) to 6 (rear). */
  readonly distances: readonly number[];
  /** Room behind the rear baseline. */
  readonly behindRear: number;
  /** The precalculated table's interval for this width (short bow 7.5 inches), when it has one. */
  readonly precalculated?: number;
  /** Notes for the referee (table too narrow, formula differs from the precalculated table). */
  readonly notes: readonly string[];
}

/** Disengagement operations; 'withdraw' reads the same column as 'delay'. */
export type DisengageOperation = 'avoid' | 'evade' | 'delay' | 'withdraw';

/** One cell of the losses table: a percentage of the assault regiment, displaced or destroyed. */
export interface LossCell {
  /** Percentage of the assault regiment's current figures lost (100 when destroyed). */
  readonly percent: number;
  readonly displaced: boolean;
  readonly destroyed: boolean;
}

/** Tactical march formations. @see 000 Orders of March: Tactical March Formations */
export type MarchFormation = 'figures2x20' | 'figures4x10' | 'companies' | 'battalions';

export type DeployUnit = 'company' | 'battalion' | 'regiment';
