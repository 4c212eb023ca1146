/**
 * The console's line syntax: `@USER /command [subcommand] option:value option:"two words"`.
 * Pure and transport-independent so it can be unit-tested.
 */

export type ConsoleLine =
  | { readonly kind: 'blank' }
  | { readonly kind: 'comment' }
  | { readonly kind: 'tick'; readonly count: number }
  | { readonly kind: 'now'; readonly iso: string }
  | { readonly kind: 'clock' }
  | { readonly kind: 'command'; readonly user: string; readonly command: string; readonly words: readonly string[]; readonly options: Readonly<Record<string, string>> }
  | { readonly kind: 'error'; readonly message: string };

/** The clock a script may set: the range schedules, deadlines and Discord timestamps handle. */
const CLOCK_MIN = Date.parse('1970-01-01T00:00:00Z');
const CLOCK_MAX = Date.parse('9999-12-31T23:59:59Z');

/** Splits on spaces, keeping "quoted text" (with \" escapes) together; `name:"a b"` stays one token. */
export function tokenize(text: string): string[] | { error: string } {
  const out: string[] = [];
  let cur = '';
  let inQuote = false;
  let hasToken = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inQuote) {
      if (ch === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
        cur += text[i + 1];
        i++;
      } else if (ch === '"') inQuote = false;
      else cur += ch;
    } else if (ch === '"') {
      inQuote = true;
      hasToken = true;
    } else if (/\s/.test(ch)) {
      if (hasToken) out.push(cur);
      cur = '';
      hasToken = false;
    } else {
      cur += ch;
      hasToken = true;
    }
  }
  if (inQuote) return { error: 'a quote is not closed' };
  if (hasToken) out.push(cur);
  return out;
}

export function parseLine(raw: string): ConsoleLine {
  const line = raw.trim();
  if (line === '') return { kind: 'blank' };
  if (line.startsWith('#')) return { kind: 'comment' };
  if (line.startsWith('!tick')) {
    const n = line.slice(5).trim();
    const count = n === '' ? 1 : Number(n);
    if (!Number.isInteger(count) || count < 1 || count > 100) return { kind: 'error', message: '`!tick` takes an optional count from 1 to 100, e.g. `!tick 4`.' };
    return { kind: 'tick', count };
  }
  if (line === '!clock') return { kind: 'clock' };
  if (line.startsWith('!now')) {
    const iso = line.slice(4).trim();
    const at = Date.parse(iso);
    if (Number.isNaN(at)) return { kind: 'error', message: '`!now` takes an ISO time, e.g. `!now 2026-11-22T18:00Z`.' };
    if (at < CLOCK_MIN || at > CLOCK_MAX) return { kind: 'error', message: `\`!now\` takes a time from 1970-01-01 to 9999-12-31 (schedules and deadlines are computed in that range), not ${iso.slice(0, 40)}.` };
    return { kind: 'now', iso };
  }
  const tokens = tokenize(line);
  if (!Array.isArray(tokens)) return { kind: 'error', message: `Cannot read that line: ${tokens.error}.` };
  const [userTok, cmdTok, ...rest] = tokens;
  if (!userTok?.startsWith('@') || userTok.length < 2) return { kind: 'error', message: 'A line starts with the user, e.g. `@alice /army status army:hadewych` (`@referee` is the campaign owner).' };
  if (!cmdTok?.startsWith('/') || cmdTok.length < 2) return { kind: 'error', message: `After the user comes a slash command, e.g. \`${userTok} /help\`.` };
  const words: string[] = [];
  const options: Record<string, string> = {};
  for (const t of rest) {
    const m = /^([a-z][a-z0-9_-]*):(.*)$/s.exec(t);
    if (m) options[m[1] as string] = m[2] as string;
    else words.push(t);
  }
  return { kind: 'command', user: userTok.slice(1), command: cmdTok.slice(1).toLowerCase(), words, options };
}
