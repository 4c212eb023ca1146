/**
 * Two real OS processes deliver one outbox of 500 messages on one SQLite (WAL) file: every
 * message is sent exactly once (no duplicate, none lost) and each destination gets its messages
 * in order.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { enqueue } from '../../src/db/outboxRepo.js';
import { insertNewCampaign } from '../../src/app/insertCampaign.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { parseScenarioText } from '../../src/app/scenarios.js';
import { killAll, startProcess, botEnv } from './botProcess.js';
import { tinyScenario } from './tinyScenario.js';
import { sqlRows } from '../support/sql.js';
import { sharedTestStore } from '../support/store.js';

const dir = mkdtempSync(join(tmpdir(), 'valormr-workers-'));

afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('two delivery processes on one database', () => {
  it('GIVEN 500 queued messages to 100 destinations WHEN two processes deliver at once THEN each is sent exactly once, in order per destination', async () => {
    const db = sharedTestStore(join(dir, 'outbox.db'));
    const log = join(dir, 'sent.log');
    const app = createApp({ databasePath: db });
    const scenario = parseScenarioText(tinyScenario(), 'tiny');
    const state = newCampaign({ id: 'c1', name: 'Load', scenario, seed: 1 });
    const now = new Date().toISOString();
    insertNewCampaign(app, { meta: { guildId: 'g1', channelId: 'ch1', ownerUserId: 'u0', createdAt: now }, state, scenario, actorUserId: 'u0', events: [], outbox: [] });
    sqlRows(app.db, 'delete from outbox_messages');
    for (let i = 0; i < 500; i++) enqueue(app.db, { campaignId: 'c1', to: 'dm', userId: `u${i % 100}`, content: `message ${i}`, nonce: `m${i}` }, now);
    const ids = sqlRows(app.db, "select id, user_id from outbox_messages where status = 'pending' order by id").map(([id, userId]) => ({ id: Number(id), userId: userId as string }));
    expect(ids).toHaveLength(500);

    const workers = ['A', 'B'].map((name) => startProcess(['--import', 'tsx', 'tests/process/deliveryWorker.ts', db, log, name], botEnv({})));
    // Both load their code and connect first; then go at the same moment.
    await Promise.all(workers.map((w) => w.waitForLine((l) => l === 'ready', 120_000, `worker ready`)));
    for (const w of workers) w.child.stdin.write('go\n');
    const exits = await Promise.all(workers.map((w) => w.exited));
    expect(exits.map((e) => e.code), workers.map((w) => w.stderr.join('\n')).join('\n')).toEqual([0, 0]);
    const reports = workers.map((w) => JSON.parse(w.stdout.at(-1)!) as { name: string; sent: number; ms: number });

    expect(existsSync(log)).toBe(true);
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const sentIds = lines.map(([id]) => Number(id));
    const counts = new Map<number, number>();
    for (const id of sentIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    const twice = [...counts.values()].filter((n) => n > 1).length;
    const lost = ids.filter((r) => !counts.has(r.id)).length;
    const byWorker = Object.fromEntries(['A', 'B'].map((n) => [n, lines.filter((l) => l[2] === n).length]));
    // The figures for the report.
    console.info(`two-process outbox: ${lines.length} sends, ${counts.size} distinct, sent twice ${twice}, lost ${lost}, by worker ${JSON.stringify(byWorker)}, ms ${JSON.stringify(reports.map((r) => r.ms))}`);
    expect(twice).toBe(0);
    expect(lost).toBe(0);
    expect(lines).toHaveLength(500);
    expect(byWorker.A! > 0 && byWorker.B! > 0, 'both processes took part').toBe(true);
    expect(reports.reduce((a, r) => a + r.sent, 0)).toBe(500);
    // Per destination, the log lists the messages in the order they were queued.
    const perUser = new Map<string, number[]>();
    for (const [id, user] of lines) perUser.set(user!, [...(perUser.get(user!) ?? []), Number(id)]);
    for (const list of perUser.values()) expect(list).toEqual([...list].sort((a, b) => a - b));
    const statuses = sqlRows(app.db, 'select status, count(*) from outbox_messages group by status').map(([status, n]) => ({ status, n: Number(n) }));
    expect(statuses).toEqual([{ status: 'sent', n: 500 }]);
    app.close();
  }, 300_000);
});
