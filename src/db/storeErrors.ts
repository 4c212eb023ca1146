/**
 * Errors of the campaign store that are not about the data: the store cannot be reached. Dialect
 * neutral, so the app layer may catch them without knowing which store it has.
 */

/**
 * The campaign store cannot be reached: connection refused, lost, or a query timed out. Nothing of
 * the transaction it interrupted was committed; the same command can be tried again later, and the
 * connection is reopened by itself on the next query.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';

  /** `detail` says what happened (e.g. "cannot connect to postgres://bot:***@db:5432/valormr: ECONNREFUSED"). */
  constructor(detail?: string, options?: { cause?: unknown }) {
    super(detail === undefined ? 'the campaign store is unavailable' : `the campaign store is unavailable: ${detail}`, options);
  }
}

/**
 * The campaign is held by another process (its command or its tick) for longer than a transaction
 * waits for it (PostgreSQL's lock_timeout, 10 s): nothing of this transaction was done, and the
 * store itself is fine. Not StoreUnavailableError: the person is told the campaign is busy, not that
 * the store is down, and the connection is not dropped.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';

  constructor(detail: string, options?: { cause?: unknown }) {
    super(`the campaign is busy in another process: ${detail}`, options);
  }
}

/**
 * The URL with its password replaced by `***`, for messages and logs:
 * `postgres://bot:secret@db:5432/valormr` -> `postgres://bot:***@db:5432/valormr`. A text that is not a
 * URL still loses whatever sits between `user:` and `@`.
 */
export function hidePassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
  }
}
