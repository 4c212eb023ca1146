import type { RefusalCode } from '../engine/refusalCodes.js';
import type { Result } from '../engine/result.js';

/** Text a user typed, as a refusal quotes it: cut to about 100 characters. */
const QUOTE_MAX = 100;

/** The user's text cut for a refusal: at most QUOTE_MAX characters, an ellipsis when cut. */
export function quote(text: string): string {
  const chars = [...text];
  return chars.length <= QUOTE_MAX ? text : `${chars.slice(0, QUOTE_MAX - 1).join('')}…`;
}

/** A refusal is one Discord message: well under its 2,000 characters. */
const REFUSAL_MAX = 1_900;

/**
 * A refusal as sent: every "quoted" piece cut to QUOTE_MAX characters (refusals quote what the
 * user typed, which may be 10,000 characters), and the whole under REFUSAL_MAX.
 */
function fitRefusal(message: string): string {
  // Every pair of quotes is matched in turn (short ones too), so the scan never mistakes the text
  // between two quoted pieces for a quote of its own.
  const cut = message.replace(/"([^"]*)"/gu, (_m, inner: string) => `"${quote(inner)}"`);
  const chars = [...cut];
  return chars.length <= REFUSAL_MAX ? cut : `${chars.slice(0, REFUSAL_MAX - 1).join('')}…`;
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
