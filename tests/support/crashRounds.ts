import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { splitParts, unpackText } from '../../src/db/packedText.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';

/**
 * Kill -9 rounds on one database (tests/scenarios/crash.test.ts runs a few on every `npm test`;
 * `npm run bench -- --crash` runs 60, the figure of issue 26). Each round starts the console bot
 * (crashChild.ts) on the database, lets it play for a random 50-750 ms once it is playing, and
 * kills it with SIGKILL; then the database is checked: intact, every played tick's map delivered
 * or owed, nothing delivered twice but the one item in flight at a kill, and the log (journal, events,
 * frames, which the packing of cold rows rewrites) holds every row it held before, unchanged. A last run without a kill
 * catches up on what is owed. Every finding is a sentence in `problems`; none is expected.
 */
export interface CrashFindings {
  readonly rounds: number;
  readonly problems: readonly string[];
  /** Events packed at the end by the scheduler's packing (it ran, and was killed, among the rest). */
  readonly packed: number;
  /** Half periods played over all runs. */
  readonly played: number;
  /** Maps still owed after the last run caught up (its last ticks may be; at most 2). */
  readonly owed: number;
  /** Deliveries made, and how many of them repeated an id (the item in flight at a kill). */
  readonly deliveries: number;
  readonly repeats: number;
  /** Runs of the bot in which the WAL's checkpoint thread ran (crashChild.ts starts it eagerly). */
  readonly checkpointRuns: number;
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

/**
 * The log as a reader gets it, row by row (packed rows unpacked: src/db/packedText.ts): journal rows
 * by campaign and number, events by id, frames by half period. The scheduler's packing rewrites
 * these rows (crashChild.ts runs it); a kill in the middle must lose, double or change none.
 */
function logRows(check: BetterSqlite3.Database): Map<string, string> {
  const rows = new Map<string, string>();
  const journal = check.prepare('select campaign_id as c, seq, input, dice, change, packed from journal').all() as { c: string; seq: number; input: string | null; dice: string | null; change: string | null; packed: Buffer | null }[];
  for (const r of journal) {
    const { first, rest } = r.packed ? splitParts(unpackText('journal', r.packed), 2) : { first: [r.input, r.dice], rest: r.change };
    rows.set(`journal ${r.c} ${r.seq}`, JSON.stringify([...first, rest]));
  }
  const events = check.prepare('select id, text, data, packed from events').all() as { id: number; text: string | null; data: string | null; packed: Buffer | null }[];
  for (const r of events) {
    const { first: [data = null], rest } = r.packed ? splitParts(unpackText('event', r.packed), 1) : { first: [r.data], rest: r.text ?? '' };
    rows.set(`event ${r.id}`, JSON.stringify([data, rest]));
  }
  const frames = check.prepare('select campaign_id as c, time_index as t, frame, frame_packed as packed from ticks').all() as { c: string; t: number; frame: string | null; packed: Buffer | null }[];
  for (const r of frames) rows.set(`frame ${r.c} ${r.t}`, r.packed ? unpackText('frame', r.packed) : String(r.frame));
  return rows;
}

/** What went missing or changed between two reads of the log (`logRows`), and rows both plain and packed. */
function logLosses(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>, check: BetterSqlite3.Database): string[] {
  const found: string[] = [];
  for (const [key, text] of before) {
    const now = after.get(key);
    if (now === undefined) found.push(`${key} is gone`);
    else if (now !== text) found.push(`${key} changed`);
  }
  const both = check.prepare(`select (select count(*) from journal where packed is not null and change is not null) + (select count(*) from events where packed is not null and text is not null)
    + (select count(*) from ticks where frame_packed is not null and frame is not null) as n`).get() as { n: number };
  if (both.n > 0) found.push(`${both.n} rows are both plain and packed`);
  return found.slice(0, 5);
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
  let log0 = new Map<string, string>();
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
        const rows = logRows(check);
        for (const p of logLosses(log0, rows, check)) problems.push(`round ${round}: ${p}`);
        log0 = rows;
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
    const check = new BetterSqlite3(db, { readonly: true });
    const packed = (check.prepare('select count(*) as n from events where packed is not null').get() as { n: number }).n;
    for (const p of logLosses(log0, logRows(check), check)) problems.push(`after the last run: ${p}`);
    check.close();
    const twice = unexplainedRepeats(delivered(log), kills);
    if (twice.length > 0) problems.push(`after the last run: outbox items ${twice.join(', ')} went out twice`);
    const all = delivered(log);
    const checkpointRuns = existsSync(`${log}.checkpoints`) ? readFileSync(`${log}.checkpoints`, 'utf8').length : 0;
    return { rounds, problems, packed, played: played.length, owed: owed.length, deliveries: all.length, repeats: all.length - new Set(all.map((d) => d.id)).size, checkpointRuns };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
