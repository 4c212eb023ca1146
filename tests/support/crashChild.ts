import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createApp } from '../../src/app/createApp.js';
import { seededDice } from '../../src/console/seededDice.js';
import { ManualClock } from '../../src/app/ports.js';
import { ConsoleSession } from '../../src/console/session.js';
import { rawSqlite } from '../../src/db/client.js';

/**
 * A console bot playing a campaign as fast as it can, to be killed (SIGKILL) at random moments by
 * tests/support/crashRounds.ts (tests/scenarios/crash.test.ts, `npm run bench -- --crash`): `node --import tsx crashChild.ts DB LOG SEED`. Every message the
 * console delivers is appended to LOG with its outbox id, synchronously, as the delivery happens.
 * On (re)start it creates the campaign if the database has none, delivers what is owed, and plays
 * on: orders for a few armies, then a tick, forever. It prints "ready" once it is playing.
 */
const [dbPath, logPath, seedText] = process.argv.slice(2);
if (!dbPath || !logPath) throw new Error('usage: crashChild.ts DB LOG SEED');
const app = createApp({ databasePath: dbPath, clock: new ManualClock(new Date('2026-11-22T07:00:00Z')), dice: seededDice(Number(seedText ?? 1)) });
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
for (let k = 0; ; k++) {
  await session.handle(`@alice /move army:hadewych to:${targets[k % targets.length]}`);
  await session.handle(`@carol /move army:aeskrvald to:${targets[(k + 2) % targets.length]} unformed:true`);
  await session.handle('!tick');
  const list = rawSqlite(app.db).prepare("select id from contacts where step = 'battle' and live = 1").all() as { id: string }[];
  for (const { id } of list) await session.handle(`@referee /battle result contact:${id}`);
}
