import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';

const CHILD = fileURLToPath(new URL('../support/crashChild.ts', import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
});

/** Starts the console bot on the database; resolves once it plays. */
function start(db: string, log: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CHILD, db, log, '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
    p.stdout?.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(p); });
    p.on('exit', (code, signal) => reject(new Error(`child exited early (${code ?? signal}): ${err}`)));
  });
}

function killed(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGKILL');
  });
}

interface Delivered { readonly id: number; readonly map: string | null }
const delivered = (log: string): Delivered[] =>
  existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Delivered) : [];

/**
 * Deliveries made twice that the outbox does not account for. A send and the row that records it
 * cannot be one atomic act: a kill after the sink took an item and before its row was marked sent
 * leaves that one item owed, and the next run sends it again under the same outbox id, the id
 * Discord's nonce (enforce_nonce) dedupes on. So each kill may repeat at most the one item that
 * was in flight, the last one written before it; any other repeat (a second one per kill, an
 * older item, an item sent twice within one run) is a defect.
 * `kills[k]` is how many deliveries the log held when the k-th kill landed.
 */
function unexplainedRepeats(log: readonly Delivered[], kills: readonly number[]): number[] {
  const firstAt = new Map<number, number>();
  const repeats: number[] = [];
  log.forEach((d, i) => {
    const first = firstAt.get(d.id);
    if (first === undefined) {
      firstAt.set(d.id, i);
      return;
    }
    const inFlightAtKill = kills.some((k) => first === k - 1 && i >= k);
    const repeatedBefore = log.slice(first + 1, i).some((e) => e.id === d.id);
    if (!inFlightAtKill || repeatedBefore) repeats.push(d.id);
  });
  return repeats;
}

/** The name of the map posted after the tick that played half period `index` (the new time's name). */
const HALVES = ['morning', 'afternoon', 'evening', 'night'] as const;
const mapAfter = (index: number): string => `map-day${Math.floor((index + 1) / 4) + 1}-${HALVES[(index + 1) % 4]}.png`;

describe('a crash at any moment loses no map and sends nothing twice (real processes, kill -9)', () => {
  it('GIVEN a bot killed 20 times at random moments on one database THEN every played tick has its map delivered or pending, the database is intact, and nothing went out twice but the one item in flight at a kill, again under its own id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'valormr-crash-'));
    const db = join(dir, 'crash.db');
    const log = join(dir, 'delivered.jsonl');
    const wait = new SeededDice(createRngState(20261125));
    const kills: number[] = [];
    for (let round = 0; round < 20; round++) {
      child = await start(db, log);
      await new Promise((r) => setTimeout(r, 50 + wait.roll(700, 'kill after ms')));
      await killed(child);
      kills.push(delivered(log).length);
      child = undefined;
      const check = new BetterSqlite3(db);
      try {
        expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
        const played = (check.prepare('select time_index as t from ticks').all() as { t: number }[]).map((r) => r.t);
        const maps = new Set((check.prepare("select json_extract(data, '$.map') as map from outbox_messages where json_extract(data, '$.map') is not null and status in ('pending', 'sent')").all() as { map: string }[]).map((r) => r.map));
        for (const t of played) expect(maps.has(mapAfter(t)), `round ${round}: the map after half period ${t} is neither delivered nor owed`).toBe(true);
      } finally {
        check.close();
      }
      expect(unexplainedRepeats(delivered(log), kills), `round ${round}: a message went out twice`).toEqual([]);
    }
    // One last run without a kill delivers everything owed: every played tick's map, once. It runs
    // until it has caught up (however busy the machine), then it is stopped.
    child = await start(db, log);
    const owedNow = (): { played: number[]; owed: number[] } => {
      const check = new BetterSqlite3(db, { readonly: true });
      const played = (check.prepare('select time_index as t from ticks').all() as { t: number }[]).map((r) => r.t);
      check.close();
      const sentMaps = new Set(delivered(log).flatMap((d) => (d.map ? [d.map] : [])));
      return { played, owed: played.filter((t) => !sentMaps.has(mapAfter(t))) };
    };
    while (owedNow().played.length <= 10 || owedNow().owed.length > 2) await new Promise((r) => setTimeout(r, 100));
    await killed(child);
    const { played, owed } = owedNow();
    expect(unexplainedRepeats(delivered(log), kills)).toEqual([]);
    expect(played.length).toBeGreaterThan(10);
    // The last few ticks of the final run may still be owed: every other one was delivered once.
    expect(owed.length).toBeLessThanOrEqual(2);
    // Repeats (at most one per kill, the item in flight) stay far below the deliveries made.
    const all = delivered(log);
    expect(all.length - new Set(all.map((d) => d.id)).size).toBeLessThanOrEqual(kills.length);
  }, 600_000);
});
