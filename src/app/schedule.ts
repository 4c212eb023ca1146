import { echo, literal } from '../engine/events/index.js';
import { quietMinutes, type CampaignSettings } from '../engine/state/index.js';
import type { RefusalCode } from '../engine/refusalCodes.js';
import { cronParser } from './cronParser.js';
import { UserError } from './errors.js';
import { discordTime } from './format.js';
import { boundedMemo } from './scheduleMemo.js';

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
    throw new UserError('settings.badTimezone', `${echo(timezone)} is not a timezone I know. Use an IANA name such as \`timezone:Europe/Berlin\` or \`timezone:America/New_York\` or \`timezone:UTC\`.`);
  }
  const fields = cadence.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new UserError('settings.badCadence', `${echo(cadence)} is not a 5-field cron expression (minute hour day month weekday). Examples: \`cadence:"0 8,20 * * *"\` (08:00 and 20:00), \`cadence:"0 */3 * * *"\` (every 3 hours).`);
  }
  try {
    cronParser().parse(cadence, { tz: timezone }).next();
  } catch (e) {
    throw new UserError('settings.badCadence', `${echo(cadence)} is not a valid cron expression (${literal((e as Error).message)}). Examples: \`cadence:"0 8,20 * * *"\`, \`cadence:"0 */3 * * *"\`.`);
  }
}

/** Cron walks already made (pure: a busy minute asks the same of every campaign on one cadence). */
const walked = boundedMemo<number>(512);

/**
 * Per cadence and timezone, the last stretch [from, to) found between two scheduled instants: no
 * instant lies inside it after `from`, so every `after` in it has `to` next. A running bot asks
 * with its own clock's now, a different millisecond for every campaign of a busy minute: the
 * stretch answers them all with one cron walk (and two for the stretch's start).
 */
const spans = new Map<string, { readonly from: number; readonly to: number }>();
const MAX_SPANS = 256;

/** The first scheduled instant strictly after `after`, from the cadence in its timezone. */
export function nextDue(cadence: string, timezone: string, after: Date): Date {
  const key = `${cadence}|${timezone}`;
  const t = after.getTime();
  const span = spans.get(key);
  if (span && span.from <= t && t < span.to) return new Date(span.to);
  const to = walked(`next|${key}|${t}`, () => cronParser().parse(cadence, { tz: timezone, currentDate: after }).next().toDate().getTime());
  // The instant before `to` is at or before `after` (none lies between them): the stretch's start.
  const from = walked(`prev|${key}|${to}`, () => cronParser().parse(cadence, { tz: timezone, currentDate: new Date(to) }).prev().toDate().getTime());
  if (from <= t && t < to) {
    if (spans.size >= MAX_SPANS) spans.clear();
    spans.set(key, { from, to });
  }
  return new Date(to);
}

/** What the schedule reads: the cadence, its timezone, the reminder lead and the quiet hours. */
export type ScheduleSettings = Pick<CampaignSettings, 'cadence' | 'timezone' | 'reminderLeadMinutes' | 'quietHours'>;

/** One formatter per timezone (building one costs more than using it). */
const clockFormats = new Map<string, Intl.DateTimeFormat>();
function clockFormat(timezone: string): Intl.DateTimeFormat {
  let f = clockFormats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    if (clockFormats.size >= 64) clockFormats.clear();
    clockFormats.set(timezone, f);
  }
  return f;
}

/** Minutes after local midnight of an instant in a timezone. */
function localMinutes(d: Date, timezone: string): number {
  const parts = clockFormat(timezone).formatToParts(d);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/** The first instant at or after `from` whose local time (in the timezone) is `minutes` after midnight. */
function nextLocalTime(minutes: number, timezone: string, from: Date): Date {
  return new Date(walked(`local|${minutes}|${timezone}|${from.getTime()}`,
    () => cronParser().parse(`${minutes % 60} ${Math.floor(minutes / 60)} * * *`, { tz: timezone, currentDate: new Date(from.getTime() - 1) }).next().toDate().getTime()));
}

/** The last instant before `before` whose local time is `minutes` after midnight. */
function lastLocalTime(minutes: number, timezone: string, before: Date): Date {
  return new Date(walked(`last|${minutes}|${timezone}|${before.getTime()}`,
    () => cronParser().parse(`${minutes % 60} ${Math.floor(minutes / 60)} * * *`, { tz: timezone, currentDate: before }).prev().toDate().getTime()));
}

/** Whether an instant falls inside the quiet hours (start included, end not), read in the campaign's timezone. */
export function inQuietHours(d: Date, s: Pick<CampaignSettings, 'timezone' | 'quietHours'>): boolean {
  const q = s.quietHours ? quietMinutes(s.quietHours) : undefined;
  if (!q) return false;
  const m = localMinutes(d, s.timezone);
  return q.start < q.end ? m >= q.start && m < q.end : m >= q.start || m < q.end;
}

/** The instant itself, or, inside the quiet hours, the moment they end. */
export function outOfQuietHours(d: Date, s: Pick<CampaignSettings, 'timezone' | 'quietHours'>): Date {
  const q = s.quietHours ? quietMinutes(s.quietHours) : undefined;
  if (!q || !inQuietHours(d, s)) return d;
  return nextLocalTime(q.end, s.timezone, d);
}

/** A tick's due time, and the scheduled time it was moved from when that fell in the quiet hours. */
export interface ScheduledTick {
  readonly at: Date;
  readonly movedFrom?: Date;
}

/** The first scheduled instant strictly after `after`, moved to the end of the quiet hours when it falls inside them. */
export function scheduleAfter(s: ScheduleSettings, after: Date): ScheduledTick {
  const raw = nextDue(s.cadence, s.timezone, after);
  const at = outOfQuietHours(raw, s);
  return at.getTime() === raw.getTime() ? { at } : { at, movedFrom: raw };
}

/**
 * The first scheduled instant after now (out of the quiet hours), but never before the last
 * tick's run: a clock that went backwards does not schedule a tick in the past.
 */
export function scheduleFromNow(s: ScheduleSettings, now: Date, lastTickAt: string | null): ScheduledTick {
  const base = lastTickAt !== null && Date.parse(lastTickAt) > now.getTime() ? new Date(lastTickAt) : now;
  return scheduleAfter(s, base);
}

/**
 * When the reminders for a deadline are due: `reminderLeadMinutes` before it (none when 0). A
 * reminder that would fall in the quiet hours goes one minute before they begin instead.
 */
export function reminderTime(deadlineIso: string, s: Pick<CampaignSettings, 'timezone' | 'quietHours' | 'reminderLeadMinutes'>): string | null {
  if (s.reminderLeadMinutes <= 0) return null;
  const at = new Date(Date.parse(deadlineIso) - s.reminderLeadMinutes * 60_000);
  const q = s.quietHours ? quietMinutes(s.quietHours) : undefined;
  if (!q || !inQuietHours(at, s)) return at.toISOString();
  return new Date(lastLocalTime(q.start, s.timezone, new Date(at.getTime() + 1)).getTime() - 60_000).toISOString();
}

/** How the next tick reads: a Discord timestamp, relative time, and why it moved when the quiet hours moved it. */
export function nextTickText(t: ScheduledTick | string, s: Pick<CampaignSettings, 'quietHours'>): string {
  const at = typeof t === 'string' ? t : t.at.toISOString();
  const moved = typeof t !== 'string' && t.movedFrom ? `; moved from ${discordTime(t.movedFrom.toISOString(), 't')} out of the quiet hours ${s.quietHours ?? ''}` : '';
  return `${discordTime(at)} (${discordTime(at, 'R')}${moved})`;
}

/**
 * The control columns for a new deadline: the next tick at `nextIso`, its reminders due before it
 * (reminderTime), no reminder sent, no extension used, nobody ready and no early tick yet.
 */
export function deadlineControl(nextIso: string, s: Pick<CampaignSettings, 'timezone' | 'quietHours' | 'reminderLeadMinutes'>): {
  nextTickAt: string; remindAt: string | null; reminderSentFor: null; deadlineExtensions: 0; deadlineExtensionMinutes: 0; earlyFrom: null;
} {
  return { nextTickAt: nextIso, remindAt: reminderTime(nextIso, s), reminderSentFor: null, deadlineExtensions: 0, deadlineExtensionMinutes: 0, earlyFrom: null };
}

/** The instant at a local date and time in a timezone (the first, when a clock change repeats it). */
function zonedInstant(y: number, mo: number, d: number, h: number, mi: number, timezone: string): Date {
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(guess));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const offset = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute')) - guess;
  return new Date(guess - offset);
}

const UNIT_MINUTES = { m: 1, h: 60, d: 24 * 60, w: 7 * 24 * 60 } as const;

/**
 * Reads an `until:` time: a duration from now (`90m`, `12h`, `3d`, `2w`), a local date (`2026-12-01`:
 * its midnight) or date and time (`2026-12-01 18:00`) in the campaign's timezone, or an ISO
 * instant with its offset (`2026-12-01T18:00Z`). It must be in the future and at most `maxDays`
 * ahead; otherwise a UserError with `code` says what is accepted.
 */
export function parseUntil(text: string, timezone: string, now: Date, maxDays: number, code: RefusalCode): Date {
  const t = text.trim();
  const accepted = `\`until:\` takes a time after now and at most ${maxDays} days ahead: a duration (\`12h\`, \`3d\`, \`2w\`), a date (\`2026-12-01\`) or a date and time (\`2026-12-01 18:00\`) in the campaign's timezone (${timezone}).`;
  let at: Date | undefined;
  const dur = /^(\d{1,4})\s*([mhdw])$/i.exec(t);
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/.exec(t);
  if (dur) at = new Date(now.getTime() + Number(dur[1]) * UNIT_MINUTES[(dur[2] ?? 'm').toLowerCase() as keyof typeof UNIT_MINUTES] * 60_000);
  else if (local) {
    const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(local[i] ?? 0)) as [number, number, number, number, number];
    const valid = mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
    if (valid) at = zonedInstant(y, mo, d, h, mi, timezone);
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t) && !Number.isNaN(Date.parse(t))) at = new Date(t);
  if (!at) throw new UserError(code, `${echo(t)} is not a time I can read. ${accepted}`);
  if (at.getTime() <= now.getTime()) throw new UserError(code, `${discordTime(at.toISOString())} is already past. ${accepted}`);
  if (at.getTime() - now.getTime() > maxDays * 24 * 3_600_000) throw new UserError(code, `${discordTime(at.toISOString())} is more than ${maxDays} days ahead. ${accepted}`);
  return at;
}
