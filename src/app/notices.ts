import type { CampaignSettings } from '../engine/state/index.js';
import type { NoticeRow } from '../db/noticeRepo.js';
import type { CampaignTx } from './campaignTx.js';

/*
 * Each person's notices (`/notify`), read in one place: the reminder's lead, the tick report and
 * the order confirmation. Defaults that do not spam: the campaign's reminder lead, a tick report
 * only when something happened to one's armies, no confirmation DM (the answer to the order
 * already confirms it).
 */

/** When a commander gets their own tick report: after every tick, only when something happened to their armies, or never. */
export type TickReportChoice = NoticeRow['tickReport'];
export const TICK_REPORT_CHOICES: readonly TickReportChoice[] = ['always', 'changes', 'never'];

/** One person's notices as they apply now (defaults filled in). */
export interface Notices {
  /** Minutes before a deadline their reminder comes (0: none). */
  readonly reminderMinutes: number;
  /** Whether the lead is the campaign's `reminder-lead` (they chose none of their own). */
  readonly reminderFromCampaign: boolean;
  readonly tickReport: TickReportChoice;
  readonly orderConfirm: boolean;
}

const DEFAULT_TICK_REPORT: TickReportChoice = 'changes';

/** What a person gets when they never used `/notify`. */
function defaultNotice(userId: string): NoticeRow {
  return { userId, reminderMinutes: null, tickReport: DEFAULT_TICK_REPORT, orderConfirm: false };
}

function applied(row: NoticeRow, settings: Pick<CampaignSettings, 'reminderLeadMinutes'>): Notices {
  return {
    reminderMinutes: row.reminderMinutes ?? settings.reminderLeadMinutes,
    reminderFromCampaign: row.reminderMinutes === null,
    tickReport: row.tickReport,
    orderConfirm: row.orderConfirm,
  };
}

/** Everyone's notices in the campaign, by user id; `of(userId)` gives anyone's (defaults when they chose nothing). */
export function noticeBook(tx: Pick<CampaignTx, 'read' | 'state'>): { of(userId: string): Notices; row(userId: string): NoticeRow } {
  const rows = new Map(tx.read.notices().map((r) => [r.userId, r]));
  const row = (userId: string): NoticeRow => rows.get(userId) ?? defaultNotice(userId);
  return { row, of: (userId) => applied(row(userId), tx.state.settings) };
}

/** One person's notices (defaults when they chose nothing). The tick report reads `tickReport` here. */
export function noticesOf(tx: Pick<CampaignTx, 'read' | 'state'>, userId: string): Notices {
  return noticeBook(tx).of(userId);
}

/**
 * The settings the reminder schedule reads, with the lead of the earliest reminder anyone in the
 * campaign is owed: the campaign's `reminder-lead` for those who chose none, each commander's own
 * otherwise. The reminder run then reminds each at their own time (src/app/scheduler/sendReminders.ts).
 */
export function reminderSettings<S extends Pick<CampaignSettings, 'reminderLeadMinutes'>>(tx: Pick<CampaignTx, 'read' | 'members'>, settings: S): S {
  const rows = tx.read.notices();
  if (rows.length === 0) return settings;
  const book = new Map(rows.map((r) => [r.userId, r.reminderMinutes]));
  const commanders = new Set(tx.members.filter((m) => m.role === 'commander').map((m) => m.userId));
  const leads = [...commanders].map((u) => book.get(u) ?? settings.reminderLeadMinutes);
  const lead = leads.length > 0 ? Math.max(...leads) : settings.reminderLeadMinutes;
  return lead === settings.reminderLeadMinutes ? settings : { ...settings, reminderLeadMinutes: lead };
}
