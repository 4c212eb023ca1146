import { join } from 'node:path';
import { createApp } from '../src/app/createApp.js';
import { ManualClock } from '../src/app/ports.js';
import { ConsoleSession } from '../src/console/session.js';
import { benchDir } from './app.js';

/**
 * rss100Mb, run in a fresh process (`node --expose-gc --import tsx bench/memory.ts`, as the bench
 * itself runs): 100 Valormr campaigns on one WAL database file, each created, started and played
 * one tick with the console's `!tick` (the tick, then its public map drawn, encoded and delivered
 * as a file). Resident memory of the whole process (every thread) after a garbage collection.
 * Prints one JSON line.
 */
export async function campaignsMemory(count = 100): Promise<number> {
  const dir = benchDir();
  const app = createApp({ databasePath: join(dir, 'many.db'), clock: new ManualClock(new Date('2026-11-22T10:00:00Z')), seed: 1 });
  for (let i = 0; i < count; i++) {
    const session = new ConsoleSession(app, { where: { guildId: 'bench', channelId: `c${i}`, baseDir: process.cwd() }, outDir: join(dir, 'out'), write: () => {} });
    await session.handle(`@referee /campaign create scenario:valormr name:"Campaign ${i}"`);
    await session.handle('@referee /campaign start');
    await session.handle('!tick');
  }
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 100));
  const rss = process.memoryUsage().rss / 1024 / 1024;
  app.close();
  return rss;
}

if (process.argv[1]?.endsWith('memory.ts')) {
  const rssMb = await campaignsMemory();
  process.stdout.write(`${JSON.stringify({ rssMb })}\n`);
}
