import type { ArmyAudience, Fact, PublicAudience, RefereeAudience, Told } from '../events/index.js';
import type { LengthUnit } from '../profiles/index.js';
import type { TurnCasualty } from '../state/index.js';

/** A company coming onto the table. */
export interface Arrival {
  readonly troopType: string;
  readonly figures: number;
}

export type TabletopFact =
  | Fact<'tabletopTurn', { readonly contactId: string; readonly turn: number; readonly arriving: readonly string[]; readonly order: readonly string[] }, PublicAudience>
  | Fact<'companiesArrive', {
    readonly contactId: string;
    readonly turn: number;
    readonly regiment: string;
    readonly companies: readonly Arrival[];
    /** This side's baseline, from its table edge, in the table's unit. */
    readonly baseline: number;
    readonly distance: number;
    readonly unit: LengthUnit;
    readonly initial: boolean;
    /** Units still to come after these. */
    readonly stillToCome: number;
  }, ArmyAudience>
  | Fact<'turnCasualties', { readonly contactId: string; readonly turn: number; readonly casualties: readonly TurnCasualty[] }, RefereeAudience>
  | Fact<'turnCasualties', { readonly contactId: string; readonly turn: number; readonly casualties: readonly TurnCasualty[] }, ArmyAudience>;

export type TabletopEvent = Told<TabletopFact>;
