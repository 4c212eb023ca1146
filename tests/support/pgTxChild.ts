import process from 'node:process';
import { openPgBridge } from '../../src/db/pg/bridge.js';
import { pgTransaction } from '../../src/db/pg/transaction.js';

/**
 * A second process for tests/db/pg/transactionProcesses.test.ts, on the table
 * `seqlog (key text, seq integer, pid integer, PRIMARY KEY (key, seq))`:
 * `node --import tsx pgTxChild.ts URL ACTION KEY [N]`
 * - append KEY N: prints "ready", waits for a row in `gate`, then N write transactions holding KEY,
 *   each reading the key's highest seq and inserting the next (a read-modify-write);
 * - hold KEY: inserts a row in a transaction holding KEY, prints "inside", and waits forever;
 * - try KEY MS: with lock_timeout MS, one transaction holding KEY inserting a row; prints "done",
 *   or the error's SQLSTATE and exits 3;
 * - insert KEY N: inserts N rows in one transaction, without a lock.
 */
const [url, action, key, count] = process.argv.slice(2);
if (!url || !action || !key) throw new Error('usage: pgTxChild.ts URL ACTION KEY [N]');
const n = Number(count ?? 0);
const bridge = openPgBridge(url);
const nap = new Int32Array(new SharedArrayBuffer(4));
const insert = (seq: number): void => void bridge.query('INSERT INTO seqlog VALUES ($1, $2, $3)', [key, seq, process.pid]);

if (action === 'append') {
  console.log('ready');
  while (bridge.query('SELECT 1 FROM gate', []).rowCount === 0) Atomics.wait(nap, 0, 0, 10);
  for (let i = 0; i < n; i++) {
    pgTransaction(bridge, 'write', () => {
      const top = Number(bridge.query('SELECT coalesce(max(seq), 0) FROM seqlog WHERE key = $1', [key]).rows[0]?.[0]);
      insert(top + 1);
    }, key);
  }
} else if (action === 'hold') {
  pgTransaction(bridge, 'write', () => {
    insert(1);
    console.log('inside');
    for (;;) Atomics.wait(nap, 0, 0, 60_000);
  }, key);
} else if (action === 'try') {
  bridge.query(`SET lock_timeout = ${Number(count)}`, []);
  try {
    pgTransaction(bridge, 'write', () => insert(process.pid), key);
    console.log('done');
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    console.log(cause instanceof Error && 'code' in cause ? String(cause.code) : String(error));
    process.exitCode = 3;
  }
} else if (action === 'insert') {
  pgTransaction(bridge, 'write', () => {
    for (let i = 1; i <= n; i++) insert(i);
  });
}
bridge.close();
