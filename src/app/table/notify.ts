import { echo, escapeName } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { noticeBook, TICK_REPORT_CHOICES, type Notices, type TickReportChoice } from '../notices.js';
import { inCampaign, readCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { NoticeRow } from '../../db/noticeRepo.js';

/** The longest reminder lead a person may choose, in minutes (a day). */
const MAX_LEAD = 24 * 60;

const ACCEPTED_REMINDER = `\`reminder:\` takes a lead before the deadline, \`30m\`, \`2h\`, \`1h30m\` or minutes (\`90\`), at most 24h; \`none\` for no reminder; or \`campaign\` for the campaign's own lead.`;

/** The lead a person typed: minutes, 0 for none, null for the campaign's. */
function parseReminder(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === 'none' || t === 'off' || t === '0') return 0;
  if (t === 'campaign' || t === 'default') return null;
  const m = /^(?:(\d{1,4})\s*h)?\s*(?:(\d{1,4})\s*m?)?$/.exec(t);
  const minutes = m && (m[1] !== undefined || m[2] !== undefined) ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : undefined;
  if (minutes === undefined) throw new UserError('notify.badReminder', `${echo(text)} is not a lead I can read. ${ACCEPTED_REMINDER}`);
  if (minutes > MAX_LEAD) throw new UserError('notify.badReminder', `${minutes} minutes is more than a day. ${ACCEPTED_REMINDER}`);
  return minutes;
}

const TICK_REPORT_TEXT: Readonly<Record<TickReportChoice, string>> = {
  always: 'after every tick',
  changes: 'only after a tick in which something happened to your armies',
  never: 'never (read the chronicle and `/intel`)',
};

function leadText(minutes: number): string {
  if (minutes <= 0) return 'none';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h > 0 ? `${h} h` : '', m > 0 ? `${m} min` : ''].filter(Boolean).join(' ');
}

function describe(n: Notices): string {
  const reminder = n.reminderMinutes <= 0 ? 'none' : `${leadText(n.reminderMinutes)} before each deadline, while an army of yours has no orders`;
  return [
    `- Reminder: ${reminder}${n.reminderFromCampaign ? ' (the campaign\'s lead)' : ''}.`,
    `- Tick report: ${TICK_REPORT_TEXT[n.tickReport]}.`,
    `- Confirmation DM when your orders are stored: ${n.orderConfirm ? 'yes' : 'no'}.`,
  ].join('\n');
}

/**
 * A person chooses their own notices in this campaign (`/notify`): the reminder's lead (or none, or
 * the campaign's), the tick report (always, only when something happened, never) and a DM
 * confirming each stored order. Without options it shows what applies. Private.
 */
export function setNotices(app: App, actor: Actor, input: { reminder?: string | undefined; tickReport?: string | undefined; orderConfirm?: boolean | undefined }): Reply[] {
  const changed = input.reminder !== undefined || input.tickReport !== undefined || input.orderConfirm !== undefined;
  // Without options it only shows them: a read, no write lock.
  if (!changed) return readCampaign(app, { actor }, (tx) => noticesAnswer(tx, actor.userId, false, noticeBook(tx).row(actor.userId)).result);
  return inCampaign(app, { actor }, (tx) => {
    const book = noticeBook(tx);
    const before = book.row(actor.userId);
    if (input.tickReport !== undefined && !(TICK_REPORT_CHOICES as readonly string[]).includes(input.tickReport)) {
      throw new UserError('notify.badTickReport', `\`tick-report:\` takes \`always\`, \`changes\` (only when something happened to your armies) or \`never\`, not ${echo(input.tickReport)}.`);
    }
    const row = {
      ...before,
      ...(input.reminder !== undefined ? { reminderMinutes: parseReminder(input.reminder) } : {}),
      ...(input.tickReport !== undefined ? { tickReport: input.tickReport as TickReportChoice } : {}),
      ...(input.orderConfirm !== undefined ? { orderConfirm: input.orderConfirm } : {}),
    };
    return noticesAnswer(tx, actor.userId, true, row);
  });
}

/** The person's notices as `row` leaves them (`stored`: just changed), and the row to store when changed. */
function noticesAnswer(tx: CampaignTx, userId: string, stored: boolean, row: NoticeRow): Change<Reply[]> {
  const now = { ...noticeBook(tx).of(userId), reminderMinutes: row.reminderMinutes ?? tx.state.settings.reminderLeadMinutes, reminderFromCampaign: row.reminderMinutes === null, tickReport: row.tickReport, orderConfirm: row.orderConfirm };
  const head = stored ? `Your notices in **${escapeName(tx.state.name)}** are stored:` : `Your notices in **${escapeName(tx.state.name)}** (change them with \`/notify reminder: tick-report: order-confirm:\`):`;
  return {
    ...(stored ? { notices: [row] } : {}),
    result: [ephemeral(`${head}\n${describe(now)}`, { notices: { reminderMinutes: now.reminderMinutes, reminderFromCampaign: now.reminderFromCampaign, tickReport: now.tickReport, orderConfirm: now.orderConfirm } })],
  };
}
