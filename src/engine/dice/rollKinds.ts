/**
 * What a die is for, read from the purpose the rules give it: the kind of roll, the army whose
 * commander rolls it at the table (none: the referee rolls it), and the army it concerns (whose
 * commander may read it in their dice log). The manual-dice setting and `/dice log` read this.
 * Every purpose the rules write is covered (a test plays campaigns and checks each one).
 * @see RULINGS 7 Dice; docs/rulings.md (Dice)
 */
export type RollKind =
  | 'contact' | 'scout' | 'estimate' | 'terrainOrder' | 'terrainCard' | 'deployment' | 'disengagement'
  | 'contest' | 'rafts' | 'stragglers' | 'weather' | 'courier' | 'drought' | 'fog' | 'other';

export interface RollSubject {
  readonly kind: RollKind;
  /** The army whose commander rolls it; absent: the referee rolls it. */
  readonly roller?: string;
  /** The army whose commander may see it in their dice log (never set for a die that would tell a secret). */
  readonly seenBy?: string;
}

/**
 * Which rolls people make by hand (a campaign setting): none; `contact`, the commanders' own rolls
 * of the contact procedure and deployment; `battle`, every roll of a contact and a battle (the
 * referee's estimates and terrain cards too); `all`, every roll (the referee rolls those of the tick).
 */
export type ManualDiceGroup = 'none' | 'contact' | 'battle' | 'all';
export const MANUAL_DICE_GROUPS: readonly ManualDiceGroup[] = ['none', 'contact', 'battle', 'all'];

interface ArmyName {
  readonly id: string;
  readonly name: string;
}

type Rule = readonly [RegExp, (m: RegExpExecArray, byName: (name: string) => string | undefined) => RollSubject];

const own = (kind: RollKind, army: string | undefined): RollSubject => (army === undefined ? { kind } : { kind, roller: army, seenBy: army });

/** The purposes the rules write, most specific first. */
const RULES: readonly Rule[] = [
  [/^contact dice: (\S+)$/, (m) => own('contact', m[1])],
  [/^scout \d+ of (\S+)$/, (m) => own('scout', m[1])],
  // The referee rolls estimates: the observer must not learn how far off its estimate is.
  [/^size estimate (\S+) of (\S+) \([12] of 2\)$/, () => ({ kind: 'estimate' })],
  [/^terrain first draw roll-off: (\S+)$/, (m) => own('terrainOrder', m[1])],
  // Cards are dealt by the referee; the commander sees the cards dealt to them anyway.
  [/^terrain card for (\S+)$/, (m) => ({ kind: 'terrainCard', ...(m[1] ? { seenBy: m[1] } : {}) })],
  [/^deployment (?:dice|initiative roll-off): (\S+)$/, (m) => own('deployment', m[1])],
  // An opponent's die against a disengaging force is rolled by the opponent.
  [/^\w+ dice: (\S+) against (\S+)$/, (m) => own('disengagement', m[1])],
  [/^(?:avoid|delay|evade|withdraw) dice: (\S+)$/, (m) => own('disengagement', m[1])],
  [/^contested hex [^:]+: (\S+)$/, (m) => own('contest', m[1])],
  [/^timber for rafts of (.+) at \S+$/, (m, byName) => own('rafts', byName(m[1] ?? ''))],
  [/^stragglers (?:of|rejoining) (.+)$/, (m, byName) => ({ kind: 'stragglers', ...seen(byName(m[1] ?? '')) })],
  [/^drought casualties of (.+) \(/, (m, byName) => ({ kind: 'drought', ...seen(byName(m[1] ?? '')) })],
  [/^courier \S+ (?:passing|stopping)/, () => ({ kind: 'courier' })],
  [/^fog visibility/, () => ({ kind: 'fog' })],
  [/^(?:weather \(|fog\/wind die|wind type die|fog persistence|wind persistence|\w+ persistence)/, () => ({ kind: 'weather' })],
];

function seen(army: string | undefined): { seenBy?: string } {
  return army === undefined ? {} : { seenBy: army };
}

/** What a die is for. A purpose no rule writes is 'other' (the referee's). */
export function classifyRoll(purpose: string, armies: readonly ArmyName[]): RollSubject {
  const byName = (name: string): string | undefined => armies.find((a) => a.name === name)?.id;
  for (const [pattern, subject] of RULES) {
    const m = pattern.exec(purpose);
    if (m) return subject(m, byName);
  }
  return { kind: 'other' };
}

/** The commanders' own rolls of the contact procedure and deployment. */
const CONTACT_KINDS: ReadonlySet<RollKind> = new Set(['contact', 'scout', 'terrainOrder', 'deployment', 'disengagement']);
/** Every roll of a contact and its battle (the commanders' and the referee's). */
const BATTLE_KINDS: ReadonlySet<RollKind> = new Set([...CONTACT_KINDS, 'estimate', 'terrainCard']);

/**
 * Whether the setting makes this roll manual. Terrain cards never are: the bot deals them from the
 * shuffled deck (a deal, not a die anyone rolls at the table).
 */
export function isManualRoll(subject: RollSubject, group: ManualDiceGroup): boolean {
  if (subject.kind === 'terrainCard') return false;
  switch (group) {
    case 'none': return false;
    case 'contact': return CONTACT_KINDS.has(subject.kind);
    case 'battle': return BATTLE_KINDS.has(subject.kind);
    case 'all': return true;
  }
}

/** The two streams of a dice period: the public one (revealed when the period ends), the secret one (revealed when the campaign ends). */
export type DiceStream = 'public' | 'secret';

/**
 * Which stream rolls a die. Public: the weather, which everyone is told anyway, rolled at every
 * tick whatever happens (so how many there are tells nothing either). Secret: every other die,
 * and any purpose no rule names: what a die decides in a contact, a battle, a march or a courier's
 * ride is not everyone's to know, nor whether it was rolled.
 * @see docs/dice.md
 */
export function rollStream(purpose: string): DiceStream {
  return classifyRoll(purpose, []).kind === 'weather' ? 'public' : 'secret';
}

/** Whether a roll belongs to a contact or its battle (the step it belongs to can wait for it). */
export function isContactRoll(subject: RollSubject): boolean {
  return BATTLE_KINDS.has(subject.kind);
}

/**
 * Who enters a manual roll: the commander who rolls it in a contact or battle, else the referee
 * (the referee rolls what the tick needs, the commanders' contested hexes and rafts too: asking a
 * commander before the tick would tell them another army's orders).
 */
export function enteredByArmy(subject: RollSubject): string | undefined {
  return CONTACT_KINDS.has(subject.kind) ? subject.roller : undefined;
}
