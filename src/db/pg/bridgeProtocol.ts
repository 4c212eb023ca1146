import type { MessagePort } from 'node:worker_threads';

/** What the PostgreSQL bridge (bridge.ts) and its worker thread (bridgeWorker.ts) say to each other. */

/** The worker's start data: the server, its session settings, and the channel back. */
export interface BridgeWorkerData {
  readonly url: string;
  /** The worker's end of the channel: requests arrive here, answers leave from here. */
  readonly port: MessagePort;
  /** Int32Array over a SharedArrayBuffer: slot 0 holds the id of the last answered request. */
  readonly signal: SharedArrayBuffer;
  /** Session settings run after every (re)connect, e.g. `SET lock_timeout = '10s'`. */
  readonly settings: readonly string[];
  readonly connectTimeoutMs: number;
}

/**
 * One statement: its text, its parameters (strings, numbers, booleans or null) and, for a
 * statement run again and again, the name the server keeps it prepared under on the connection
 * (parsed and planned once per connection instead of on every run).
 */
export interface PgStatement {
  readonly text: string;
  readonly params: readonly unknown[];
  readonly name?: string;
}

/** A request: run statements; connect (the bridge's open); or end the connection (its close). */
export type BridgeCall =
  /**
   * Statements sent to the server together (pipelined: one round trip between the threads and
   * one to the server) and run in order; each has its own answer. `inTransaction`: the first
   * belongs to an open transaction, so none may run on a new connection.
   */
  | { readonly kind: 'batch'; readonly statements: readonly PgStatement[]; readonly inTransaction: boolean }
  | { readonly kind: 'connect' }
  | { readonly kind: 'close' };

export type BridgeRequest = BridgeCall & { readonly id: number };

/** PostgreSQL's fields of an error, kept as pg gave them. */
export interface BridgeFailure {
  readonly message: string;
  /** SQLSTATE (`23505`) for an error of the server; a Node error code (`ECONNREFUSED`) for the socket's. */
  readonly code?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly constraint?: string;
  readonly table?: string;
  readonly column?: string;
  /** The connection is gone or never came (refused, reset, shut down, timed out). */
  readonly unavailable: boolean;
}

/** One statement's answer: rows in array mode (columns in select order), and the rows it touched. */
export interface StatementResult {
  readonly rows: unknown[][];
  readonly rowCount: number;
}

export type BridgeAnswer =
  /** Every statement's answer, in order. */
  | { readonly id: number; readonly results: readonly StatementResult[] }
  /** The first statement that failed (`index` in the batch); the ones before it ran. */
  | { readonly id: number; readonly failure: BridgeFailure; readonly index: number };
