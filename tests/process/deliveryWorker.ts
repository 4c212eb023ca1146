/**
 * One delivery worker process for the two-process outbox test:
 *   node --import tsx tests/process/deliveryWorker.ts DB LOG_PATH NAME   (DB: a SQLite file or a PostgreSQL URL)
 * Says `ready` once loaded and connected, waits for a line on stdin (so both processes start
 * together), then drains the outbox with the real runDelivery (its sends wait until both workers
 * have claimed a message, below); its "send" appends "<item id> <destination> <NAME>" to LOG_PATH, opened with
 * O_APPEND (one write per line, atomic between processes). Exits when nothing is left pending.
 */
import { closeSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { createApp } from '../../src/app/createApp.js';
import { runDelivery } from '../../src/app/outbox.js';
import { sqlNumber } from '../support/sql.js';

const [dbPath, logPath, name] = process.argv.slice(2);
if (!dbPath || !logPath || !name) throw new Error('usage: deliveryWorker.ts DB LOG NAME');
const app = createApp({ databasePath: dbPath });
const fd = openSync(logPath, 'a');
const pending = (): number => sqlNumber(app.db, "select count(*) from outbox_messages where status = 'pending'");

/**
 * Both workers take part, however late a loaded machine lets one of them start: no send goes out
 * until each has claimed a message (each says so with a file beside the log; a worker's lanes hold
 * a claim each meanwhile, so the other always finds messages left to claim). Past a minute a worker
 * goes on alone, and the test's "both processes took part" check fails.
 */
const marks = `${basename(logPath)}.started.`;
let bothStarted: Promise<void> | undefined;
const waitForBoth = (): Promise<void> => (bothStarted ??= (async () => {
  writeFileSync(`${logPath}.started.${name}`, '');
  const deadline = Date.now() + 60_000;
  while (readdirSync(dirname(logPath)).filter((f) => f.startsWith(marks)).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
})());

// Loaded and connected: say so, then wait for the go.
process.stdout.write('ready\n');
const rl = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => rl.once('line', () => resolve()));
rl.close();

let sent = 0;
const started = Date.now();
for (;;) {
  sent += await runDelivery(app, async (item) => {
    await waitForBoth();
    // A send takes a little while, as a real one does, so the two workers interleave.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    writeSync(fd, `${item.id} ${item.userId ?? item.channelId} ${name}\n`);
    return 'sent';
  }, { owner: `${name}-${process.pid}`, lanes: 4, perSecond: 10_000 });
  if (pending() === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
closeSync(fd);
app.close();
process.stdout.write(`${JSON.stringify({ name, sent, ms: Date.now() - started })}\n`);
