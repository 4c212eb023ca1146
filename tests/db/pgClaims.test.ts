/**
 * The claims on PostgreSQL, with two connections to one database (two processes, or two
 * machines). SQLite had one writer at a time; PostgreSQL at READ COMMITTED lets both statements
 * run at once, so each claim must be one a second connection can neither repeat nor wait on:
 * - the outbox: a message claimed (and not yet committed) by one worker is skipped by the other,
 *   which takes the next lanes at once (FOR UPDATE SKIP LOCKED);
 * - due ticks: a campaign one process is playing is skipped by the others' schedulers at once;
 * - interactions: the first connection to record an id runs it, the other is told no;
 * - a delivery worker's claims, when its process is gone (kill -9) on another machine: released by
 *   any other process, which sees the holder's session gone from the server (not by its pid).
 * A claim that waited on the other connection would fail the test instead of hanging it: the bridge
 * gives up a lock wait after its lock_timeout (src/db/pg/bridge.ts).
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { releaseDeadClaims } from '../../src/app/deliveryClaims.js';
import { runDueTicks } from '../../src/app/scheduler/runDueTicks.js';
import { writeTransaction, type Database } from '../../src/db/client.js';
import { claimInteraction } from '../../src/db/interactionRepo.js';
import { claimDue, claimants, connectedProcessTags, enqueue } from '../../src/db/outboxRepo.js';
import type { PgBridge } from '../../src/db/pg/bridge.js';
import { ROOT } from '../process/botProcess.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { freshPostgresDatabase } from '../support/postgres.js';

const open: { close(): void }[] = [];

/** The PostgreSQL connection under an app's store (the test takes a lock on it by hand). */
function pgBridge(db: Database): PgBridge {
  if (db.dialect !== 'postgres') throw new Error('a PostgreSQL store was expected');
  return db.bridge;
}
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** Two apps on one database, each with its own connection. */
function twoConnections(url = freshPostgresDatabase()): [ReturnType<typeof createApp>, ReturnType<typeof createApp>] {
  const first = createApp({ databasePath: url });
  const second = createApp({ databasePath: url });
  open.push(first, second);
  return [first, second];
}

/** A campaign (the shipped scenario) in its own channel, through the console; `url` its database. */
async function campaignIn(url: string, channelId: string, lines: string[] = []): Promise<Harness> {
  const h = await consoleHarness({ databasePath: url, where: { guildId: 'g', channelId }, now: '2026-11-22T10:00:00Z' });
  open.push(h);
  await h.run('@referee /campaign create scenario:valormr name:"War"', '@referee /campaign assign army:hadewych user:alice', ...lines);
  return h;
}

const idOf = (h: Harness): string => {
  const data = h.outputs.find((o) => (o.data as { campaignId?: string } | undefined)?.campaignId)?.data as { campaignId: string };
  return data.campaignId;
};

describe('claims on PostgreSQL, two connections', () => {
  it('GIVEN a worker\'s claim of the outbox not yet committed WHEN a second worker claims THEN it takes the next lanes at once: no message twice, none out of its lane\'s order', async () => {
    const url = freshPostgresDatabase();
    const h = await campaignIn(url, 'c1');
    const [a, b] = twoConnections(url);
    const now = '2026-11-22T11:00:00.000Z';
    const lease = '2026-11-22T11:02:00.000Z';
    writeTransaction(a.db, () => {
      for (let i = 0; i < 12; i++) enqueue(a.db, { campaignId: idOf(h), to: 'dm', userId: `u${i % 8}`, content: `m${i}`, nonce: `n${i}` }, now);
    });
    let first: number[] = [];
    let second: number[] = [];
    writeTransaction(a.db, () => {
      first = claimDue(a.db, 'A', now, lease, 4).map((r) => r.id);
      // Connection B runs while A's transaction holds its four rows.
      second = writeTransaction(b.db, () => claimDue(b.db, 'B', now, lease, 100).map((r) => r.id));
    });
    expect(first).toHaveLength(4);
    // The other four lanes' first messages; the second message of every lane waits for its first.
    expect(second).toHaveLength(4);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    const third = writeTransaction(b.db, () => claimDue(b.db, 'C', now, lease, 100));
    expect(third).toEqual([]);
  });

  it('GIVEN a campaign one process holds WHEN another\'s scheduler runs THEN it skips that campaign at once and plays the others; once let go, it is played', async () => {
    const url = freshPostgresDatabase();
    const due = ['@referee /campaign start'];
    const hs = [await campaignIn(url, 'c1', due), await campaignIn(url, 'c2', due), await campaignIn(url, 'c3', due)];
    const [holder, scheduler] = twoConnections(url);
    const late = new Date('2026-11-22T20:00:30Z');
    const runAt = (): ReturnType<typeof runDueTicks> => runDueTicks({ ...scheduler, clock: { now: () => late } });
    // The holder holds the first campaign as its scheduler does while playing its tick.
    const lock = (fn: string): unknown => pgBridge(holder.db).query(`select ${fn}(hashtextextended($1, 0))`, [idOf(hs[0]!)]).rows[0]?.[0];
    expect(lock('pg_try_advisory_lock')).toBe(true);
    let reports = await runAt();
    expect(Object.fromEntries(reports.map((r) => [r.campaignId, r.skipped ?? r.played]))).toEqual({ [idOf(hs[0]!)]: 'busy', [idOf(hs[1]!)]: 1, [idOf(hs[2]!)]: 1 });
    expect(lock('pg_advisory_unlock')).toBe(true);
    reports = await runAt();
    expect(reports.map((r) => [r.campaignId, r.played])).toEqual([[idOf(hs[0]!), 1]]);
  });

  it('GIVEN an interaction recorded by one connection WHEN the other records it THEN it is told no; a new one is its own', () => {
    const [a, b] = twoConnections();
    const at = '2026-11-22T10:00:00.000Z';
    const take = (db: Database, id: string): boolean => writeTransaction(db, () => claimInteraction(db, id, at));
    expect(take(a.db, 'i1')).toBe(true);
    expect(take(b.db, 'i1')).toBe(false);
    expect(take(b.db, 'i2')).toBe(true);
    expect(take(a.db, 'i2')).toBe(false);
  });

  it('GIVEN delivery claims held by a process on another machine WHEN it is connected THEN no other process releases them; WHEN it is killed -9 THEN another releases them at once (its session is gone) and claims them', async () => {
    const url = freshPostgresDatabase();
    const h = await campaignIn(url, 'c1');
    const [a] = twoConnections(url);
    const now = new Date();
    const iso = now.toISOString();
    const lease = new Date(now.getTime() + 3_600_000).toISOString();
    writeTransaction(a.db, () => {
      for (let i = 0; i < 3; i++) enqueue(a.db, { campaignId: idOf(h), to: 'dm', userId: `u${i}`, content: `m${i}`, nonce: `x${i}` }, iso);
    });
    // The other machine: a real process connected as the bot names its sessions, on a host this one
    // cannot see (its pid means nothing here). A claim of the old form (no tag) is left to its lease.
    const tag = '0123456789ab';
    const other = spawn(process.execPath, ['-e', `const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],application_name:'valormr:${tag}'});c.connect().then(()=>console.log('connected'));setInterval(()=>{},1e6)`, url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    open.push({ close: () => other.kill('SIGKILL') });
    await new Promise<void>((res, rej) => {
      other.stdout.on('data', (d: Buffer) => d.toString().includes('connected') && res());
      other.once('exit', (code) => rej(new Error(`the other machine's process exited (${code})`)));
    });
    const owner = `elsewhere.example:${process.pid}:${tag}:00000001`;
    const legacy = 'elsewhere.example:1:00000002';
    expect(writeTransaction(a.db, () => claimDue(a.db, owner, iso, lease, 2))).toHaveLength(2);
    expect(writeTransaction(a.db, () => claimDue(a.db, legacy, iso, lease, 1))).toHaveLength(1);
    expect(releaseDeadClaims(a)).toBe(0);
    expect(writeTransaction(a.db, () => claimDue(a.db, 'mine', iso, lease, 10))).toEqual([]);

    other.kill('SIGKILL');
    await new Promise((res) => other.once('exit', res));
    // The server ends the session once the socket closes (waited for on the server's own list,
    // bounded by the test's timeout); then the claims go at once, no lease waited for.
    while (connectedProcessTags(a.db)?.has(tag)) await new Promise((res) => setTimeout(res, 20));
    expect(releaseDeadClaims(a)).toBe(2);
    expect(claimants(a.db, new Date().toISOString()).sort()).toEqual([legacy]);
    expect(writeTransaction(a.db, () => claimDue(a.db, 'mine', new Date().toISOString(), lease, 10))).toHaveLength(2);
  });
});
