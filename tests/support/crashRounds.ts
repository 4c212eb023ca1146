import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';

/**
 * Kill -9 rounds on one database (tests/scenarios/crash.test.ts runs a few on every `npm test`;
 * `npm run bench -- --crash` runs 60, the figure of issue 26). Each round starts the console bot
 * (crashChild.ts) on the database, lets it play for a random 50-750 ms once it is playing, and
 * kills it with SIGKILL; then the database is checked: intact, every played tick's map delivered
 * or owed, nothing delivered twice but the one item in flight at a kill. A last run without a kill
 * catches up on what is owed. Every finding is a sentence in `problems`; none is expected.
 */
export interface CrashFindings {
  readonly rounds: number;
  readonly problems: readonly string[];
  /** Half periods played over all runs. */
  readonly played: number;
  /** Maps still owed after the last run caught up (its last ticks may be; at most 2). */
  readonly owed: number;
  /** Deliveries made, and how many of them repeated an id (the item in flight at a kill). */
  readonly deliveries: number;
  readonly repeats: number;
}

const CHILD = fileURLToPath(new URL('./crashChild.ts', import.meta.url));
let child: ChildProcess | undefined;

/** Kills the running bot, if any (a test's afterEach). */
export function killCrashChild(): void {
  child?.kill('SIGKILL');
}

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

/** `rounds` kill -9 rounds, then a last run that catches up; the kill moments come from `seed`. */
export async function crashRounds(rounds: number, seed = 20261125): Promise<CrashFindings> {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-crash-'));
  const db = join(dir, 'crash.db');
  const log = join(dir, 'delivered.jsonl');
  const wait = new SeededDice(createRngState(seed));
  const kills: number[] = [];
  const problems: string[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      child = await start(db, log);
      await new Promise((r) => setTimeout(r, 50 + wait.roll(700, 'kill after ms')));
      await killed(child);
      kills.push(delivered(log).length);
      child = undefined;
      const check = new BetterSqlite3(db);
      try {
        const integrity = check.pragma('integrity_check', { simple: true });
        if (integrity !== 'ok') problems.push(`round ${round}: integrity_check says ${String(integrity)}`);
        const played = (check.prepare('select time_index as t from ticks').all() as { t: number }[]).map((r) => r.t);
        const maps = new Set((check.prepare("select json_extract(data, '$.map') as map from outbox_messages where json_extract(data, '$.map') is not null and status in ('pending', 'sent')").all() as { map: string }[]).map((r) => r.map));
        for (const t of played) if (!maps.has(mapAfter(t))) problems.push(`round ${round}: the map after half period ${t} is neither delivered nor owed`);
      } finally {
        check.close();
      }
      const twice = unexplainedRepeats(delivered(log), kills);
      if (twice.length > 0) problems.push(`round ${round}: outbox items ${twice.join(', ')} went out twice`);
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
    child = undefined;
    const { played, owed } = owedNow();
    const twice = unexplainedRepeats(delivered(log), kills);
    if (twice.length > 0) problems.push(`after the last run: outbox items ${twice.join(', ')} went out twice`);
    const all = delivered(log);
    return { rounds, problems, played: played.length, owed: owed.length, deliveries: all.length, repeats: all.length - new Set(all.map((d) => d.id)).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
