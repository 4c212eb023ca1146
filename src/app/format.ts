import { formatGameTime, type GameTime } from '../engine/clock/index.js';
import type { CampaignState } from '../engine/state/index.js';
import { escapeName } from '../engine/events/index.js';

export function gameTimeLabel(state: Pick<CampaignState, 'clock' | 'season'>, t: GameTime = state.clock): string {
  return state.season ? `${formatGameTime(t)} (${state.season})` : formatGameTime(t);
}

/** Discord timestamp markup: renders in each reader's own timezone. */
export function discordTime(iso: string, style: 'R' | 'f' | 'F' | 't' = 'f'): string {
  return `<t:${Math.floor(Date.parse(iso) / 1000)}:${style}>`;
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]];

/**
 * Formatters are built once per kind and time zone: building an Intl formatter costs far more than
 * formatting with it, and the console formats every timestamp of every line.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function formatter<F extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

/** "in 10 hours", "3 minutes ago": the largest whole unit, from `now`. */
function relative(at: Date, now: Date): string {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const [unit, size] = UNITS.find(([, n]) => Math.abs(seconds) >= n) ?? ['second', 1];
  return formatter('R', () => new Intl.RelativeTimeFormat('en', { numeric: 'auto' })).format(Math.trunc(seconds / size), unit);
}

/**
 * Discord's timestamp markup (`discordTime`) as text, in the reader's time zone (`timeZone`, else the
 * machine's): for readers outside Discord (the console, the campaign book).
 */
export function localTimes(text: string, now: Date, timeZone?: string): string {
  return text.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, unix: string, style: string | undefined) => {
    const at = new Date(Number(unix) * 1000);
    const zone = timeZone ? { timeZone } : {};
    const key = `${style ?? 'f'}|${timeZone ?? ''}`;
    switch (style) {
      case 'R':
        return relative(at, now);
      case 't':
      case 'T':
        return formatter(key, () => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', ...(style === 'T' ? { second: '2-digit' } : {}), timeZoneName: 'short', ...zone })).format(at);
      case 'd':
      case 'D':
        return formatter(key, () => new Intl.DateTimeFormat('en-GB', { dateStyle: style === 'D' ? 'long' : 'short', ...zone })).format(at);
      default:
        return formatter(key, () => new Intl.DateTimeFormat('en-GB', { weekday: style === 'F' ? 'long' : 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short', ...zone })).format(at);
    }
  });
}

/** "the Marches scenario" / "The Valormr Campaign scenario": a scenario's name after "from" or "of", with one article. */
export function scenarioPhrase(name: string): string {
  return `${/^the /i.test(name) ? '' : 'the '}${name} scenario`;
}

/**
 * Text as inline code in a Discord message, whatever it holds: in single backticks, or in double
 * ones (with a space inside each, as Discord reads them) where the text holds a backtick, so a
 * campaign named "Tom`s War" still shows its whole command as code. Text with two backticks in a
 * row cannot be one code span (three would open a code block): it is written plain, its markdown
 * escaped.
 */
export function codeSpan(text: string): string {
  if (!text.includes('`')) return `\`${text}\``;
  if (!text.includes('``')) return `\`\` ${text} \`\``;
  return escapeName(text);
}

export function list(items: readonly string[], none = '(none)'): string {
  return items.length > 0 ? items.join(', ') : none;
}
