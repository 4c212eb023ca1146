/**
 * Campaign settings: what a referee may reasonably want differently. Defaults follow RULINGS.md.
 */
export type CatchUpPolicy = 'all' | 'one' | 'none';

export interface CampaignSettings {
  /** Cron expression for ticks, in `timezone`. Default: two half periods a day. */
  readonly cadence: string;
  readonly timezone: string;
  /** Minutes before a deadline when commanders without orders get a reminder. */
  readonly reminderLeadMinutes: number;
  readonly catchUp: CatchUpPolicy;
  /** Discord role whose members are co-referees. */
  readonly refereeRoleId?: string;
  /** Tabletop width (inches) and short bow range (inches) for baselines. */
  readonly tableWidth: number;
  readonly shortBowRange: number;
  /** Optional rules. */
  readonly drought: boolean;
  readonly advancedEmbarkation: boolean;
  /** Flying creatures pay clear cost everywhere and ignore rivers (house ruling). */
  readonly flyingIgnoresTerrain: boolean;
  /** Missed orders: what an army without orders does. */
  readonly defaultOrder: 'hold' | 'rest';
  /**
   * Ticks a contact waits for its commanders' answers before the defaults apply (step 1: silent;
   * engage or evade: engage). 1 = the next tick. @see RULINGS 5
   */
  readonly decisionDeadlineTicks: number;
}

export const DEFAULT_SETTINGS: CampaignSettings = {
  cadence: '0 8,20 * * *',
  timezone: 'UTC',
  reminderLeadMinutes: 120,
  catchUp: 'all',
  tableWidth: 48,
  shortBowRange: 7.5,
  drought: false,
  advancedEmbarkation: false,
  flyingIgnoresTerrain: true,
  defaultOrder: 'rest',
  decisionDeadlineTicks: 1,
};
