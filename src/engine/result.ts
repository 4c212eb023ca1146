import type { RefusalCode } from './refusalCodes.js';

/**
 * Expected rule failures are values, not exceptions. A violation carries a stable dotted code
 * (e.g. `move.noPath`, one of REFUSAL_CODES), a message for the user that says what would be accepted, and details.
 */
export interface Violation {
  readonly code: RefusalCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly violation: Violation };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: RefusalCode, message: string, details?: Record<string, unknown>): Result<T> {
  return details === undefined ? { ok: false, violation: { code, message } } : { ok: false, violation: { code, message, details } };
}

/**
 * Unexpected failures are bugs or broken data (a state that names an army it does not hold, a
 * contact in a step no rule knows): they throw, loudly, and the app reports them as such.
 */
export class BrokenData extends Error {
  constructor(what: string) {
    super(`broken data: ${what}`);
    this.name = 'BrokenData';
  }
}
