import { formatGameTime, timeIndex } from '../../engine/clock/index.js';
import { escapeName, REFEREE } from '../../engine/events/index.js';
import { shownName } from '../members.js';
import { remindableCampaigns } from '../../db/campaignRepo.js';
import type { App } from '../app.js';
import { discordTime, list } from '../format.js';
import { deliver, secretOf } from '../deliveries/audience.js';
import { inQuietHours, outOfQuietHours, reminderTime } from '../schedule.js';
import { inCampaign } from '../unitOfWork.js';
import type { Outgoing } from '../deliveries/outgoing.js';
import { readyButtonId } from '../turn/markReady.js';
import { noticeBook, reminderSettings } from '../notices.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';
import { isStoreUnavailable } from '../handleError.js';

/** What the reminder run did for one campaign. */
export interface ReminderReport {
  readonly campaignId: string;
  /** Users reminded now (each once per deadline). */
  readonly reminded: readonly string[];
}

const DEFAULT_ORDER_TEXT: Readonly<Record<'hold' | 'rest', string>> = {
  rest: 'it rests where it stands',
  hold: 'it holds its position',
};

/**
 * Reminds commanders before a deadline. For every running campaign whose reminders are due (the
 * `remind_at` column: the deadline minus the longest lead anyone is owed, the campaign's
 * `reminderLeadMinutes` or a commander's own from `/notify`; one indexed query, no state loaded for
 * a campaign with nothing to send), each commander, at their own lead (none when it is 0),
 * of an army that has no order for the coming half period gets one private message naming the
 * army, the deadline (a Discord timestamp) and what the army does without orders (setting
 * `defaultOrder`). Exactly once per deadline: the message's dedupe key is
 * `remind:<campaign>:<timeIndex>:<user>`, and the campaign remembers the deadline it reminded for.
 * An army counts as having orders when it has a standing order (as `/turn status` says).
 * Each campaign is its own transaction, and the event loop runs between two campaigns
 * (yieldToEventLoop), so a thousand campaigns' reminders never block the bot's answers.
 * Throws only when the campaign store is out of reach (the scheduler's run ends); other failures
 * are logged with the campaign id.
 */
export async function sendReminders(app: App, opts: { ownsGuild?: (guildId: string) => boolean } = {}): Promise<ReminderReport[]> {
  const reports: ReminderReport[] = [];
  let due;
  try {
    due = remindableCampaigns(app.db, app.clock.now().toISOString());
  } catch (err) {
    // The store out of reach ends the scheduler's run (it says so once).
    if (isStoreUnavailable(err)) throw err;
    app.logger.error({ err: describe(err) }, 'reminders: could not list campaigns');
    return reports;
  }
  for (const { id: campaignId, guildId } of due) {
    if (opts.ownsGuild && !opts.ownsGuild(guildId)) continue;
    try {
      const r = remindCampaign(app, campaignId);
      if (r) reports.push(r);
    } catch (err) {
      if (isStoreUnavailable(err)) throw err;
      app.logger.error({ campaignId, err: describe(err) }, 'reminders: failed for this campaign');
    }
    await yieldToEventLoop();
  }
  return reports;
}

function describe(err: unknown): { message: string; stack?: string } {
  return err instanceof Error ? { message: err.message, ...(err.stack ? { stack: err.stack } : {}) } : { message: String(err) };
}

function remindCampaign(app: App, campaignId: string): ReminderReport | undefined {
  return inCampaign<ReminderReport | undefined>(app, { campaignId }, (tx) => {
    const s = tx.state;
    const deadline = tx.meta.nextTickAt;
    if (s.status !== 'running' || !deadline || tx.meta.reminderSentFor === deadline) return { result: undefined };
    const timing = reminderSettings(tx, s.settings);
    // No reminders, or an overdue tick about to be played (or waiting for a battle): none now.
    if (timing.reminderLeadMinutes <= 0 || Date.parse(deadline) <= tx.now.getTime()) return { control: { remindAt: null }, result: undefined };
    // The leads or the quiet hours changed since: remind at the new time.
    const at = reminderTime(deadline, timing);
    if (at !== null && Date.parse(at) > tx.now.getTime()) return { control: { remindAt: at }, result: undefined };
    // No reminder inside the quiet hours: after them, if the deadline is still ahead then.
    if (inQuietHours(tx.now, s.settings)) {
      const after = outOfQuietHours(tx.now, s.settings);
      return { control: { remindAt: after.getTime() < Date.parse(deadline) ? after.toISOString() : null }, result: undefined };
    }
    const index = timeIndex(s.clock);
    const notices = noticeBook(tx);
    const byUser = new Map<string, { id: string; name: string }[]>();
    for (const army of Object.values(s.armies)) {
      if (army.status.destroyed || s.orders[army.id]) continue;
      for (const m of tx.members) {
        // A commander who said `/ready` is done, and one already reminded is not reminded again.
        if (m.role === 'commander' && m.armyId === army.id && !tx.meta.ready.includes(m.userId) && !tx.meta.reminded.includes(m.userId)) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), { id: army.id, name: army.name }]);
      }
    }
    // Each at their own lead (`/notify reminder:`; the campaign's by default; 0: never).
    const dueAt = (userId: string): number | undefined => {
      const lead = notices.of(userId).reminderMinutes;
      return lead > 0 ? Date.parse(deadline) - lead * 60_000 : undefined;
    };
    const now = tx.now.getTime();
    const dueNow = [...byUser].filter(([u]) => (dueAt(u) ?? Infinity) <= now);
    const later = [...byUser.keys()].map(dueAt).filter((t): t is number => t !== undefined && t > now);
    const next = later.length > 0 ? new Date(Math.min(...later)).toISOString() : null;
    const when = `${discordTime(deadline, 'R')} (${discordTime(deadline)})`;
    // Which of their own armies lack orders is each commander's business.
    const outbox: Outgoing[] = dueNow.flatMap(([userId, owned]) => {
      const armies = owned.map((a) => a.name);
      return deliver(tx, { user: userId }, secretOf(owned.map((a) => a.id)), {
        content: `**Reminder** (${escapeName(s.name)}): ${armies.map((a) => `**${a}**`).join(' and ')} ${armies.length > 1 ? 'have' : 'has'} no orders for ${formatGameTime(s.clock)}. Orders close ${when}. If you give none, ${DEFAULT_ORDER_TEXT[s.settings.defaultOrder]}.`,
        data: { type: 'orderReminder', armies, deadline, timeIndex: index, defaultOrder: s.settings.defaultOrder },
        dedupeKey: `remind:${tx.meta.id}:${index}:${userId}`,
        buttons: [{ id: readyButtonId(tx.meta.id, index), label: 'Ready', style: 'success', command: '/ready' }],
      });
    });
    const users = dueNow.map(([u]) => u);
    const events = users.length > 0
      ? [{ type: 'remindersSent', audience: REFEREE, text: `Reminders sent for ${formatGameTime(s.clock)} (deadline ${discordTime(deadline)}) to: ${list(users.map((u) => shownName(tx, u)))}.`, data: { users, deadline } }]
      : [];
    // Someone's reminder comes later (a shorter lead): the run comes back then.
    const control = next !== null ? { remindAt: next, reminded: [...tx.meta.reminded, ...users] } : { reminderSentFor: deadline, reminded: [...tx.meta.reminded, ...users] };
    return { events, outbox, control, result: { campaignId: tx.meta.id, reminded: users } };
  });
}
