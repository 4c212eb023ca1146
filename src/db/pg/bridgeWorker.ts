import { workerData } from 'node:worker_threads';
import pg from 'pg';
import type { BridgeAnswer, BridgeFailure, BridgeRequest, BridgeWorkerData, PgStatement, StatementResult } from './bridgeProtocol.js';

/**
 * The PostgreSQL bridge's worker thread: owns the process's one `pg.Client`, runs each request the
 * main thread posts, posts the answer and wakes the main thread (which waits on `signal`).
 * Requests run one at a time in arrival order; a request's statements are pipelined. A lost connection is dropped and the next request
 * connects again, so the bot carries on by itself once the server is back.
 */

const data: BridgeWorkerData = workerData;
const signal = new Int32Array(data.signal);
let client: pg.Client | undefined;
let chain: Promise<void> = Promise.resolve();

data.port.on('message', (request: BridgeRequest) => {
  chain = chain.then(() => answer(request));
});

async function answer(request: BridgeRequest): Promise<void> {
  let reply: BridgeAnswer;
  try {
    if (request.kind === 'close') {
      await client?.end();
      client = undefined;
      reply = { id: request.id, results: [] };
    } else if (request.kind === 'connect') {
      await connected();
      reply = { id: request.id, results: [] };
    } else if (request.inTransaction && !client) {
      // The connection (and with it the transaction) was lost while idle: never run the rest of a
      // transaction on a new connection, outside it.
      reply = { id: request.id, index: 0, failure: { message: 'the connection was lost in the middle of a transaction', unavailable: true } };
    } else {
      reply = await runBatch(request.id, await connected(), request.statements);
    }
  } catch (error) {
    const failure = describe(error);
    if (failure.unavailable) drop();
    reply = { id: request.id, index: 0, failure };
  }
  data.port.postMessage(reply);
  Atomics.store(signal, 0, request.id);
  Atomics.notify(signal, 0);
}

/**
 * Sends every statement at once (the client pipelines: the server runs them in order while the
 * next are on the way) and collects their answers. After a failure inside a transaction the
 * server refuses the rest (25P02); the first failure is the one answered.
 */
async function runBatch(id: number, connection: pg.Client, statements: readonly PgStatement[]): Promise<BridgeAnswer> {
  const settled = await Promise.allSettled(statements.map((s) => connection.query<unknown[]>({
    text: s.text, values: [...s.params], rowMode: 'array', ...(s.name === undefined ? {} : { name: s.name }),
  })));
  const results: StatementResult[] = [];
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === 'rejected') {
      const failure = describe(outcome.reason);
      if (failure.unavailable) drop();
      return { id, index, failure };
    }
    results.push({ rows: outcome.value.rows, rowCount: outcome.value.rowCount ?? 0 });
  }
  return { id, results };
}

async function connected(): Promise<pg.Client> {
  if (client) return client;
  // Pipelined: a batch's statements go out together instead of each waiting for the one before.
  const fresh = new pg.Client({ connectionString: data.url, connectionTimeoutMillis: data.connectTimeoutMs, pipeline: true });
  // An idle connection's loss arrives as an event; forget the client, the next request reconnects.
  fresh.on('error', () => {
    if (client === fresh) drop();
  });
  fresh.on('end', () => {
    if (client === fresh) client = undefined;
  });
  try {
    await fresh.connect();
    for (const setting of data.settings) await fresh.query(setting);
  } catch (error) {
    fresh.end().catch(() => undefined);
    throw error;
  }
  client = fresh;
  return fresh;
}

function drop(): void {
  const gone = client;
  client = undefined;
  gone?.end().catch(() => undefined);
}

/** SQLSTATEs that mean the connection is gone or cannot be had (classes 08 and 57P, too many connections). */
const LOST_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

function describe(error: unknown): BridgeFailure {
  if (!(error instanceof Error)) return { message: String(error), unavailable: true };
  const fields = { code: field(error, 'code'), detail: field(error, 'detail'), hint: field(error, 'hint'), constraint: field(error, 'constraint'), table: field(error, 'table'), column: field(error, 'column') };
  const { code } = fields;
  const sqlState = code !== undefined && /^[0-9A-Z]{5}$/.test(code);
  // Not an error of the server (no SQLSTATE): the socket's (ECONNREFUSED, ECONNRESET, a timeout,
  // "Connection terminated unexpectedly"). Of the server: its connection classes.
  const unavailable = !sqlState || code.startsWith('08') || LOST_STATES.has(code);
  return {
    message: error.message,
    unavailable,
    ...(code === undefined ? {} : { code }),
    ...(fields.detail === undefined ? {} : { detail: fields.detail }),
    ...(fields.hint === undefined ? {} : { hint: fields.hint }),
    ...(fields.constraint === undefined ? {} : { constraint: fields.constraint }),
    ...(fields.table === undefined ? {} : { table: fields.table }),
    ...(fields.column === undefined ? {} : { column: fields.column }),
  };
}

function field(error: Error, name: string): string | undefined {
  const value: unknown = Reflect.get(error, name);
  return typeof value === 'string' ? value : undefined;
}
