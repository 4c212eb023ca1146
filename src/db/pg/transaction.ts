import type { PgBridge } from './bridge.js';

/**
 * One unit of work on PostgreSQL, synchronous like better-sqlite3's transactions:
 * - write: BEGIN; with `lockKey` (a campaign id), the campaign's advisory lock for the rest of the
 *   transaction, so two processes never interleave one campaign's writes (others run at once);
 * - read: BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY: every read sees one snapshot.
 * Then `fn`, then COMMIT; ROLLBACK if `fn` throws. A call inside `fn` nests in a SAVEPOINT that
 * alone rolls back when its `fn` throws. `fn` must not return a Promise (its awaits would run
 * after the COMMIT): that is refused and rolled back, as better-sqlite3 does.
 */
export function pgTransaction<T>(bridge: PgBridge, mode: 'write' | 'read', fn: () => T, lockKey?: string): T {
  const depth = depths.get(bridge) ?? 0;
  const savepoint = `unit_${depth}`;
  bridge.query(depth > 0 ? `SAVEPOINT ${savepoint}` : mode === 'write' ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []);
  depths.set(bridge, depth + 1);
  try {
    if (mode === 'write' && lockKey !== undefined) bridge.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey]);
    const result = fn();
    if (isPromise(result)) throw new TypeError('Transaction function cannot return a promise');
    bridge.query(depth > 0 ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT', []);
    return result;
  } catch (error) {
    try {
      bridge.query(depth > 0 ? `ROLLBACK TO SAVEPOINT ${savepoint}` : 'ROLLBACK', []);
      if (depth > 0) bridge.query(`RELEASE SAVEPOINT ${savepoint}`, []);
    } catch {
      // The connection is gone: the server has rolled the transaction back itself. The first
      // error says what happened.
    }
    throw error;
  } finally {
    if (depth === 0) depths.delete(bridge);
    else depths.set(bridge, depth);
  }
}

/** How deep each bridge is in pgTransaction calls (0 or absent: in none). */
const depths = new WeakMap<PgBridge, number>();

function isPromise(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';
}
