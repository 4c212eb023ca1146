import { CronExpressionParser } from 'cron-parser';
import { UserError } from './errors.js';

/** Checks a timezone name against the runtime's IANA database. */
function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Refuses a bad cadence or timezone with an example of a good one. */
export function checkCadence(cadence: string, timezone: string): void {
  if (!validTimezone(timezone)) {
    throw new UserError('settings.badTimezone', `"${timezone}" is not a timezone I know. Use an IANA name such as \`timezone:Europe/Berlin\` or \`timezone:America/New_York\` or \`timezone:UTC\`.`);
  }
  const fields = cadence.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new UserError('settings.badCadence', `"${cadence}" is not a 5-field cron expression (minute hour day month weekday). Examples: \`cadence:"0 8,20 * * *"\` (08:00 and 20:00), \`cadence:"0 */3 * * *"\` (every 3 hours).`);
  }
  try {
    CronExpressionParser.parse(cadence, { tz: timezone }).next();
  } catch (e) {
    throw new UserError('settings.badCadence', `"${cadence}" is not a valid cron expression (${(e as Error).message}). Examples: \`cadence:"0 8,20 * * *"\`, \`cadence:"0 */3 * * *"\`.`);
  }
}

/** The first scheduled instant strictly after `after`, from the cadence in its timezone. */
export function nextDue(cadence: string, timezone: string, after: Date): Date {
  return CronExpressionParser.parse(cadence, { tz: timezone, currentDate: after }).next().toDate();
}

/**
 * The control columns for a new deadline: the next tick at `nextIso`, its reminders due `lead`
 * minutes before (none when 0), no reminder sent and no extension used yet.
 */
export function deadlineControl(nextIso: string, reminderLeadMinutes: number): {
  nextTickAt: string; remindAt: string | null; reminderSentFor: null; deadlineExtensions: 0; deadlineExtensionMinutes: 0;
} {
  const remindAt = reminderLeadMinutes > 0 ? new Date(Date.parse(nextIso) - reminderLeadMinutes * 60_000).toISOString() : null;
  return { nextTickAt: nextIso, remindAt, reminderSentFor: null, deadlineExtensions: 0, deadlineExtensionMinutes: 0 };
}

/**
 * The first scheduled instant after now, but never before the last tick's run: a clock that went
 * backwards does not schedule a tick in the past.
 */
export function nextDueFromNow(cadence: string, timezone: string, now: Date, lastTickAt: string | null): Date {
  const base = lastTickAt !== null && Date.parse(lastTickAt) > now.getTime() ? new Date(lastTickAt) : now;
  return nextDue(cadence, timezone, base);
}
