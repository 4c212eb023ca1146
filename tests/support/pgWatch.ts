import pg from 'pg';

/**
 * The test's own view of a PostgreSQL database under a bot (the fault tests): one statement on a
 * connection of its own, and what the bot's session is doing there (the lock it waits on, the
 * tables its open transaction has written).
 */

/** One statement on its own connection. */
export async function sqlOn<T extends Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The bot's session once it waits for a lock on `table` (the test holds it): its server pid.
 * `until` is the caller's wait (it names what it waited for when it gives up).
 */
export async function waitingOn(url: string, table: string, until: (check: () => Promise<boolean>, what: string) => Promise<void>): Promise<number> {
  let waiting: { pid: number }[] = [];
  await until(async () => {
    waiting = await sqlOn<{ pid: number }>(url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1 AND pid <> pg_backend_pid()", [`%"${table}"%`]);
    return waiting.length === 1;
  }, `the bot waiting on ${table}`);
  return waiting[0]!.pid;
}

/** The tables a session has written in its open transaction (it holds their row-exclusive lock). */
export async function rowsWrittenBy(url: string, pid: number): Promise<string[]> {
  const rows = await sqlOn<{ relname: string }>(url, "SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = $1 AND l.mode = 'RowExclusiveLock' AND l.granted", [pid]);
  return rows.map((r) => r.relname);
}
