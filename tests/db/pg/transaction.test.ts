import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPgBridge, type PgBridge } from '../../../src/db/pg/bridge.js';
import { CAMPAIGN_LOCK, pgTransaction } from '../../../src/db/pg/transaction.js';
import { StoreBusyError } from '../../../src/db/storeErrors.js';
import { freshPostgresDatabase } from '../../support/postgres.js';

/**
 * pgTransaction in one process: commit, rollback on throw, savepoints when nested, no Promises,
 * read-only snapshots; and the round trips it saves: BEGIN, the lock and deferred writes sent with
 * the next statement (their errors thrown by it), a read's COMMIT not waited for, nothing sent for
 * a transaction that ran nothing.
 */

let url: string;
let bridge: PgBridge;
let other: PgBridge;

beforeAll(() => {
  url = freshPostgresDatabase();
  bridge = openPgBridge(url);
  other = openPgBridge(url);
  bridge.query('CREATE TABLE log (n integer PRIMARY KEY)', []);
});
afterAll(() => {
  bridge.close();
  other.close();
});

const logged = (): number[] => bridge.query('SELECT n FROM log ORDER BY n', []).rows.map(([n]) => Number(n));
const add = (n: number): void => void bridge.query('INSERT INTO log VALUES ($1)', [n]);

describe('GIVEN pgTransaction', () => {
  it('WHEN fn returns THEN its writes are committed and its value returned', () => {
    expect(pgTransaction(bridge, 'write', () => (add(1), 'done'), 'campaign-1')).toBe('done');
    expect(logged()).toEqual([1]);
  });

  it('WHEN fn throws THEN nothing of it is left and the error is thrown as it was', () => {
    const boom = new Error('boom');
    expect(() => pgTransaction(bridge, 'write', () => { add(2); throw boom; }, 'campaign-1')).toThrow(boom);
    expect(logged()).toEqual([1]);
  });

  it('WHEN a call nests and its fn throws THEN only the nested part is rolled back', () => {
    pgTransaction(bridge, 'write', () => {
      add(3);
      expect(() => pgTransaction(bridge, 'write', () => { add(4); throw new Error('inner'); })).toThrow('inner');
      pgTransaction(bridge, 'write', () => add(5), 'campaign-2');
    }, 'campaign-1');
    expect(logged()).toEqual([1, 3, 5]);
  });

  it('WHEN fn returns a Promise THEN it is refused and rolled back', () => {
    expect(() => pgTransaction(bridge, 'write', async () => add(6))).toThrow('Transaction function cannot return a promise');
    expect(logged()).toEqual([1, 3, 5]);
    // The bridge is out of the transaction: a new one starts cleanly.
    pgTransaction(bridge, 'write', () => add(7));
    expect(logged()).toEqual([1, 3, 5, 7]);
  });

  it('WHEN it reads THEN it sees one snapshot while another connection commits, and it may not write', () => {
    const seen = pgTransaction(bridge, 'read', () => {
      const before = logged();
      other.query('INSERT INTO log VALUES (8)', []);
      return [before, logged()];
    });
    expect(seen[1]).toEqual(seen[0]);
    expect(logged()).toEqual([1, 3, 5, 7, 8]);
    expect(() => pgTransaction(bridge, 'read', () => add(9))).toThrow(expect.objectContaining({ code: '25006' }));
  });
});

describe('GIVEN a transaction whose BEGIN, lock and writes go with its next statement', () => {
  const addOn = (to: PgBridge, n: number): void => void to.query('INSERT INTO log VALUES ($1)', [n]);

  it('WHEN the batched lock waits past lock_timeout THEN that statement throws "busy" (StoreBusyError, 55P03: another process holds the campaign, the store is fine), nothing of it is written, and the next transaction runs', () => {
    const impatient = openPgBridge(url);
    impatient.query("SET lock_timeout = '300ms'", []);
    other.query('BEGIN', []);
    other.query(CAMPAIGN_LOCK, ['campaign-9']);
    try {
      let caught: unknown;
      try {
        pgTransaction(impatient, 'write', () => addOn(impatient, 20), 'campaign-9');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(StoreBusyError);
      expect((caught as Error).cause).toMatchObject({ code: '55P03' });
    } finally {
      other.query('ROLLBACK', []);
    }
    pgTransaction(impatient, 'write', () => addOn(impatient, 21), 'campaign-9');
    impatient.close();
    expect(logged()).not.toContain(20);
    expect(logged()).toContain(21);
  });

  it('WHEN a deferred write fails THEN the COMMIT that carries it throws its error, and nothing of the transaction is written', () => {
    expect(() => pgTransaction(bridge, 'write', () => {
      add(30);
      bridge.defer('INSERT INTO log VALUES ($1)', [1]);
    })).toThrow(expect.objectContaining({ code: '23505' }));
    expect(logged()).not.toContain(30);
    // The bridge is out of the transaction: statements run on their own again.
    add(31);
    expect(logged()).toContain(31);
  });

  it('WHEN a deferred write fails THEN the next query throws its error, not its own', () => {
    expect(() => pgTransaction(bridge, 'write', () => {
      bridge.defer('INSERT INTO log VALUES ($1)', [1]);
      return logged();
    })).toThrow(expect.objectContaining({ code: '23505' }));
  });

  it('WHEN a read-only transaction ends THEN its COMMIT is sent without waiting and the next statement runs outside it', () => {
    const isolation = pgTransaction(bridge, 'read', () => bridge.query('SHOW transaction_isolation', []).rows[0]?.[0]);
    expect(isolation).toBe('repeatable read');
    expect(bridge.query('SHOW transaction_isolation', []).rows[0]?.[0]).toBe('read committed');
  });

  it('WHEN a transaction runs no statement THEN nothing is sent to the server', () => {
    const query = vi.spyOn(bridge, 'query');
    const post = vi.spyOn(bridge, 'post');
    try {
      expect(pgTransaction(bridge, 'write', () => pgTransaction(bridge, 'read', () => 'nothing'))).toBe('nothing');
      expect(pgTransaction(bridge, 'read', () => 'still nothing')).toBe('still nothing');
      expect(query).not.toHaveBeenCalled();
      expect(post).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
      post.mockRestore();
    }
  });
});
