import { randomBytes } from 'node:crypto';
import { UserError } from './errors.js';
import { ephemeral, type Reply } from './messages.js';
import type { Logger } from './ports.js';

/**
 * The one error path every transport uses: a refusal (UserError) becomes its message, privately;
 * anything else is a bug or an outage: logged with a short reference the user can quote.
 */
export function errorMessages(err: unknown, logger: Logger, context: Record<string, unknown> = {}): Reply[] {
  if (err instanceof UserError) {
    logger.debug({ ...context, code: err.code }, 'refused');
    return [ephemeral(err.message, { error: err.code, ...(err.data ? { details: err.data } : {}) })];
  }
  const ref = randomBytes(3).toString('hex');
  logger.error({ ...context, ref, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'command failed');
  return [ephemeral(`Something went wrong (ref ${ref}). If it happens again, give the referee or the bot's keeper this reference.`, { error: 'internal', ref })];
}
