import { formatGameTime, timeIndex } from '../../engine/clock/gameTime.js';
import { REFEREE } from '../../engine/events/events.js';
import { getCampaignMeta, listCampaignIds, setSchedule } from '../../db/campaignRepo.js';
import type { App } from '../app.js';
import { discordTime, list } from '../format.js';
import { inCampaign, type Outgoing } from '../session.js';

/** What the reminder run did for one campaign. */
export interface ReminderReport {
  readonly campaignId: string;
  /** Users reminded now (each once per deadline). */
  readonly reminded: readonly string[];
}

/** The longest reminder lead a setting allows (minutes): campaigns further from their deadline are not even loaded. */
const MAX_LEAD_MS = 24 * 60 * 60_000;

const DEFAULT_ORDER_TEXT: Readonly<Record<'hold' | 'rest', string>> = {
  rest: 'it rests where it stands',
  hold: 'it holds its position',
};

/**
 * Reminds commanders before a deadline. For every running campaign whose next tick is due within
 * its reminder lead time (setting `reminderLeadMinutes`; 0 turns reminders off), each commander
 * of an army that has no order for the coming half period gets one private message naming the
 * army, the deadline (a Discord timestamp) and what the army does without orders (setting
 * `defaultOrder`). Exactly once per deadline: the message's dedupe key is
 * `remind:<campaign>:<timeIndex>:<user>`, and the campaign remembers the deadline it reminded for.
 * An army counts as having orders when it has a standing order (as `/turn status` says).
 * Never throws: failures are logged with the campaign id.
 */
export function sendReminders(app: App): ReminderReport[] {
  const reports: ReminderReport[] = [];
  let ids: string[];
  try {
    ids = listCampaignIds(app.db, 'running');
  } catch (err) {
    app.logger.error({ err: describe(err) }, 'reminders: could not list campaigns');
    return reports;
  }
  for (const campaignId of ids) {
    try {
      const r = remindCampaign(app, campaignId);
      if (r) reports.push(r);
    } catch (err) {
      app.logger.error({ campaignId, err: describe(err) }, 'reminders: failed for this campaign');
    }
  }
  return reports;
}

function describe(err: unknown): { message: string; stack?: string } {
  return err instanceof Error ? { message: err.message, ...(err.stack ? { stack: err.stack } : {}) } : { message: String(err) };
}

function remindCampaign(app: App, campaignId: string): ReminderReport | undefined {
  const now = app.clock.now();
  const meta = getCampaignMeta(app.db, campaignId);
  if (!meta?.nextTickAt || meta.reminderSentFor === meta.nextTickAt) return undefined;
  const dueMs = Date.parse(meta.nextTickAt);
  // Overdue ticks are about to be played (or wait for a battle): no reminder then.
  if (dueMs <= now.getTime() || dueMs - now.getTime() > MAX_LEAD_MS) return undefined;
  return inCampaign<ReminderReport | undefined>(app, { campaignId }, (tx) => {
    const s = tx.state;
    const deadline = tx.meta.nextTickAt;
    if (s.status !== 'running' || !deadline || tx.meta.reminderSentFor === deadline) return { result: undefined };
    const lead = s.settings.reminderLeadMinutes;
    if (lead <= 0 || Date.parse(deadline) - tx.now.getTime() > lead * 60_000 || Date.parse(deadline) <= tx.now.getTime()) return { result: undefined };
    const index = timeIndex(s.clock);
    const byUser = new Map<string, string[]>();
    for (const army of Object.values(s.armies)) {
      if (army.status.destroyed || s.orders[army.id]) continue;
      for (const m of tx.members) {
        if (m.role === 'commander' && m.armyId === army.id) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), army.name]);
      }
    }
    const when = `${discordTime(deadline, 'R')} (${discordTime(deadline)})`;
    const outbox: Outgoing[] = [...byUser].map(([userId, armies]) => ({
      to: 'dm',
      userId,
      content: `**Reminder** (${s.name}): ${armies.map((a) => `**${a}**`).join(' and ')} ${armies.length > 1 ? 'have' : 'has'} no orders for ${formatGameTime(s.clock)}. Orders close ${when}. If you give none, ${DEFAULT_ORDER_TEXT[s.settings.defaultOrder]}.`,
      data: { type: 'orderReminder', armies, deadline, timeIndex: index, defaultOrder: s.settings.defaultOrder },
      dedupeKey: `remind:${tx.meta.id}:${index}:${userId}`,
    }));
    setSchedule(tx.db, tx.meta.id, deadline, deadline);
    const users = [...byUser.keys()];
    const events = users.length > 0
      ? [{ type: 'remindersSent', audience: REFEREE, text: `Reminders sent for ${formatGameTime(s.clock)} (deadline ${discordTime(deadline)}) to: ${list(users.map((u) => tx.members.find((m) => m.userId === u)?.displayName || u))}.`, data: { users, deadline } }]
      : [];
    return { events, outbox, result: { campaignId: tx.meta.id, reminded: users } };
  });
}
