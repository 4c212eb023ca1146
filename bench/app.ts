import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app/createApp.js';
import { ManualClock } from '../src/app/ports.js';
import { ConsoleSession } from '../src/console/session.js';
import { playTick } from '../src/app/turn/playTick.js';
import { report, stats, time } from './stats.js';
import { syntheticScenario } from './synthetic.js';

type Session = { session: ConsoleSession; close: () => void };

async function openSession(channelId = 'bench', databasePath = ':memory:'): Promise<Session & { app: ReturnType<typeof createApp>; campaignId: () => string }> {
  const app = createApp({ databasePath, clock: new ManualClock(new Date('2026-11-22T10:00:00Z')), seed: 1 });
  let campaignId = '';
  const session = new ConsoleSession(app, {
    where: { guildId: 'bench', channelId, baseDir: process.cwd() },
    outDir: mkdtempSync(join(tmpdir(), 'valormr-bench-')),
    write: (o) => {
      const id = (o.data as { campaignId?: string } | undefined)?.campaignId;
      if (id) campaignId = id;
    },
  });
  return { app, session, close: () => app.close(), campaignId: () => campaignId };
}

/**
 * One tick as DESIGN.md measures it: weather, every order, contacts, the chronicle and the outbox
 * (delivered to the console). The map snapshot that follows a tick is measured apart (render).
 */
async function timedTick(app: ReturnType<typeof createApp>, session: ConsoleSession, campaignId: string): Promise<number> {
  return time(async () => {
    playTick(app, { campaignId });
    await session.flush();
  });
}

/** Command handling in the app layer, and whole ticks, on the Valormr scenario. */
export async function benchCommands(orders: (armyId: string) => string | undefined): Promise<void> {
  const { app, session, close, campaignId } = await openSession();
  await session.handle('@referee /campaign create scenario:valormr name:Bench');
  await session.handle('@referee /campaign assign army:hadewych user:alice');
  await session.handle('@referee /campaign start');
  const lines = ['@alice /army status army:hadewych', '@alice /turn status', '@alice /campaign status', '@referee /army edit army:hadewych fatigued:false'];
  for (const line of lines) for (let i = 0; i < 20; i++) await session.handle(line); // warm up
  const samples: number[] = [];
  for (let i = 0; i < 400; i++) samples.push(await time(() => session.handle(lines[i % lines.length] as string)));
  report('command (status, turn status, campaign status, army edit)', stats(samples), 'median < 5 ms, p99 < 25 ms');

  const armies = ['aeskrvald', 'anax', 'annemie', 'arbenshire', 'arkthark', 'eglidain', 'elding', 'elf-king', 'elf-queen', 'grallune', 'groennendr', 'grunnthraesir', 'gyrhawk', 'hadewych', 'heagh', 'kobolds', 'lizardmen', 'minke', 'noerdenheim', 'oberon', 'solon', 'throrgrmir', 'laugher', 'lanze'];
  const tickSamples: number[] = [];
  for (let i = 0; i < 24; i++) {
    for (const a of armies) {
      const o = orders(a);
      if (o) await session.handle(`@referee ${o}`);
    }
    tickSamples.push(await timedTick(app, session, campaignId()));
  }
  report('tick, Valormr, every army ordered (incl. chronicle, outbox)', stats(tickSamples), '< 50 ms');
  close();
}

/** A tick of a synthetic 200-army, 100 x 100 campaign. */
export async function benchSyntheticTick(orders: (armyId: string) => string | undefined): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-bench-'));
  const file = join(dir, 'synthetic.json');
  writeFileSync(file, JSON.stringify(syntheticScenario({ width: 100, height: 100, armies: 200 })));
  const { app, session, close, campaignId } = await openSession();
  await session.handle(`@referee /campaign create name:Synthetic file:${file}`);
  await session.handle('@referee /campaign start');
  const samples: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (let a = 0; a < 200; a++) {
      const o = orders(`a${a}`);
      if (o) await session.handle(`@referee ${o}`);
    }
    samples.push(await timedTick(app, session, campaignId()));
  }
  report('tick, synthetic 200 armies on 100 x 100 hexes', stats(samples), '< 500 ms');
  close();
}

/** Resident memory with 100 campaigns created and loaded. */
export async function benchMemory(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-bench-'));
  const sessions = [];
  const app = createApp({ databasePath: join(dir, 'many.db'), clock: new ManualClock(new Date('2026-11-22T10:00:00Z')), seed: 1 });
  for (let i = 0; i < 100; i++) {
    const session = new ConsoleSession(app, { where: { guildId: 'bench', channelId: `c${i}`, baseDir: process.cwd() }, outDir: dir, write: () => {} });
    await session.handle(`@referee /campaign create scenario:valormr name:"Campaign ${i}"`);
    await session.handle('@referee /turn status');
    sessions.push(session);
  }
  globalThis.gc?.();
  const rss = process.memoryUsage().rss / 1024 / 1024;
  process.stdout.write(`${'memory, 100 Valormr campaigns created and loaded'.padEnd(58)} rss ${rss.toFixed(0)} MB   goal: < 200 MB\n`);
  app.close();
}
