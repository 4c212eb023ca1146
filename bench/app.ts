import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../src/app/app.js';
import { createApp } from '../src/app/createApp.js';
import { seededDice } from '../src/console/seededDice.js';
import { ManualClock } from '../src/app/ports.js';
import { runDueTicks, sendReminders, warmMapPicture } from '../src/app/scheduler/index.js';
import { playTick } from '../src/app/turn/playTick.js';
import { ConsoleSession, type ConsoleOutput } from '../src/console/session.js';
import { DIRECTION_VECTORS, DIRECTIONS, hexKey } from '../src/engine/hex/index.js';
import { buildMap, isWater, type MapModel } from '../src/engine/map/index.js';
import type { ScenarioDoc } from '../src/engine/scenario/index.js';
import { newCampaign, validateScenario } from '../src/engine/campaign/index.js';
import { inCampaign, readCampaign } from '../src/app/unitOfWork.js';
import { closeRenderPool } from '../src/render/index.js';
import { ensureBuilt } from './startup.js';
import { line, report, stats, time, type Stats } from './stats.js';
import { syntheticScenario } from './synthetic.js';

/** Every database here is a WAL file in a fresh temporary folder, as in production (never :memory:). */
export function benchDir(): string {
  return mkdtempSync(join(tmpdir(), 'valormr-bench-'));
}

export interface Harness {
  readonly app: App & { close(): void };
  readonly session: ConsoleSession;
  readonly clock: ManualClock;
  /** What the last handled line wrote. */
  readonly out: ConsoleOutput[];
  readonly campaignId: () => string;
  handle(text: string): Promise<ConsoleOutput[]>;
  close(): void;
}

export function openHarness(databasePath: string, channelId = 'bench', outDir = join(databasePath, '..', 'out')): Harness {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const app = createApp({ databasePath, clock, dice: seededDice(1) });
  let campaignId = '';
  const out: ConsoleOutput[] = [];
  const session = new ConsoleSession(app, {
    where: { guildId: 'bench', channelId, baseDir: process.cwd() },
    outDir,
    write: (o) => {
      out.push(o);
      const id = (o.data as { campaignId?: string } | undefined)?.campaignId;
      if (id) campaignId = id;
    },
  });
  return {
    app, session, clock, out,
    campaignId: () => campaignId,
    handle: async (text) => {
      out.length = 0;
      await session.handle(text);
      return [...out];
    },
    close: () => app.close(),
  };
}

const refused = (outs: readonly ConsoleOutput[]): boolean => outs.some((o) => (o.data as { error?: string } | undefined)?.error !== undefined);

/** A small deterministic random source for the bench's choices. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 0x100000000;
  };
}

/**
 * Gives EVERY army a fresh `/move` through the console (as the referee) to a free land hex two
 * or three hexes from where it stands now, trying up to eight targets. Returns how many armies
 * took an order. Not timed.
 */
export async function orderEveryArmy(h: Harness, map: MapModel, rnd: () => number): Promise<{ ordered: number; armies: number }> {
  const state = readCampaign(h.app, { campaignId: h.campaignId() }, (tx) => tx.state);
  const armies = Object.values(state.armies).filter((a) => !a.status.destroyed);
  const held = new Set(armies.map((a) => hexKey(a.hex)));
  let ordered = 0;
  for (const a of armies) {
    for (let k = 0; k < 8; k++) {
      const d1 = DIRECTION_VECTORS[DIRECTIONS[Math.floor(rnd() * 6)] ?? 'n'];
      const d2 = DIRECTION_VECTORS[DIRECTIONS[Math.floor(rnd() * 6)] ?? 'n'];
      const steps = 2 + (k % 2);
      const to = { q: a.hex.q + d1.q * (steps - 1) + d2.q, r: a.hex.r + d1.r * (steps - 1) + d2.r };
      if (!map.inBounds(to) || isWater(map.terrainAt(to)) || held.has(hexKey(to))) continue;
      const outs = await h.handle(`@referee /move army:${a.id} to:${map.format(to)} unformed:true`);
      if (!refused(outs)) {
        ordered++;
        break;
      }
    }
  }
  return { ordered, armies: armies.length };
}

/**
 * Console commands in the app layer on the Valormr scenario, WAL database file: a mix of
 * `/army status`, `/move` (two destinations in turn, each a route search and a saved order),
 * `/turn status`, `/campaign status` and `/army edit`. Each sample is one line handled by the
 * console session (parse, command, use-case, transaction, delivery of its replies).
 */
export async function benchCommands(dir: string, store?: string): Promise<Stats> {
  const h = openHarness(store ?? join(dir, 'commands.db'), 'bench', join(dir, 'out'));
  await h.handle('@referee /campaign create scenario:valormr name:Bench');
  await h.handle('@referee /campaign assign army:hadewych user:alice');
  await h.handle('@referee /campaign start');
  const lines = [
    '@alice /army status army:hadewych',
    '@alice /move army:hadewych to:1114 unformed:true',
    '@alice /turn status',
    '@alice /move army:hadewych to:0613 unformed:true',
    '@alice /campaign status',
    '@referee /army edit army:hadewych fatigued:false',
  ];
  for (const l of lines) {
    const outs = await h.handle(l);
    if (refused(outs)) throw new Error(`bench: "${l}" was refused: ${outs.map((o) => o.content).join(' | ')}`);
  }
  for (const l of lines) for (let i = 0; i < 20; i++) await h.handle(l); // warm up
  const samples: number[] = [];
  for (let i = 0; i < 600; i++) samples.push(await time(() => h.handle(lines[i % lines.length] as string)));
  h.close();
  const st = stats(samples);
  report(`command mix incl. /move and /army status (${store ? 'PostgreSQL' : 'WAL file'})`, st, store ? 'median within 3x SQLite\'s' : 'median < 1.5 ms, p99 < 10 ms');
  return st;
}

/**
 * A whole tick of a synthetic campaign on 100 x 100 hexes (WAL file) as played: `playTick`, the
 * tick's one transaction (load, resolve every order, contacts, save, log, outbox with the map as a
 * picture to draw), then its delivery (chronicle, DMs and the 100 x 100 map drawn and encoded off
 * the main thread). The transaction alone is reported beside it.
 * Before every timed tick each army gets a fresh `/move` (untimed), and the tick meets the bot as a
 * SCHEDULED tick does (benchTickPlayed's first kind): the render thread idle-stopped, then
 * pre-warmed for the campaign's map (`warmMapPicture`, what the scheduler's minute check does a
 * minute or two before a due tick; untimed). One more tick, timed last, is the COLDEST kind: the
 * thread idle-stopped and nothing pre-warmed (a referee's `/turn advance` after a quiet spell): a new
 * render thread starts and reads the map's static layer from the file beside the database.
 */
/**
 * CPU time of this thread so far, in ms: the render thread draws a tick's map while the tick's
 * transaction still writes (src/app/pictures.ts paintEarly), and the process's CPU time would
 * count that drawing in the transaction. Linux's per-thread figure; elsewhere the process's.
 */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  }
}

export async function benchSyntheticTick(dir: string, armies: number, ticks: number): Promise<{ stats: Stats; minOrdered: number; transactionCpu: Stats; withMap: Stats; withoutMap: Stats; coldest: number }> {
  const file = join(dir, `synthetic-${armies}.json`);
  const scenario = syntheticScenario({ width: 100, height: 100, armies }) as { armies: unknown[] } & Record<string, unknown>;
  // A scenario file holds at most 500 armies (schema), so a bigger campaign gets the rest added
  // to its state after creation (the same synthetic armies, converted by the engine).
  const inFile = Math.min(armies, 400);
  const part = (from: number, to: number): ScenarioDoc => {
    const check = validateScenario({ ...scenario, armies: scenario.armies.slice(from, to) });
    if (!check.ok) throw new Error(`bench: bad synthetic scenario: ${check.problems[0]?.path} ${check.problems[0]?.message}`);
    return check.scenario;
  };
  const first = part(0, inFile);
  writeFileSync(file, JSON.stringify({ ...scenario, armies: scenario.armies.slice(0, inFile) }));
  const map = buildMap(first.map);
  const h = openHarness(join(dir, `synthetic-${armies}.db`));
  await h.handle(`@referee /campaign create name:Synthetic file:${file}`);
  if (armies > inFile) {
    const extra = newCampaign({ id: 'extra', name: 'extra', scenario: part(inFile, armies), seed: 1 }).armies;
    inCampaign(h.app, { campaignId: h.campaignId() }, (tx) => ({ state: { ...tx.state, armies: { ...tx.state.armies, ...extra } }, result: undefined }));
  }
  await h.handle('@referee /campaign start');
  const rnd = lcg(armies);
  const samples: number[] = [];
  const transaction: number[] = [];
  // The transaction's CPU time (the process's, while nothing else in it runs: the last tick's map
  // was drawn before): on a loaded machine wall time says more about the neighbours than the tick.
  const transactionCpu: number[] = [];
  // The ticks that posted a new map (drawn and encoded) apart from those that posted "Nothing moved".
  const withMap: number[] = [];
  const withoutMap: number[] = [];
  let minOrdered = Infinity;
  let coldest = 0;
  for (let i = 0; i <= ticks; i++) {
    const o = await orderEveryArmy(h, map, rnd);
    minOrdered = Math.min(minOrdered, o.ordered);
    const campaignId = h.campaignId();
    await closeRenderPool();
    if (i < ticks) await warmMapPicture(h.app, campaignId);
    let tx = 0;
    let cpu = 0;
    h.out.length = 0;
    const whole = await time(async () => {
      const c0 = threadCpuMs();
      tx = await time(() => {
        const outcome = playTick(h.app, { campaignId }, { force: true });
        if (!outcome.played) throw new Error(`bench: the tick was not played (${outcome.reason})`);
      });
      cpu = threadCpuMs() - c0;
      await h.session.flush();
    });
    if (i === ticks) {
      coldest = whole;
      break;
    }
    samples.push(whole);
    (h.out.some((o) => (o.files?.length ?? 0) > 0) ? withMap : withoutMap).push(whole);
    transaction.push(tx);
    transactionCpu.push(cpu);
  }
  h.close();
  const st = stats(samples);
  report(`tick, ${armies} armies on 100 x 100, SCHEDULED (pre-warmed), with its delivery (map drawn off-thread), ordered >= ${minOrdered}`, st, armies === 800 ? '< 250 ms' : undefined);
  report(`  of which the tick's transaction (engine + app)`, stats(transaction));
  const cpuStats = stats(transactionCpu);
  report(`  the transaction's CPU time`, cpuStats);
  const mapStats = stats(withMap);
  const noMapStats = stats(withoutMap);
  report(`  the ticks that drew a map`, mapStats);
  report(`  the ticks that drew none`, noMapStats);
  line(`  coldest (render thread idle-stopped, nothing pre-warmed), one tick: ${coldest.toFixed(2)} ms`);
  return { stats: st, minOrdered, transactionCpu: cpuStats, withMap: mapStats, withoutMap: noMapStats, coldest };
}

/**
 * The scheduler's minute scan with 1,000 running Valormr campaigns of which none is due:
 * `runDueTicks` then `sendReminders`, as the cron trigger calls them (WAL file). The clock stands
 * just after the start, so every deadline is hours away (inside the default reminder lead).
 */
export async function benchScan(dir: string, campaigns = 1000): Promise<Stats> {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const app = createApp({ databasePath: join(dir, 'scan.db'), clock, dice: seededDice(1) });
  for (let i = 0; i < campaigns; i++) {
    const session = new ConsoleSession(app, { where: { guildId: 'bench', channelId: `c${i}`, baseDir: process.cwd() }, outDir: dir, write: () => {} });
    await session.handle(`@referee /campaign create scenario:valormr name:"Campaign ${i}"`);
    await session.handle('@referee /campaign start');
  }
  clock.advance(60_000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(await time(async () => {
      const played = await runDueTicks(app);
      await sendReminders(app);
      if (played.some((r) => r.played > 0)) throw new Error('bench: a campaign was due');
    }));
  }
  app.close();
  const st = stats(samples);
  report(`scheduler scan, ${campaigns} running campaigns, none due`, st, '< 100 ms');
  return st;
}


/**
 * firstMoveMs: the first `/move` a freshly started bot handles on a 200 x 200 map. A campaign on
 * the synthetic 200 x 200 map (40 armies) is created and started here, the database closed, then
 * each run is a fresh process of the compiled bot (bench/firstMoveChild.mjs) timing its first
 * `/move` (an infantry army sent 30 hexes across the map), alternated: a restart that finds the
 * route tables the last process kept beside the database (`<database>-layers/routes/`: firstMoveMs,
 * what a restarted bot does) and one with that folder removed first, that builds them
 * (firstMoveColdMs: the first `/move` after a campaign is created or after the bot's code changed).
 * Both move the same army to the same hex. Medians of `runs` processes each.
 */
export async function benchFirstMove(dir: string, runs = 3): Promise<{ warm: Stats; cold: Stats }> {
  const file = join(dir, 'first-move.json');
  writeFileSync(file, JSON.stringify(syntheticScenario({ width: 200, height: 200, armies: 40 })));
  const databasePath = join(dir, 'first-move.db');
  const h = openHarness(databasePath, 'first-move');
  await h.handle(`@referee /campaign create name:FirstMove file:${file}`);
  await h.handle('@referee /campaign start');
  h.close();
  ensureBuilt();
  const script = fileURLToPath(new URL('./firstMoveChild.mjs', import.meta.url));
  const once = (line: string): number => {
    // Its temporary folder inside the bench's: whatever it leaves (killed mid-way) goes with the bench's.
    const r = spawnSync(process.execPath, [script, databasePath, 'first-move', line], { encoding: 'utf8', env: { ...process.env, TMPDIR: dir } });
    const last = (r.stdout ?? '').trim().split('\n').at(-1) ?? '';
    let parsed: { ms: number; refused: boolean; answer?: string };
    try {
      parsed = JSON.parse(last) as typeof parsed;
    } catch {
      throw new Error(`bench/firstMoveChild.mjs failed (exit ${r.status}): ${r.stdout}${r.stderr}`);
    }
    if (parsed.refused) throw new Error(`bench: the first /move was refused: ${parsed.answer}`);
    return parsed.ms;
  };
  const warm: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < runs; i++) {
    const line = `@referee /move army:a${i * 2} to:${i % 2 === 0 ? '032033' : '033032'}`;
    rmSync(join(`${databasePath}-layers`, 'routes'), { recursive: true, force: true });
    cold.push(once(line));
    warm.push(once(line));
  }
  const st = stats(warm);
  const coldSt = stats(cold);
  report('first /move after a restart, 200 x 200 (route tables kept)', st, '< 100 ms');
  report('  the same with no route tables on disk (built, then kept)', coldSt);
  return { warm: st, cold: coldSt };
}
