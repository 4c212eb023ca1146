import { randomBytes } from 'node:crypto';
import { StoreUnavailableError } from '../db/storeErrors.js';
import { UserError } from './errors.js';
import { ephemeral, type Reply } from './messages.js';
import type { Logger } from './ports.js';

/**
 * What a person is told while the campaign store (PostgreSQL) cannot be reached. Not "nothing was
 * done": a connection lost during COMMIT leaves the outcome unknown to the bot (then /status says).
 */
export const STORE_UNAVAILABLE_TEXT = 'The campaign store is unavailable right now; try again in a minute.';

/** Whether a failure is the store being out of reach (on the error or a cause it wraps). */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) if (e instanceof StoreUnavailableError) return true;
  return false;
}

/**
 * The one error path every transport uses: a refusal (UserError) becomes its message, privately;
 * the store out of reach (its transaction rolled back or never begun) says so and to try again;
 * anything else is a bug or an outage: logged with a short reference the user can quote.
 */
export function errorMessages(err: unknown, logger: Logger, context: Record<string, unknown> = {}): Reply[] {
  if (err instanceof UserError) {
    logger.debug({ ...context, code: err.code }, 'refused');
    return [ephemeral(err.message, { error: err.code, ...(err.data ? { details: err.data } : {}) })];
  }
  if (isStoreUnavailable(err)) {
    logger.warn({ ...context, err: err instanceof Error ? err.message : String(err) }, 'the campaign store is unavailable');
    return [ephemeral(STORE_UNAVAILABLE_TEXT, { error: 'storeUnavailable' })];
  }
  const ref = randomBytes(3).toString('hex');
  logger.error({ ...context, ref, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'command failed');
  return [ephemeral(`Something went wrong (ref ${ref}). If it happens again, give the referee or the bot's keeper this reference.`, { error: 'internal', ref })];
}
