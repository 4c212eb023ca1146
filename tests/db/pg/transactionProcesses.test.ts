import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgBridge, type PgBridge } from '../../../src/db/pg/bridge.js';
import { pgTransaction } from '../../../src/db/pg/transaction.js';
import { freshPostgresDatabase } from '../../support/postgres.js';

/**
 * pgTransaction across real OS processes on one database (children: tests/support/pgTxChild.ts):
 * two writers holding the same campaign serialize, writers of different campaigns do not wait for
 * each other, a reader keeps its snapshot while another process commits, and a process killed
 * (SIGKILL) inside a transaction leaves nothing of it, nor its lock.
 */

const CHILD = fileURLToPath(new URL('../../support/pgTxChild.ts', import.meta.url));
let url: string;
let bridge: PgBridge;

beforeAll(() => {
  url = freshPostgresDatabase();
  bridge = openPgBridge(url);
  bridge.query('CREATE TABLE seqlog (key text NOT NULL, seq integer NOT NULL, pid integer NOT NULL, PRIMARY KEY (key, seq))', []);
  bridge.query('CREATE TABLE gate (open boolean)', []);
});
afterAll(() => bridge.close());

const args = (...rest: string[]): string[] => ['--import', 'tsx', CHILD, url, ...rest];
const runChild = (...rest: string[]) => spawnSync(process.execPath, args(...rest), { encoding: 'utf8', timeout: 180_000 });

function startChild(...rest: string[]): { child: ChildProcess; said: (word: string) => Promise<void>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, args(...rest), { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waiting: [string, () => void][] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const [word, done] of waiting) if (out.includes(word)) done();
  });
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const said = (word: string) => new Promise<void>((done, fail) => {
    if (out.includes(word)) done();
    else waiting.push([word, done]);
    void exit.then(() => (out.includes(word) ? done() : fail(new Error(`the child exited without saying "${word}"`))));
  });
  return { child, said, exit };
}

const seqs = (key: string): { seq: number; pid: number }[] =>
  bridge.query('SELECT seq, pid FROM seqlog WHERE key = $1 ORDER BY seq', [key]).rows.map(([seq, pid]) => ({ seq: Number(seq), pid: Number(pid) }));

describe('GIVEN two processes on one PostgreSQL database', () => {
  it('WHEN both append to the same campaign by read-modify-write at once THEN none is lost or doubled', async () => {
    const a = startChild('append', 'camp-a', '60');
    const b = startChild('append', 'camp-a', '60');
    await Promise.all([a.said('ready'), b.said('ready')]);
    bridge.query('INSERT INTO gate VALUES (true)', []);
    expect(await Promise.all([a.exit, b.exit])).toEqual([0, 0]);
    const rows = seqs('camp-a');
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.pid === a.child.pid)).toHaveLength(60);
    expect(rows.filter((r) => r.pid === b.child.pid)).toHaveLength(60);
  });

  it('WHEN one holds a campaign THEN another process writes a different campaign at once, and waits for the same one', () => {
    pgTransaction(bridge, 'write', () => {
      // The lock goes to the server with the transaction's first statement.
      seqs('camp-b');
      const other = runChild('try', 'camp-c', '20000');
      expect(other.stdout.trim()).toBe('done');
      expect(other.status).toBe(0);
      const same = runChild('try', 'camp-b', '1500');
      expect(same.stdout.trim()).toBe('55P03');
      expect(same.status).toBe(3);
    }, 'camp-b');
    expect(seqs('camp-c')).toHaveLength(1);
    expect(seqs('camp-b')).toEqual([]);
  });

  it('WHEN a reader reads while another process commits THEN it keeps one snapshot', () => {
    const [before, during] = pgTransaction(bridge, 'read', () => {
      const first = seqs('camp-d').length;
      const writer = runChild('insert', 'camp-d', '5');
      expect(writer.status).toBe(0);
      return [first, seqs('camp-d').length];
    });
    expect(during).toBe(before);
    expect(seqs('camp-d')).toHaveLength(before + 5);
  });

  it('WHEN a process is killed inside a transaction THEN nothing of it is left and its campaign is free', async () => {
    const holder = startChild('hold', 'camp-e');
    await holder.said('inside');
    holder.child.kill('SIGKILL');
    await holder.exit;
    // The lock is free again (else lock_timeout ends this wait with an error) and the row is gone.
    expect(pgTransaction(bridge, 'write', () => seqs('camp-e'), 'camp-e')).toEqual([]);
  });
});
