/** Small English helpers the describers share. */

/** "A", "A and B", "A, B and C". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The text with its first letter upper case. */
export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "+1 (label)" / "-2 (label)": a modifier as the dice lines show it. */
export function signedModifier(value: number, label: string): string {
  return ` ${value >= 0 ? '+' : ''}${value} (${label})`;
}

/** What Discord would read as formatting or a mention inside a name: markdown marks, `<@id>`, `@everyone`, `:emoji:`. */
const MARKUP = /[\\*_~|`[\]<>@#:]/g;

/**
 * A name (a campaign's, an army's, a commander's: free text a referee typed) as it is written into
 * a message, so that it reads as typed: each character Discord would take for markdown or a
 * mention behind a backslash ("**Big**" stays "**Big**" and does not turn bold, or break the bold
 * around it; "<@&123>" and "@everyone" are text, not a role or a ping), and a list or quote mark
 * at its start too. Names without such characters are unchanged. The console reads the escapes
 * back (src/console/consoleText.ts); the campaign book is Markdown and keeps them.
 */
export function escapeName(name: string): string {
  return name.replace(MARKUP, '\\$&').replace(/^([-+])/, '\\$1');
}

/** Text a user typed, as an answer quotes it: cut to about this many characters. */
export const ECHO_MAX = 100;

/**
 * What a user typed (a hex, a place, an army, a time, a cadence...), as a refusal or an answer
 * quotes it in prose: between double quotes, cut to ECHO_MAX characters (an ellipsis when cut),
 * and every character Discord would read as markdown or a mention behind a backslash, so the
 * reader sees exactly what was typed ("**bold**" stays "**bold**", "<@1>" and "@everyone" are
 * text, not a mention). Inside a code span a backslash would show: there use codeSpan
 * (src/app/format.ts), not this.
 */
export function echo(text: string): string {
  const chars = [...text];
  // The double quote too, behind a backslash: it would close the echo's own quotes.
  return `"${literal(chars.length <= ECHO_MAX ? text : `${chars.slice(0, ECHO_MAX - 1).join('')}\u2026`).replace(/"/g, '\\"')}"`;
}

/**
 * Text that may hold what a user typed (a pause's reason, a library's message quoting it), in prose
 * as it stands: the marks escapeName escapes behind a backslash; a double quote is left as it is
 * (no markup; the web page, which reads these escapes back, showed the backslash before it).
 */
export function literal(text: string): string {
  return text.replace(MARKUP, '\\$&');
}

/**
 * A name that messages write as it stands (escapeName leaves it unchanged): what the names of a
 * scenario (armies, commanders, places) and of a division may hold. They are written into
 * hundreds of messages; a name that cannot turn into formatting there needs no escape in any.
 */
export function isPlainName(name: string): boolean {
  return escapeName(name) === name;
}

/**
 * Why a name that is not plain is refused, and what to do. The characters are one code span in
 * double backticks (it holds a backtick), so Discord shows each of them as it stands.
 */
export const PLAIN_NAME_RULE = 'holds a character Discord would read as formatting or a mention (``* _ ~ | ` [ ] < > @ # : \\ ``, or a - or + first): write the name without it';
