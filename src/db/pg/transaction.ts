import type { PgBridge } from './bridge.js';

/**
 * One unit of work on PostgreSQL, synchronous like better-sqlite3's transactions:
 * - write: BEGIN; with `lockKey` (a campaign id), the campaign's advisory lock for the rest of the
 *   transaction, so two processes never interleave one campaign's writes (others run at once);
 * - read: BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY: every read sees one snapshot.
 * Then `fn`, then COMMIT; ROLLBACK if `fn` throws. A call inside `fn` nests in a SAVEPOINT that
 * alone rolls back when its `fn` throws. `fn` must not return a Promise (its awaits would run
 * after the COMMIT): that is refused and rolled back, as better-sqlite3 does.
 *
 * Round trips are what a transaction costs here, so: BEGIN, SAVEPOINT, RELEASE and the lock are
 * deferred (the bridge sends them with the transaction's first query, and an error of theirs is
 * thrown by that query, so the campaign is held from the transaction's first statement on, before
 * anything is read); a transaction that sent nothing ends without a word to the server; a
 * write's COMMIT carries its last deferred writes and waits, as it must; a read's COMMIT is sent
 * without waiting (a read-only transaction has nothing to lose, and its answer is dropped).
 */
export function pgTransaction<T>(bridge: PgBridge, mode: 'write' | 'read', fn: () => T, lockKey?: string): T {
  const depth = depths.get(bridge) ?? 0;
  const savepoint = `unit_${depth}`;
  const mark = bridge.defer(depth > 0 ? `SAVEPOINT ${savepoint}` : mode === 'write' ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []);
  depths.set(bridge, depth + 1);
  try {
    if (mode === 'write' && lockKey !== undefined) bridge.defer(CAMPAIGN_LOCK, [lockKey]);
    const result = fn();
    if (isPromise(result)) throw new TypeError('Transaction function cannot return a promise');
    // Nothing of it reached the server and nothing is left to send: it never began.
    if (bridge.unsentFrom(mark) === 1) bridge.dropUnsent(mark);
    else if (depth > 0) bridge.defer(`RELEASE SAVEPOINT ${savepoint}`, []);
    else if (mode === 'read') bridge.post('COMMIT');
    else bridge.query('COMMIT', []);
    return result;
  } catch (error) {
    rollBack(bridge, mark, depth > 0 ? savepoint : undefined);
    throw error;
  } finally {
    if (depth === 0) depths.delete(bridge);
    else depths.set(bridge, depth);
  }
}

/** The statement that holds a campaign (its id as $1) until the transaction ends. */
export const CAMPAIGN_LOCK = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';

/** Undoes the transaction (or savepoint) begun at `mark`: drops what is unsent of it, and rolls back what the server has. */
function rollBack(bridge: PgBridge, mark: number, savepoint: string | undefined): void {
  if (bridge.dropUnsent(mark)) return;
  try {
    if (savepoint === undefined) {
      bridge.query('ROLLBACK', []);
    } else {
      bridge.defer(`ROLLBACK TO SAVEPOINT ${savepoint}`, []);
      bridge.query(`RELEASE SAVEPOINT ${savepoint}`, []);
    }
  } catch {
    // The connection is gone: the server has rolled the transaction back itself. The first
    // error says what happened.
  }
}

/** How deep each bridge is in pgTransaction calls (0 or absent: in none). */
const depths = new WeakMap<PgBridge, number>();

function isPromise(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';
}
