/**
 * One delivery worker process for the two-process outbox test:
 *   node --import tsx tests/process/deliveryWorker.ts DB_PATH LOG_PATH NAME
 * Waits for a line on stdin (so both processes start together), then drains the outbox with the
 * real runDelivery; its "send" appends "<item id> <destination> <NAME>" to LOG_PATH, opened with
 * O_APPEND (one write per line, atomic between processes). Exits when nothing is left pending.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createApp } from '../../src/app/createApp.js';
import { runDelivery } from '../../src/app/outbox.js';
import { rawSqlite } from '../../src/db/client.js';

const [dbPath, logPath, name] = process.argv.slice(2);
if (!dbPath || !logPath || !name) throw new Error('usage: deliveryWorker.ts DB LOG NAME');
const app = createApp({ databasePath: dbPath });
const fd = openSync(logPath, 'a');
const pending = rawSqlite(app.db).prepare("select count(*) as n from outbox_messages where status = 'pending'");

const rl = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => rl.once('line', () => resolve()));
rl.close();

let sent = 0;
const started = Date.now();
for (;;) {
  sent += await runDelivery(app, async (item) => {
    // A send takes a little while, as a real one does, so the two workers interleave.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    writeSync(fd, `${item.id} ${item.userId ?? item.channelId} ${name}\n`);
    return 'sent';
  }, { owner: `${name}-${process.pid}`, lanes: 4, perSecond: 10_000 });
  if ((pending.get() as { n: number }).n === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
closeSync(fd);
app.close();
process.stdout.write(`${JSON.stringify({ name, sent, ms: Date.now() - started })}\n`);
