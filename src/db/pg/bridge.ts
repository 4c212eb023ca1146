import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { SESSION_NAME } from '../processTag.js';
import { mayChange } from './keptAnswers.js';
import { TrafficCounter } from './traffic.js';
import { hidePassword, StoreBusyError, StoreUnavailableError } from '../storeErrors.js';
import type { BridgeAnswer, BridgeCall, BridgeFailure, BridgeRequest, BridgeWorkerData, PgStatement, StatementResult } from './bridgeProtocol.js';

/**
 * A synchronous PostgreSQL connection for the synchronous unit of work. A worker thread owns the
 * process's one `pg.Client`; the main thread posts a query on a MessagePort, blocks on
 * `Atomics.wait` until the worker says it has answered, and takes the answer with
 * `receiveMessageOnPort` (the technique of the synckit package). Blocking on a query is what
 * better-sqlite3 does on disk, and the main thread runs one transaction at a time.
 */

/** A query's answer: rows in array mode (columns in select order), and the rows it touched. */
export type PgResult = StatementResult;

export interface PgBridge {
  /** The URL as given (show it with hidePassword). */
  readonly url: string;
  /**
   * Runs one statement and waits for it, sending the deferred statements before it in the same
   * round trip. `name`: keep it prepared on the connection under that name (one name, one text).
   * Throws PostgreSQL's error (with its `code`, `detail`, ...) of the first statement that failed,
   * deferred or not, a StoreUnavailableError when the connection is lost or the query timed out
   * (the next query connects again), or a StoreBusyError when a lock wait (another process holding
   * the campaign) passed lock_timeout.
   */
  query(text: string, params: readonly unknown[], name?: string): PgResult;
  /**
   * Keeps a statement whose answer nobody reads (BEGIN, a lock, a write) to go with the next
   * query, in one round trip; its error is thrown by that query (at the latest the transaction's
   * COMMIT). Returns its mark (see unsentFrom, dropUnsent).
   */
  defer(text: string, params: readonly unknown[], name?: string): number;
  /**
   * A read that will come: deferred like `defer`, and its answer kept, so that the same query
   * (text, name and parameters) asked next is answered from it without a round trip. A kept answer
   * is dropped once a statement that may change it is deferred or sent after it (an insert or
   * update of a table the read names; any other write, a lock, the transaction's end), so it is
   * only ever the answer the query would have had.
   */
  prefetch(text: string, params: readonly unknown[], name?: string): void;
  /**
   * Sends the deferred statements and this one now, without waiting for the answer, which is
   * dropped, error or not: for a read-only transaction's COMMIT.
   */
  post(text: string): void;
  /** How many deferred statements from `mark` on are still unsent; undefined when `mark` was sent. */
  unsentFrom(mark: number): number | undefined;
  /** Drops the unsent statements from `mark` on; whether `mark` itself was among them (never reached the server). */
  dropUnsent(mark: number): boolean;
  /** What this bridge has sent: round trips, posts and statements (traffic.ts). */
  readonly traffic: TrafficCounter;
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

/** Whether a transaction is open after `statement`, given whether one was before it. */
const openAfter = (statement: PgStatement, open: boolean): boolean => (BEGINS.test(statement.text) ? true : ENDS.test(statement.text) ? false : open);

/**
 * Opens the bridge and connects. Throws StoreUnavailableError naming the server (password hidden)
 * when it cannot connect. `timeoutMs` bounds each query (default 30 s); the server cancels a
 * statement a little earlier, lock waits end after 10 s, and a transaction left idle by a frozen
 * process is ended by the server after twice the timeout, releasing its locks.
 */
export function openPgBridge(url: string, opts?: { timeoutMs?: number }): PgBridge {
  const bridge = new SyncBridge(url, opts?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  bridge.connect();
  return bridge;
}

class SyncBridge implements PgBridge {
  private readonly settings: string[];
  private readonly connectTimeoutMs: number;
  private link: Link | undefined;
  private closed = false;
  /** Statements deferred and not sent yet, with their marks (increasing); `keep`: a prefetch. */
  private unsent: Unsent[] = [];
  /** Answers of prefetched reads, by query (keyOf). */
  private kept = new Map<string, Kept>();
  private nextMark = 0;
  /** Whether the statements sent so far left a transaction open. */
  private inTransaction = false;
  // The connection was lost inside a transaction: everything until its ROLLBACK is refused, so no
  // statement of it runs outside it on a new connection.
  private lostTransaction = false;
  readonly traffic = new TrafficCounter();

  constructor(readonly url: string, private readonly timeoutMs: number) {
    this.settings = [
      // Who this session is (src/db/processTag.ts): how other processes tell its claims are alive.
      `SET application_name = '${SESSION_NAME}'`,
      `SET lock_timeout = '${LOCK_TIMEOUT}'`,
      `SET statement_timeout = ${Math.max(1, timeoutMs - 1_000)}`,
      `SET idle_in_transaction_session_timeout = ${timeoutMs * 2}`,
    ];
    this.connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, timeoutMs);
  }

  /** pg's own connect timeout bounds a server that never answers. */
  connect(): void {
    this.call({ kind: 'connect' }, this.connectTimeoutMs + 2_000);
  }

  query(text: string, params: readonly unknown[], name?: string): PgResult {
    const asked: Unsent = { mark: -1, statement: statement(text, params, name) };
    const key = keyOf(asked.statement);
    // Prefetched and not sent yet: what is unsent goes now, and the prefetch's answer is this one's.
    const prefetched = this.unsent.findIndex((u) => u.keep === true && keyOf(u.statement) === key);
    const ready = this.kept.get(key);
    if (prefetched < 0 && ready) {
      this.kept.delete(key);
      return ready.result;
    }
    const sent = prefetched < 0 ? [...this.unsent, asked] : this.unsent;
    this.unsent = [];
    const results = this.send(sent.map((u) => u.statement), true) ?? [];
    this.keepAnswers(sent, results);
    const answer = prefetched < 0 ? results.at(-1) : results[prefetched];
    if (!answer) throw new Error('the PostgreSQL bridge answered no result');
    this.kept.delete(key);
    return answer;
  }

  prefetch(text: string, params: readonly unknown[], name?: string): void {
    const read = statement(text, params, name);
    const key = keyOf(read);
    if (this.kept.has(key) || this.unsent.some((u) => u.keep === true && keyOf(u.statement) === key)) return;
    this.refuseInLostTransaction(text);
    this.unsent.push({ mark: this.nextMark++, statement: read, keep: true });
  }

  /** Keeps the answers of the prefetches among `sent`; a statement that may change what they read drops the answers kept before it. */
  private keepAnswers(sent: readonly Unsent[], results: readonly PgResult[]): void {
    for (const [i, u] of sent.entries()) {
      const result = results[i];
      if (u.keep === true && result) this.kept.set(keyOf(u.statement), { text: u.statement.text, result });
      else this.dropChangedBy(u.statement.text);
    }
  }

  /** Drops the kept answers `text` may change (keptAnswers.ts). */
  private dropChangedBy(text: string): void {
    for (const [key, kept] of this.kept) if (mayChange(text, kept.text)) this.kept.delete(key);
  }

  defer(text: string, params: readonly unknown[], name?: string): number {
    this.refuseInLostTransaction(text);
    this.dropChangedBy(text);
    const mark = this.nextMark++;
    this.unsent.push({ mark, statement: statement(text, params, name) });
    return mark;
  }

  post(text: string): void {
    this.kept.clear();
    this.send([...this.takeUnsent(), statement(text, [], undefined)], false);
  }

  unsentFrom(mark: number): number | undefined {
    const at = this.unsent.findIndex((u) => u.mark === mark);
    return at < 0 ? undefined : this.unsent.length - at;
  }

  dropUnsent(mark: number): boolean {
    const had = this.unsent.some((u) => u.mark === mark);
    this.unsent = this.unsent.filter((u) => u.mark < mark);
    return had;
  }

  close(): void {
    if (this.closed) return;
    const current = this.link;
    if (current) {
      try {
        this.call({ kind: 'close' }, 2_000);
      } catch {
        // Closing a bridge whose server is gone: the worker's end below closes the socket.
      }
      void current.worker.terminate();
    }
    this.closed = true;
    this.link = undefined;
  }

  private takeUnsent(): PgStatement[] {
    const taken = this.unsent.map((u) => u.statement);
    this.unsent = [];
    return taken;
  }

  private refuseInLostTransaction(text: string): void {
    if (this.lostTransaction && !ROLLBACK.test(text)) throw new StoreUnavailableError('the connection was lost in the middle of a transaction, which was rolled back');
  }

  /**
   * Sends `statements` in one request; waits for their answers when `wait`. Keeps track of the
   * transaction they open or end, and of one a lost connection cut.
   */
  private send(statements: readonly PgStatement[], wait: boolean): PgResult[] | undefined {
    // Answers are kept again only from a request whose answers are all in.
    const kept = this.kept;
    this.kept = new Map();
    const last = statements.at(-1);
    if (last === undefined) return [];
    if (this.lostTransaction) {
      this.refuseInLostTransaction(last.text);
      // The ROLLBACK of the lost transaction: the server rolled it back with the connection.
      this.lostTransaction = false;
      this.inTransaction = false;
      return [{ rows: [], rowCount: 0 }];
    }
    const before = this.inTransaction;
    const after = statements.reduce((open, s) => openAfter(s, open), before);
    this.traffic.count(statements, wait);
    if (!wait) {
      this.postRequest({ kind: 'batch', statements, inTransaction: before });
      this.inTransaction = after;
      return undefined;
    }
    let answer: Answered;
    try {
      answer = this.ask({ kind: 'batch', statements, inTransaction: before }, this.timeoutMs + 2_000);
    } catch (error) {
      // No answer in time: whatever ran, a transaction open before or opened here is lost.
      this.afterFailure(statements, before, 0, error);
      throw error;
    }
    if ('error' in answer) {
      this.afterFailure(statements, before, answer.index, answer.error);
      throw answer.error;
    }
    this.inTransaction = after;
    this.kept = kept;
    return answer.results;
  }

  /** The transaction's state after statement `failed` of a batch failed with `error`. */
  private afterFailure(statements: readonly PgStatement[], before: boolean, failed: number, error: unknown): void {
    const ranBefore = statements.slice(0, failed).reduce((open, s) => openAfter(s, open), before);
    const failedStatement = statements[failed];
    this.inTransaction = failedStatement !== undefined && ENDS.test(failedStatement.text) ? false : ranBefore;
    if (this.inTransaction && error instanceof StoreUnavailableError && !NOT_NOW_STATES.has(codeOf(error.cause))) this.lostTransaction = true;
  }

  /** Posts a request to the worker (starting it first if needed) and returns its id. */
  private postRequest(request: BridgeCall): { link: Link; id: number; fresh: boolean } {
    if (this.closed) throw new Error('the PostgreSQL bridge is closed');
    const fresh = this.link === undefined;
    this.link ??= startLink(this.url, { url: this.url, settings: this.settings, connectTimeoutMs: this.connectTimeoutMs });
    const link = this.link;
    const id = ++link.lastId;
    const message: BridgeRequest = { ...request, id };
    link.port.postMessage(message);
    return { link, id, fresh };
  }

  /** A request and its answer: the results, or the first failure as the error to throw. Throws when no answer came in time. */
  private ask(request: BridgeCall, waitMs: number): Answered {
    const { link, id, fresh } = this.postRequest(request);
    // A new worker first loads (from source, through tsx: seconds on a busy machine).
    const answer = awaitAnswer(link, id, waitMs + (fresh ? WORKER_START_MS : 0));
    if (answer === undefined) {
      // The worker did not answer in time: stop it (its connection closes with it); the next query
      // starts a new one.
      this.link = undefined;
      void link.worker.terminate();
      throw new StoreUnavailableError(`${hidePassword(this.url)} did not answer within ${waitMs} ms`);
    }
    if ('failure' in answer) return { index: answer.index, error: failureError(this.url, answer.failure) };
    return { results: [...answer.results] };
  }

  /** A request whose failure is thrown. */
  private call(request: BridgeCall, waitMs: number): void {
    const answer = this.ask(request, waitMs);
    if ('error' in answer) throw answer.error;
  }
}

type Answered = { readonly results: PgResult[] } | { readonly index: number; readonly error: Error };

/** A prefetched read's answer, kept until asked for, with the read's text (what it names). */
interface Kept {
  readonly text: string;
  readonly result: PgResult;
}

/** A statement not sent yet; `keep`: a prefetch, whose answer is kept. */
interface Unsent {
  readonly mark: number;
  readonly statement: PgStatement;
  readonly keep?: boolean;
}

/** Which query an answer is the answer of. */
const keyOf = (s: PgStatement): string => `${s.name ?? s.text}\u0000${JSON.stringify(s.params)}`;

const statement = (text: string, params: readonly unknown[], name: string | undefined): PgStatement => (name === undefined ? { text, params } : { text, params, name });

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
