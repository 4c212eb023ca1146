import { CopyMismatch, CopyRefused } from '../app/storeCopy.js';

/**
 * A store tool's failure as the command line prints it: a refusal or an unusable store (its
 * message names the store, a URL's password hidden, and its hint what to do); anything else with
 * its message.
 */
export function explainFailure(err: unknown): string {
  if (err instanceof CopyRefused) return `REFUSED: ${err.message}.\n  ${err.hint}`;
  if (err instanceof CopyMismatch) return `THE COPY DOES NOT MATCH ITS SOURCE: ${err.message}. The copy was rolled back: the target is as it was.`;
  const e: Error & { hint?: string } = err instanceof Error ? err : new Error(String(err));
  return `REFUSED: ${e.message}${e.hint ? `.\n  ${e.hint}` : ''}`;
}
