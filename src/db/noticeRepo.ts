import type { Database } from './client.js';
import { prepared } from './prepared.js';

/** What a person chose with `/notify` in one campaign (src/app/notices.ts gives the defaults). */
export interface NoticeRow {
  readonly userId: string;
  /** Minutes before a deadline to be reminded; null: the campaign's `reminder-lead`; 0: never. */
  readonly reminderMinutes: number | null;
  readonly tickReport: 'always' | 'changes' | 'never';
  readonly orderConfirm: boolean;
}

/** Everyone's choices in a campaign (people who never used `/notify` have no row). */
export function listNotices(db: Database, campaignId: string): NoticeRow[] {
  const rows = prepared(db, 'select user_id as userId, reminder_minutes as reminderMinutes, tick_report as tickReport, order_confirm as orderConfirm from notices where campaign_id = ? order by user_id')
    .all(campaignId) as (Omit<NoticeRow, 'orderConfirm'> & { orderConfirm: number })[];
  return rows.map((r) => ({ ...r, orderConfirm: r.orderConfirm === 1 }));
}

/** Stores one person's choices, replacing what they chose before. */
export function saveNotice(db: Database, campaignId: string, n: NoticeRow): void {
  prepared(db, `insert into notices (campaign_id, user_id, reminder_minutes, tick_report, order_confirm) values (?, ?, ?, ?, ?)
    on conflict (campaign_id, user_id) do update set reminder_minutes = excluded.reminder_minutes, tick_report = excluded.tick_report, order_confirm = excluded.order_confirm`)
    .run(campaignId, n.userId, n.reminderMinutes, n.tickReport, n.orderConfirm ? 1 : 0);
}
