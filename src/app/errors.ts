import type { RefusalCode } from '../engine/refusalCodes.js';
import type { Result } from '../engine/result.js';
import { ECHO_MAX } from '../engine/events/index.js';

/**
 * Text cut to `max` characters (code points), an ellipsis when cut; with `shown`, a backslash and
 * the character it escapes (echo, escapeName) count as the one character the reader sees. Such a
 * pair is never parted, so a cut never leaves a lone backslash before the ellipsis.
 */
function cut(text: string, max: number, shown = false): string {
  const units = text.match(/\\[^]|[^]/gu) ?? [];
  const size = (u: string): number => (shown ? 1 : [...u].length);
  if (units.reduce((n, u) => n + size(u), 0) <= max) return text;
  let kept = '';
  for (let i = 0, total = 0; i < units.length && total + size(units[i]!) <= max - 1; total += size(units[i]!), i++) kept += units[i]!;
  return `${kept}\u2026`;
}

/** A refusal is one Discord message: well under its 2,000 characters. */
const REFUSAL_MAX = 1_900;

/**
 * A refusal as sent: every "quoted" piece cut to ECHO_MAX characters (refusals quote what the
 * user typed, which may be 10,000 characters: echo cuts it, this catches any other quote), and the
 * whole under REFUSAL_MAX. An escaped quote (\", as echo writes one the user typed) neither opens
 * nor closes a piece.
 */
function fitRefusal(message: string): string {
  // Every pair of quotes is matched in turn (short ones too), so the scan never mistakes the text
  // between two quoted pieces for a quote of its own.
  return cut(message.replace(/"((?:\\[^]|[^"\\])*)"/gu, (_m, inner: string) => `"${cut(inner, ECHO_MAX, true)}"`), REFUSAL_MAX);
}

/**
 * Bad input or a refused action: the user sees the message (ephemeral), nothing is logged as an
 * error. `code` is a stable dotted identifier from the one table of them (src/engine/refusalCodes.ts,
 * e.g. 'army.notYours'); the compiler refuses one that is not there.
 */
export class UserError extends Error {
  readonly code: RefusalCode;
  readonly data?: Readonly<Record<string, unknown>>;

  constructor(code: RefusalCode, message: string, data?: Record<string, unknown>) {
    super(fitRefusal(message));
    this.name = 'UserError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/**
 * An engine Result's value, or its rule violation thrown as the user's refusal (the same code,
 * message and details): the one place a use-case turns an engine failure into a UserError.
 */
export function orRefuse<T>(r: Result<T>): T {
  if (!r.ok) throw new UserError(r.violation.code, r.violation.message, r.violation.details ? { ...r.violation.details } : undefined);
  return r.value;
}
