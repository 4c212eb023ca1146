import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgBridge, type PgBridge } from '../../../src/db/pg/bridge.js';
import { StoreUnavailableError } from '../../../src/db/storeErrors.js';
import { freshPostgresDatabase, testPostgresUrl } from '../../support/postgres.js';

/**
 * The synchronous PostgreSQL bridge against a real server: parameters and array rows, pg's errors
 * with their fields, a lost connection answered StoreUnavailableError and reopened by the next
 * query, a transaction cut by a lost connection refused until its ROLLBACK, the server's statement
 * timeout, an unreachable or silent server, and an open bridge that does not keep a process alive.
 */

let url: string;
let bridge: PgBridge;
let admin: PgBridge;

beforeAll(() => {
  url = freshPostgresDatabase();
  bridge = openPgBridge(url);
  admin = openPgBridge(testPostgresUrl());
  bridge.query('CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, on_hand boolean, note text)', []);
});
afterAll(() => {
  bridge.close();
  admin.close();
});

/** Ends the bridge's server process from outside, as an administrator's shutdown (57P01) would. */
function killConnection(of: PgBridge): void {
  admin.query('SELECT pg_terminate_backend($1)', [backendPid(of)]);
}

function backendPid(of: PgBridge): number {
  const pid = of.query('SELECT pg_backend_pid()', []).rows[0]?.[0];
  if (typeof pid !== 'number') throw new Error('no backend pid');
  return pid;
}

describe('GIVEN a bridge to a running server', () => {
  it('WHEN it runs statements with strings, numbers, booleans and null THEN rows come back as arrays in select order', () => {
    expect(bridge.query('INSERT INTO items VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)', [1, 'rope', true, null, 2, 'lamp «oil»', false, '{"a":1}']).rowCount).toBe(2);
    const read = bridge.query('SELECT name, id, on_hand, note FROM items ORDER BY id', []);
    expect(read).toEqual({ rows: [['rope', 1, true, null], ['lamp «oil»', 2, false, '{"a":1}']], rowCount: 2 });
    // int8 and numeric come back as node-pg gives them: strings.
    expect(bridge.query('SELECT count(*), 1.5::numeric FROM items', []).rows).toEqual([['2', '1.5']]);
  });

  it('WHEN the server refuses a statement THEN its error keeps code, message and detail', () => {
    let caught: unknown;
    try {
      bridge.query('INSERT INTO items VALUES ($1, $2, NULL, NULL)', [1, 'again']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).not.toBeInstanceOf(StoreUnavailableError);
    expect(caught).toMatchObject({ code: '23505', message: expect.stringContaining('items_pkey'), detail: 'Key (id)=(1) already exists.', constraint: 'items_pkey' });
    expect(bridge.query('SELECT 1', []).rows).toEqual([[1]]);
  });

  it('WHEN its connection is ended by the server THEN a query says the store is unavailable or runs on a new connection', () => {
    const before = backendPid(bridge);
    killConnection(bridge);
    // The worker may learn of the loss from the socket before the next query (and reconnect at
    // once) or from the query's failure: either way nothing runs on the dead connection.
    let first: unknown;
    try {
      first = bridge.query('SELECT pg_backend_pid()', []).rows[0]?.[0];
    } catch (error) {
      first = error;
    }
    if (typeof first === 'number') expect(first).not.toBe(before);
    else expect(first).toBeInstanceOf(StoreUnavailableError);
    expect(backendPid(bridge)).not.toBe(before);
    expect(bridge.query('SELECT count(*) FROM items', []).rows).toEqual([['2']]);
  });

  it('WHEN the connection is lost inside a transaction THEN every statement is refused until its ROLLBACK, and nothing of it was written', () => {
    bridge.query('BEGIN', []);
    bridge.query('INSERT INTO items VALUES (10, $1, NULL, NULL)', ['half']);
    killConnection(bridge);
    expect(() => bridge.query('INSERT INTO items VALUES (11, $1, NULL, NULL)', ['other half'])).toThrow(StoreUnavailableError);
    expect(() => bridge.query('INSERT INTO items VALUES (12, $1, NULL, NULL)', ['outside'])).toThrow(/lost in the middle of a transaction/);
    expect(() => bridge.query('COMMIT', [])).toThrow(StoreUnavailableError);
    bridge.query('ROLLBACK', []);
    expect(bridge.query('SELECT id FROM items WHERE id >= 10', []).rows).toEqual([]);
  });

  it('WHEN a statement runs past the timeout THEN the server cancels it, the store is unavailable, and the connection serves the next query', () => {
    const quick = openPgBridge(url, { timeoutMs: 1_500 });
    try {
      let caught: unknown;
      try {
        quick.query('SELECT pg_sleep(20)', []);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(StoreUnavailableError);
      expect((caught as StoreUnavailableError).cause).toMatchObject({ code: '57014' });
      expect(quick.query('SELECT 2', []).rows).toEqual([[2]]);
    } finally {
      quick.close();
    }
  });

  it('WHEN statements are deferred THEN they run with the next query, in order, each on its own outside a transaction, and the first failure is thrown', () => {
    bridge.defer('INSERT INTO items VALUES (50, $1, NULL, NULL)', ['first']);
    bridge.defer('INSERT INTO items VALUES (1, $1, NULL, NULL)', ['taken']);
    bridge.defer('INSERT INTO items VALUES (51, $1, NULL, NULL)', ['after']);
    expect(() => bridge.query('SELECT 1', [])).toThrow(expect.objectContaining({ code: '23505', detail: 'Key (id)=(1) already exists.' }));
    expect(bridge.query('SELECT id FROM items WHERE id >= 50 ORDER BY id', []).rows).toEqual([[50], [51]]);
    bridge.query('DELETE FROM items WHERE id >= 50', []);
  });

  it('WHEN a read is prefetched THEN it goes with the next query and is answered from there, until a write drops the answer', () => {
    const read = 'SELECT name FROM items WHERE id = $1';
    bridge.prefetch(read, [2]);
    expect(bridge.query('SELECT 1', []).rows).toEqual([[1]]);
    // Changed by another connection meanwhile: the answer given is the one read with the query above.
    const second = openPgBridge(url);
    second.query('UPDATE items SET name = $1 WHERE id = 2', ['changed']);
    second.close();
    expect(bridge.query(read, [2]).rows).toEqual([['lamp «oil»']]);
    // Used once: asked again, it is read again.
    expect(bridge.query(read, [2]).rows).toEqual([['changed']]);
    // A write after the prefetch drops its answer: the read sees the write.
    bridge.prefetch(read, [2]);
    expect(bridge.query('SELECT 1', []).rows).toEqual([[1]]);
    bridge.defer('UPDATE items SET name = $1 WHERE id = 2', ['lamp «oil»']);
    expect(bridge.query(read, [2]).rows).toEqual([['lamp «oil»']]);
  });

  it('WHEN a prefetched read\'s table is not written THEN its answer outlives writes to other tables; a write to its table, a delete or a lock drops it', () => {
    bridge.query('CREATE TABLE IF NOT EXISTS tallies (id integer PRIMARY KEY, n integer NOT NULL)', []);
    bridge.query('INSERT INTO tallies VALUES (1, 10) ON CONFLICT (id) DO UPDATE SET n = 10', []);
    const read = 'select "n" from "tallies" where "tallies"."id" = $1';
    const other = openPgBridge(url);
    try {
      /** Prefetches `read`, lets `between` run after its answer came, has another connection change the row, and asks again: the kept answer (10) or a new read (the other's value). */
      const askAfter = (between: () => void, value: number): unknown => {
        bridge.prefetch(read, [1]);
        expect(bridge.query('SELECT 1', []).rows).toEqual([[1]]);
        between();
        other.query('UPDATE tallies SET n = $1 WHERE id = 1', [value]);
        const answer = bridge.query(read, [1]).rows[0]?.[0];
        other.query('UPDATE tallies SET n = 10 WHERE id = 1', []);
        return answer;
      };
      // Writes to another table (deferred, and sent and answered): the kept answer holds.
      expect(askAfter(() => bridge.defer('insert into "items" ("id", "name") values ($1, $2)', [70, 'kept']), 11)).toBe(10);
      expect(askAfter(() => bridge.query('update "items" set "note" = $1 where "items"."id" = $2', ['x', 70]), 12)).toBe(10);
      // Its own table written, quoted or not: read again.
      expect(askAfter(() => bridge.defer('update "tallies" set "n" = "n" where "tallies"."id" = $1', [2]), 13)).toBe(13);
      expect(askAfter(() => bridge.defer('INSERT INTO tallies VALUES (2, 0) ON CONFLICT (id) DO NOTHING', []), 14)).toBe(14);
      // A delete (its cascades reach other tables) and a lock (other sessions' commits show after it): read again.
      expect(askAfter(() => bridge.defer('delete from "items" where "items"."id" = $1', [70]), 15)).toBe(15);
      expect(askAfter(() => bridge.defer('SELECT pg_advisory_lock(1)', []), 16)).toBe(16);
      bridge.query('SELECT pg_advisory_unlock(1)', []);
    } finally {
      other.close();
    }
  });

  it('WHEN deferred statements are dropped THEN they are never sent', () => {
    const mark = bridge.defer('INSERT INTO items VALUES (60, $1, NULL, NULL)', ['dropped']);
    bridge.defer('INSERT INTO items VALUES (61, $1, NULL, NULL)', ['dropped too']);
    expect(bridge.unsentFrom(mark)).toBe(2);
    expect(bridge.dropUnsent(mark)).toBe(true);
    expect(bridge.unsentFrom(mark)).toBeUndefined();
    expect(bridge.query('SELECT count(*) FROM items WHERE id >= 60', []).rows).toEqual([['0']]);
  });

  it('WHEN it is closed THEN it refuses further queries', () => {
    const short = openPgBridge(url);
    short.close();
    expect(() => short.query('SELECT 1', [])).toThrow(/closed/);
    short.close();
  });
});

describe('GIVEN no server to reach', () => {
  let silent: Server;
  let silentPort = 0;
  beforeAll(async () => {
    // Accepts connections and never answers: a server that hangs.
    silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const address = silent.address();
    silentPort = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((done) => silent.close(() => done())));

  it('WHEN nothing listens on the port THEN opening throws StoreUnavailableError naming the URL without its password', () => {
    const closedPort = silentPort === 1 ? 2 : 1;
    expect(() => openPgBridge(`postgres://bot:s3cret@127.0.0.1:${closedPort}/valormr`)).toThrow(
      new RegExp(`^the campaign store is unavailable: postgres://bot:\\*\\*\\*@127\\.0\\.0\\.1:${closedPort}/valormr: connect ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}$`),
    );
  });

  it('WHEN the server never answers THEN opening gives up after the timeout with StoreUnavailableError', () => {
    let caught: unknown;
    try {
      openPgBridge(`postgres://bot:s3cret@127.0.0.1:${silentPort}/valormr`, { timeoutMs: 1_000 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreUnavailableError);
    expect(String((caught as Error).message)).not.toContain('s3cret');
  });
});

describe('GIVEN a process with an open bridge', () => {
  it('WHEN its work is done THEN it exits by itself (the bridge keeps nothing alive)', () => {
    const bridgeModule = fileURLToPath(new URL('../../../src/db/pg/bridge.ts', import.meta.url));
    const script = `import { openPgBridge } from ${JSON.stringify(bridgeModule)};
const b = openPgBridge(${JSON.stringify(url)});
console.log(JSON.stringify(b.query('SELECT 40 + 2', []).rows));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    expect(child.signal).toBeNull();
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('[[42]]');
    expect(child.status).toBe(0);
  });
});
