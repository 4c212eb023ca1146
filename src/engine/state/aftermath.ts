import type { ContactData, ContactRecord } from './contactRecords.js';

/**
 * What the rules still read of a contact once it has closed, and nothing more: who took part
 * (the departed included), when it was opened, and the few marks that outlive it:
 * - `quietUntil`: no new contact between its forces before then (fight on the morrow, a
 *   disengagement) @see 001 Map Contact: Fight on the Morrow;
 * - `halfSpent`: the half period a delay or a battle took, per army;
 * - `maneuver`: the half period of each army's maneuver action (its +1 lasts that half);
 * - `combatants` and `outcome`: who fought a battle, for "has not engaged in melee today";
 * - `operations`: relief and support switches, counted per day; second contacts forced;
 * - `splitFrom`, `forcedBy`: a split's parts and a forced second contact are not "previous
 *   contacts" of their own origin.
 * Everything else of a closed contact (dice, estimates, deployment, the battle's record) is
 * history for /intel, the chronicle and the export, not input to a rule. Rules that look back
 * read contactHistory, so the aftermath can later be kept apart from the records.
 */
export interface ContactAftermath {
  readonly id: string;
  readonly openedAt: ContactRecord['openedAt'];
  readonly step: ContactRecord['step'];
  /** Every army that took part, those that disengaged included. */
  readonly everyone: readonly string[];
  readonly data: Pick<ContactData, 'quietUntil' | 'halfSpent' | 'maneuver' | 'combatants' | 'outcome' | 'operations' | 'splitFrom' | 'forcedBy'>;
}

/** The aftermath of one contact record (open or closed). */
function aftermathOf(c: ContactRecord): ContactAftermath {
  const { quietUntil, halfSpent, maneuver, combatants, outcome, operations, splitFrom, forcedBy } = c.data;
  return {
    id: c.id,
    openedAt: c.openedAt,
    step: c.step,
    everyone: [...c.armyIds, ...(c.data.departed ?? [])],
    data: {
      ...(quietUntil !== undefined ? { quietUntil } : {}),
      ...(halfSpent ? { halfSpent } : {}),
      ...(maneuver ? { maneuver } : {}),
      ...(combatants ? { combatants } : {}),
      ...(outcome ? { outcome } : {}),
      ...(operations ? { operations } : {}),
      ...(splitFrom ? { splitFrom } : {}),
      ...(forcedBy ? { forcedBy } : {}),
    },
  };
}

/** Every contact of the campaign, open or closed, as the rules that look back read it. */
export function contactHistory(state: { readonly contacts: Readonly<Record<string, ContactRecord>> }): ContactAftermath[] {
  return Object.values(state.contacts).map(aftermathOf);
}
