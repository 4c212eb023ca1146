import { appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import BetterSqlite3 from 'better-sqlite3';
import { createApp } from '../../src/app/createApp.js';
import { packCold } from '../../src/app/packCold.js';
import { seededDice } from '../../src/console/seededDice.js';
import { ManualClock } from '../../src/app/ports.js';
import { ConsoleSession } from '../../src/console/session.js';
import { rawSqlite } from '../../src/db/client.js';
import { startWalCheckpoints } from '../../src/db/walCheckpoints.js';

/**
 * A console bot playing a campaign as fast as it can, to be killed (SIGKILL) at random moments by
 * tests/support/crashRounds.ts (tests/scenarios/crash.test.ts, `npm run bench -- --crash`): `node --import tsx crashChild.ts DB LOG SEED`. Every message the
 * console delivers is appended to LOG with its outbox id, synchronously, as the delivery happens.
 * On (re)start it creates the campaign if the database has none, delivers what is owed, and plays
 * on: orders for a few armies, then a tick, forever; after each line the clock moves a minute (it goes
 * on after a restart) and the scheduler's packing of cold rows runs (src/app/packCold.ts), so a kill
 * lands in it too. It prints
 * "ready" once it is playing.
 */
const [dbPath, logPath, seedText] = process.argv.slice(2);
if (!dbPath || !logPath) throw new Error('usage: crashChild.ts DB LOG SEED');
/** When the last journal row was written, if any: the clock goes on from there (a restart never goes back in time). */
function lastWritten(path: string): string | null {
  if (!existsSync(path)) return null;
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return (db.prepare('select max(at) as at from journal').get() as { at: string | null }).at;
  } catch {
    return null; // no journal yet: killed before the first migration
  } finally {
    db.close();
  }
}
const clock = new ManualClock(new Date(lastWritten(dbPath) ?? '2026-11-22T07:00:00Z'));
const app = createApp({ databasePath: dbPath, clock, dice: seededDice(Number(seedText ?? 1)) });
// The WAL's checkpoint thread (src/db/walCheckpoints.ts) started as soon as anything is written and
// checkpointing every few milliseconds, so that kills land in its checkpoints too: with the bot's
// settings it starts only past 4 MB of WAL, looked at once a second: it ran in 1 run of 11. Each run with the thread
// running says so in LOG.checkpoints (crashRounds.ts counts them).
if (app.db.dialect === 'sqlite') {
  app.db.checkpoints?.stop();
  const eager = startWalCheckpoints(app.db.sqlite, dbPath, { startBytes: 1, lookMs: 10, everyMs: 10, idleLooks: 3 });
  const seen = setInterval(() => {
    if (!eager.threadRunning()) return;
    appendFileSync(`${logPath}.checkpoints`, 'x');
    clearInterval(seen);
  }, 5);
  seen.unref();
}
const session = new ConsoleSession(app, {
  where: { guildId: 'crash', channelId: 'crash', baseDir: process.cwd() },
  outDir: tmpdir(),
  saveFiles: false,
  write: (o) => {
    if (o.id !== undefined) appendFileSync(logPath, `${JSON.stringify({ id: o.id, to: o.to, user: o.user, map: (o.data as { map?: string } | undefined)?.map ?? null })}\n`);
  },
});
const exists = rawSqlite(app.db).prepare('select count(*) as n from campaigns').get() as { n: number };
if (exists.n === 0) {
  for (const line of [
    '@referee /campaign create scenario:valormr name:"Crash"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign assign army:aeskrvald user:carol',
    '@referee /campaign start',
  ]) await session.handle(line);
}
await session.flush();
process.stdout.write('ready\n');
const targets = ['1418', '2218', '0916', '1716', '2010'];
/** One line, then a minute on the clock and the scheduler's packing of what was written before it (a run is 16 rows). */
async function handle(line: string): Promise<void> {
  await session.handle(line);
  clock.advance(60_000);
  await packCold(app, 0, 16);
}
for (let k = 0; ; k++) {
  await handle(`@alice /move army:hadewych to:${targets[k % targets.length]}`);
  await handle(`@carol /move army:aeskrvald to:${targets[(k + 2) % targets.length]} unformed:true`);
  await handle('!tick');
  const list = rawSqlite(app.db).prepare("select id from contacts where step = 'battle' and live = 1").all() as { id: string }[];
  for (const { id } of list) await handle(`@referee /battle result contact:${id}`);
}
