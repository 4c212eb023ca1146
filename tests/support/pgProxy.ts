import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * A TCP relay on loopback in front of the test run's PostgreSQL: a store the test can take away and
 * give back without stopping the shared cluster (other test files use it meanwhile). `down()` cuts
 * every open connection and refuses new ones (accepted, then reset: what a client meets when the
 * server or the network is gone); `up()` lets them through again.
 * It runs on a thread of its own: the store's bridge blocks the test's thread while it waits for an
 * answer (src/db/pg/bridge.ts), and a relay on that thread would never pass the answer on.
 */
export interface PgProxy {
  /** The store's URL with its host and port replaced by the relay's. */
  readonly url: string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const RELAY = `
const { createConnection, createServer } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const open = new Set();
let cut = false;
const server = createServer((client) => {
  client.on('error', () => undefined);
  if (cut) return client.resetAndDestroy();
  const upstream = createConnection({ host: workerData.host, port: workerData.port });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  for (const s of [client, upstream]) {
    open.add(s);
    s.on('close', () => open.delete(s));
  }
  client.pipe(upstream).pipe(client);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'down') {
    cut = true;
    for (const s of open) s.resetAndDestroy();
  } else if (m === 'up') cut = false;
  else if (m === 'close') {
    for (const s of open) s.destroy();
    server.close();
  }
  parentPort.postMessage({ done: m });
});
`;

export async function pgProxy(url: string): Promise<PgProxy> {
  const target = new URL(url);
  const worker = new Worker(RELAY, { eval: true, workerData: { host: target.hostname, port: Number(target.port || 5432) } });
  const [{ port }] = (await once(worker, 'message')) as [{ port: number }];
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(port);
  const tell = async (what: string): Promise<void> => {
    worker.postMessage(what);
    for (;;) {
      const [m] = (await once(worker, 'message')) as [{ done?: string }];
      if (m.done === what) return;
    }
  };
  return {
    url: relayed.toString(),
    down: () => tell('down'),
    up: () => tell('up'),
    async close() {
      await tell('close');
      await worker.terminate();
    },
  };
}
