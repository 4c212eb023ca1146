import { randomBytes } from 'node:crypto';
import { StoreBusyError, StoreUnavailableError } from '../db/storeErrors.js';
import { UserError } from './errors.js';
import { ephemeral, type Reply } from './messages.js';
import type { Logger } from './ports.js';

/**
 * What a person is told while the campaign store (PostgreSQL) cannot be reached. Not "nothing was
 * done": a connection lost during COMMIT leaves the outcome unknown to the bot (then /status says).
 */
export const STORE_UNAVAILABLE_TEXT = 'The campaign store is unavailable right now; try again in a minute.';

/**
 * What a person is told when another process (on the same PostgreSQL) held the campaign for longer
 * than a command waits: nothing was done, and trying again shortly works.
 */
export const STORE_BUSY_TEXT = 'This campaign is busy with another command or its tick right now, so nothing was done; try again in a moment.';

/** Whether `err` or a cause it wraps (a few deep) is what `is` looks for. */
function wraps(err: unknown, is: (e: Error) => boolean): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) if (is(e)) return true;
  return false;
}

/** Whether a failure is the store being out of reach (on the error or a cause it wraps). */
export function isStoreUnavailable(err: unknown): boolean {
  return wraps(err, (e) => e instanceof StoreUnavailableError);
}

/** Whether a failure is the campaign held by another process past the lock wait (on the error or a cause it wraps). */
export function isStoreBusy(err: unknown): boolean {
  return wraps(err, (e) => e instanceof StoreBusyError);
}

/**
 * The one error path every transport uses: a refusal (UserError) becomes its message, privately;
 * the store out of reach (its transaction rolled back or never begun) says so and to try again;
 * the campaign held by another process past the lock wait says it is busy and to try again;
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
  if (isStoreBusy(err)) {
    logger.info({ ...context, err: err instanceof Error ? err.message : String(err) }, 'the campaign is busy in another process');
    return [ephemeral(STORE_BUSY_TEXT, { error: 'storeBusy' })];
  }
  const ref = randomBytes(3).toString('hex');
  logger.error({ ...context, ref, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'command failed');
  return [ephemeral(`Something went wrong (ref ${ref}). If it happens again, give the referee or the bot's keeper this reference.`, { error: 'internal', ref })];
}
