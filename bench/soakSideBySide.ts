import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { pruneInteractions } from '../src/app/interactionClaim.js';
import { pruneDelivered } from '../src/app/outbox.js';
import { rawSqlite } from '../src/db/client.js';
import { answerPrompts, commandLines, orderLines, recordBattles, seasonConsole, type Season } from './soakSeason.js';
import { median, round2 as round, time as timed } from './stats.js';

/** The long campaign and a fresh one in its position, timed side by side (medians, ms; ratio = long / fresh). */
export interface SideBySide {
  readonly rounds: number;
  readonly tickMs: { readonly fresh: number; readonly long: number; readonly ratio: number };
  /** A round of the timed commands (the sum of each command's median), and each command's own medians. */
  readonly commandMs: { readonly fresh: number; readonly long: number; readonly ratio: number };
  readonly commandsMs: Readonly<Record<string, { readonly fresh: number; readonly long: number; readonly ratio: number }>>;
}

/** Timings per pair side (0 the long campaign, 1 the fresh one): each timed command's (in commandLines order), and the tick's. */
interface Samples {
  readonly command: number[][][];
  readonly tick: number[][];
}

/** Untimed rounds first: the fresh copy's first write checkpoints its journal, and its render thread starts cold. */
const WARM_UP = 2;

/**
 * The history a campaign piles up as it ages, which a fresh campaign in the same position has not:
 * its journal, its event log, its played ticks (undo snapshots, book frames), delivered messages and
 * interaction claims. Everything else (the state, orders, contacts open and closed, what each army
 * knows) is the position, and stays.
 */
const HISTORY = ['DELETE FROM journal', 'DELETE FROM events', 'DELETE FROM ticks', 'DELETE FROM outbox_messages WHERE status <> \'pending\'', 'DELETE FROM interaction_claims'];

/** A fresh campaign in the long one's position: a copy of its database with the history taken out, vacuumed, opened by a second app. */
function freshCopy(long: Season, seed: number): Season {
  const databasePath = join(long.dir, 'fresh.db');
  rawSqlite(long.app.db).prepare('VACUUM INTO ?').run(databasePath);
  const raw = new Sqlite(databasePath);
  for (const statement of HISTORY) raw.prepare(statement).run();
  raw.exec('VACUUM');
  raw.close();
  const con = seasonConsole({ databasePath, dir: long.dir, seed, now: long.clock.now(), pickSeed: seed * 7919 + 1 });
  const { actor, map, armies, owner, land, watched, watcher } = long;
  return { ...con, actor, map, armies, owner, land, watched, watcher };
}

/** One half period on both: the same orders and timed commands, then each one's tick (the first of each pair alternates). */
async function playBoth(pair: readonly [Season, Season], k: number, samples?: Samples): Promise<void> {
  const [long] = pair;
  const orders = orderLines(long, k);
  const commands = commandLines(long);
  const order = k % 2 === 0 ? [0, 1] as const : [1, 0] as const;
  for (const s of pair) for (const line of orders) await s.run(line);
  for (const [j, line] of commands.entries()) {
    for (const i of order) {
      const ms = await timed(() => (pair[i] as Season).run(line));
      samples?.command[j]?.[i]?.push(ms);
    }
  }
  for (const i of order) {
    const s = pair[i] as Season;
    s.clock.advance(12 * 3600_000);
    const from = s.outputs.length;
    const ms = await timed(() => s.run('!tick'));
    samples?.tick[i]?.push(ms);
    await answerPrompts(s, s.outputs.slice(from));
    await recordBattles(s);
    pruneDelivered(s.app);
    pruneInteractions(s.app);
  }
}

/**
 * The long campaign's ticks and commands against the same on a fresh campaign in the same position,
 * in the same minutes (issue 25's "last50 <= 1.3x first50, side by side"): the fresh campaign is
 * the long one's database with its history taken out (HISTORY); both then play the same `rounds`
 * half periods, each given the same orders and the same timed commands, one after the other in
 * alternating order, and each plays its own tick. The long season goes on by these rounds.
 */
export async function sideBySide(long: Season, rounds: number, seed: number): Promise<SideBySide> {
  const fresh = freshCopy(long, seed);
  const pair = [long, fresh] as const;
  const names = commandLines(long).map((line) => line.split(' ').slice(1, 3).filter((w) => !w.includes(':')).join(' '));
  const samples: Samples = { command: names.map(() => [[], []]), tick: [[], []] };
  try {
    for (let k = 0; k < WARM_UP; k++) await playBoth(pair, k);
    for (let k = 0; k < rounds; k++) await playBoth(pair, k, samples);
  } finally {
    fresh.app.close();
  }
  const figure = (xs: number[][]): SideBySide['tickMs'] => {
    const [l, f] = [median(xs[0] ?? []), median(xs[1] ?? [])];
    return { fresh: round(f), long: round(l), ratio: f === 0 ? 0 : round(l / f) };
  };
  // Commands are timed one by one and summed: a median over the mix fell between the cheap commands
  // (/army status, /turn status: ~0.3 ms) and /move (~1.2 ms), so it read 0.9x or 2.3x on the same
  // per-command costs (session 19: per command, long against fresh, 1.00-1.20x).
  const each = samples.command.map((c) => figure(c));
  const sum = (side: 'fresh' | 'long'): number => each.reduce((t, c) => t + c[side], 0);
  const [f, l] = [sum('fresh'), sum('long')];
  return {
    rounds, tickMs: figure(samples.tick),
    commandMs: { fresh: round(f), long: round(l), ratio: f === 0 ? 0 : round(l / f) },
    commandsMs: Object.fromEntries(names.map((n, j) => [n, each[j] as SideBySide['tickMs']])),
  };
}
