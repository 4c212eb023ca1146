import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { hidePassword, StoreBusyError, StoreUnavailableError } from '../storeErrors.js';
import type { BridgeAnswer, BridgeCall, BridgeFailure, BridgeRequest, BridgeWorkerData } from './bridgeProtocol.js';

/**
 * A synchronous PostgreSQL connection for the synchronous unit of work. A worker thread owns the
 * process's one `pg.Client`; the main thread posts a query on a MessagePort, blocks on
 * `Atomics.wait` until the worker says it has answered, and takes the answer with
 * `receiveMessageOnPort` (the technique of the synckit package). Blocking on a query is what
 * better-sqlite3 does on disk, and the main thread runs one transaction at a time.
 */

/** A query's answer: rows in array mode (columns in select order), and the rows it touched. */
export interface PgResult {
  rows: unknown[][];
  rowCount: number;
}

export interface PgBridge {
  /** The URL as given (show it with hidePassword). */
  readonly url: string;
  /**
   * Runs one statement and waits for it. Parameters are strings, numbers, booleans or null. Throws
   * PostgreSQL's error (with its `code`, `detail`, ...), a StoreUnavailableError when the
   * connection is lost or the query timed out (the next query connects again), or a StoreBusyError
   * when a lock wait (another process holding the campaign) passed lock_timeout.
   */
  query(text: string, params: readonly unknown[]): PgResult;
  /** Ends the connection and the worker thread. */
  close(): void;
}

/** An error PostgreSQL answered, with its fields as pg gave them. */
class PgError extends Error {
  override readonly name = 'PgError';
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  readonly column: string | undefined;

  constructor(failure: BridgeFailure) {
    super(failure.message);
    this.code = failure.code;
    this.detail = failure.detail;
    this.hint = failure.hint;
    this.constraint = failure.constraint;
    this.table = failure.table;
    this.column = failure.column;
  }
}

/** A running worker and its channel. */
interface Link {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly signal: Int32Array;
  lastId: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;
const WORKER_START_MS = 60_000;
/** Bounds a wait for another process's campaign lock; the command is answered "busy, try again" (StoreBusyError). */
const LOCK_TIMEOUT = '10s';
/**
 * SQLSTATEs that end a statement without losing the connection, but mean "not now": the server's
 * statement timeout (57014) and a lock wait past lock_timeout (55P03).
 */
const LOCK_NOT_AVAILABLE = '55P03';
const NOT_NOW_STATES = new Set(['57014', LOCK_NOT_AVAILABLE]);

const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|end|rollback|abort)\s*(transaction|work)?\s*;?\s*$/i;
const ROLLBACK = /^\s*(rollback|abort)\s*(transaction|work)?\s*;?\s*$/i;

/**
 * Opens the bridge and connects. Throws StoreUnavailableError naming the server (password hidden)
 * when it cannot connect. `timeoutMs` bounds each query (default 30 s); the server cancels a
 * statement a little earlier, lock waits end after 10 s, and a transaction left idle by a frozen
 * process is ended by the server after twice the timeout, releasing its locks.
 */
export function openPgBridge(url: string, opts?: { timeoutMs?: number }): PgBridge {
  const timeoutMs = opts?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const settings = [
    `SET lock_timeout = '${LOCK_TIMEOUT}'`,
    `SET statement_timeout = ${Math.max(1, timeoutMs - 1_000)}`,
    `SET idle_in_transaction_session_timeout = ${timeoutMs * 2}`,
  ];
  const connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, timeoutMs);
  let link: Link | undefined;
  let closed = false;
  // The connection was lost inside a transaction: everything until its ROLLBACK is refused, so no
  // statement of it runs outside it on a new connection.
  let inTransaction = false;
  let lostTransaction = false;

  const ask = (request: BridgeCall, waitMs: number): PgResult => {
    if (closed) throw new Error('the PostgreSQL bridge is closed');
    const fresh = link === undefined;
    link ??= startLink(url, { url, settings, connectTimeoutMs });
    const current = link;
    const id = ++current.lastId;
    const message: BridgeRequest = { ...request, id };
    current.port.postMessage(message);
    // A new worker first loads (from source, through tsx: seconds on a busy machine).
    const answer = awaitAnswer(current, id, waitMs + (fresh ? WORKER_START_MS : 0));
    if (answer === undefined) {
      // The worker did not answer in time: stop it (its connection closes with it); the next query
      // starts a new one.
      link = undefined;
      void current.worker.terminate();
      throw new StoreUnavailableError(`${hidePassword(url)} did not answer within ${waitMs} ms`);
    }
    if ('failure' in answer) throw failureError(url, answer.failure);
    return { rows: answer.rows, rowCount: answer.rowCount };
  };

  const query = (text: string, params: readonly unknown[]): PgResult => {
    const ends = ENDS.test(text);
    if (lostTransaction) {
      if (!ROLLBACK.test(text)) throw new StoreUnavailableError('the connection was lost in the middle of a transaction, which was rolled back');
      lostTransaction = false;
      inTransaction = false;
      return { rows: [], rowCount: 0 };
    }
    try {
      const result = ask({ kind: 'query', text, params, inTransaction }, timeoutMs + 2_000);
      if (BEGINS.test(text)) inTransaction = true;
      else if (ends) inTransaction = false;
      return result;
    } catch (error) {
      if (ends) inTransaction = false;
      else if (inTransaction && error instanceof StoreUnavailableError && !NOT_NOW_STATES.has(codeOf(error.cause))) lostTransaction = true;
      throw error;
    }
  };

  // pg's own connect timeout bounds a server that never answers.
  ask({ kind: 'connect' }, connectTimeoutMs + 2_000);

  return {
    url,
    query,
    close(): void {
      if (closed) return;
      const current = link;
      if (current) {
        try {
          ask({ kind: 'close' }, 2_000);
        } catch {
          // Closing a bridge whose server is gone: the worker's end below closes the socket.
        }
        void current.worker.terminate();
      }
      closed = true;
      link = undefined;
    },
  };
}

/**
 * From source (TypeScript run by tsx or vitest) the worker is loaded through a small boot file
 * that registers tsx in the worker thread; compiled, the worker is plain JavaScript.
 */
function startLink(url: string, data: Omit<BridgeWorkerData, 'port' | 'signal'>): Link {
  const channel = new MessageChannel();
  const shared = new SharedArrayBuffer(4);
  const workerData: BridgeWorkerData = { ...data, url, port: channel.port2, signal: shared };
  const here = import.meta.url;
  const worker = here.endsWith('.ts')
    ? new Worker(new URL('./bridgeWorkerBoot.mjs', here), { execArgv: [], workerData, transferList: [channel.port2] })
    : new Worker(new URL('./bridgeWorker.js', here), { workerData, transferList: [channel.port2] });
  // An open bridge never keeps the process alive.
  worker.unref();
  channel.port1.unref();
  return { worker, port: channel.port1, signal: new Int32Array(shared), lastId: 0 };
}

/** Blocks until the worker has answered request `id` and returns its answer; undefined after `waitMs`. */
function awaitAnswer(link: Link, id: number, waitMs: number): BridgeAnswer | undefined {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const answered = Atomics.load(link.signal, 0);
    if (answered >= id) break;
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    Atomics.wait(link.signal, 0, answered, left);
  }
  for (let received = receiveMessageOnPort(link.port); received; received = receiveMessageOnPort(link.port)) {
    const answer: BridgeAnswer = received.message;
    if (answer.id === id) return answer;
  }
  throw new Error(`the PostgreSQL bridge's worker signalled answer ${id} but sent none`);
}

function failureError(url: string, failure: BridgeFailure): Error {
  const error = new PgError(failure);
  if (failure.unavailable) {
    // A socket's error says its code itself ("connect ECONNREFUSED 10.0.0.5:5432").
    const reason = failure.code === undefined || failure.message.includes(failure.code) ? failure.message : `${failure.code} ${failure.message}`;
    return new StoreUnavailableError(`${hidePassword(url)}: ${reason}`, { cause: error });
  }
  // A lock wait past lock_timeout: another process holds the campaign (the store is fine).
  if (failure.code === LOCK_NOT_AVAILABLE) return new StoreBusyError(failure.message, { cause: error });
  if (failure.code !== undefined && NOT_NOW_STATES.has(failure.code)) return new StoreUnavailableError(failure.message, { cause: error });
  return error;
}

function codeOf(error: unknown): string {
  return error instanceof PgError ? (error.code ?? '') : '';
}
