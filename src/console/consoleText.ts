import { cardText, type Card, type MessageButton } from '../app/messages.js';

/**
 * How a message reads on the console, which has no cards, buttons or timestamps of its own:
 * the content, each card as plain text behind a bar (as Discord shows an embed beside its
 * stripe), the buttons as the commands they stand for, and every Discord timestamp
 * (`<t:unix:style>`) in the reader's local time.
 */
export function consoleText(m: { readonly content: string; readonly cards?: readonly Card[] | undefined; readonly buttons?: readonly MessageButton[] | undefined }, now: Date, timeZone?: string): string {
  const cards = (m.cards ?? []).map((c) => cardText(c).split('\n').map((line) => `\u2502 ${line}`).join('\n'));
  const text = [m.content, ...cards].filter((t) => t.length > 0).join('\n');
  const buttons = buttonLine(m.buttons ?? []);
  return mentions(localTimes(buttons ? `${text}\n${buttons}` : text, now, timeZone));
}

/** Discord's mention markup as a reader says it: `@alice`, `@ref-role (role)`, `#channel`. */
function mentions(text: string): string {
  return text.replace(/<@&([^>\s]+)>/g, '@$1 (role)').replace(/<@!?([^>\s]+)>/g, '@$1').replace(/<#([^>\s]+)>/g, '#$1');
}

/** Buttons as the commands they stand for: `[/engage] [/delay] [/avoid to:1016 (forced march)] [do nothing]`. */
function buttonLine(buttons: readonly MessageButton[]): string {
  return buttons.map((b) => `[${b.command ?? b.label}]`).join(' ');
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

/** Discord's timestamp markup in the reader's time zone (`timeZone`, else the machine's). */
function localTimes(text: string, now: Date, timeZone?: string): string {
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
