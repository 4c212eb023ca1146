import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgBridge, type PgBridge } from '../../../src/db/pg/bridge.js';
import { pgTransaction } from '../../../src/db/pg/transaction.js';
import { freshPostgresDatabase } from '../../support/postgres.js';

/** pgTransaction in one process: commit, rollback on throw, savepoints when nested, no Promises, read-only snapshots. */

let bridge: PgBridge;
let other: PgBridge;

beforeAll(() => {
  const url = freshPostgresDatabase();
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
