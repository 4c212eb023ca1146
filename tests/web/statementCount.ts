import { rawSqlite, type Database } from '../../src/db/client.js';

/**
 * Records every statement run on a database while `fn` runs, on either store: on SQLite each run
 * of a prepared statement (better-sqlite3's Statement all/get/run/iterate, whoever prepared it);
 * on PostgreSQL each statement given to the bridge (query, prefetch, defer), transaction control
 * (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) left out. Returns their SQL texts, in order.
 */
export async function statementsRun(db: Database, fn: () => unknown): Promise<string[]> {
  const texts: string[] = [];
  const restore: (() => void)[] = [];
  const wrap = <T extends object>(target: T, names: readonly string[], textOf: (self: unknown, args: unknown[]) => string): void => {
    for (const name of names) {
      const t = target as Record<string, unknown>;
      const original = t[name] as (...args: unknown[]) => unknown;
      const own = Object.prototype.hasOwnProperty.call(t, name);
      t[name] = function (this: unknown, ...args: unknown[]) {
        texts.push(textOf(this, args));
        return original.apply(this, args);
      };
      restore.push(() => (own ? (t[name] = original) : delete t[name]));
    }
  };
  if (db.dialect === 'sqlite') {
    const proto = Object.getPrototypeOf(rawSqlite(db).prepare('select 1')) as object;
    wrap(proto, ['all', 'get', 'run', 'iterate'], (self) => (self as { source: string }).source);
  } else {
    wrap(db.bridge, ['query', 'prefetch', 'defer'], (_self, args) => String(args[0]));
  }
  try {
    await fn();
  } finally {
    for (const r of restore.reverse()) r();
  }
  return texts.filter((t) => !/^\s*(begin|commit|rollback|savepoint|release|set transaction|start transaction)\b/i.test(t));
}
