import { eq, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { excluded, perConnection, readSoon, runUnanswered } from './prepared.js';
import type { notices } from './schema.js';

/** What a person chose with `/notify` in one campaign (src/app/notices.ts gives the defaults). */
export interface NoticeRow {
  readonly userId: string;
  /** Minutes before a deadline to be reminded; null: the campaign's `reminder-lead`; 0: never. */
  readonly reminderMinutes: number | null;
  readonly tickReport: 'always' | 'changes' | 'never';
  readonly orderConfirm: boolean;
}

const p = sql.placeholder;
const noticesOf = perConnection((q, { notices }) => q.select({ userId: notices.userId, reminderMinutes: notices.reminderMinutes, tickReport: notices.tickReport, orderConfirm: notices.orderConfirm })
  .from(notices).where(eq(notices.campaignId, p('campaignId'))).orderBy(notices.userId).prepare());

/** Everyone's choices in a campaign (people who never used `/notify` have no row). */
export function listNotices(db: Database, campaignId: string): NoticeRow[] {
  return noticesOf(db).all({ campaignId });
}

/** `listNotices` will be read soon, in this transaction (prepared.ts `readSoon`). */
export function listNoticesSoon(db: Database, campaignId: string): void {
  readSoon(noticesOf(db), { campaignId });
}

const upsertNotice = perConnection((q, { notices }) => q.insert(notices)
  .values({ campaignId: p('campaignId'), userId: p('userId'), reminderMinutes: p('reminderMinutes'), tickReport: p('tickReport'), orderConfirm: p('orderConfirm') })
  .onConflictDoUpdate({ target: [notices.campaignId, notices.userId], set: {
    reminderMinutes: excluded(notices.reminderMinutes), tickReport: excluded(notices.tickReport), orderConfirm: excluded(notices.orderConfirm),
  } }).prepare());

/** Stores one person's choices, replacing what they chose before. */
export function saveNotice(db: Database, campaignId: string, n: NoticeRow): void {
  const row: Required<typeof notices.$inferInsert> = { campaignId, userId: n.userId, reminderMinutes: n.reminderMinutes, tickReport: n.tickReport, orderConfirm: n.orderConfirm };
  runUnanswered(upsertNotice(db), row);
}
