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

/** A request: run a query; connect (the bridge's open); or end the connection (its close). */
export type BridgeCall =
  /** `inTransaction`: the statement belongs to an open transaction, so it must not run on a new connection. */
  | { readonly kind: 'query'; readonly text: string; readonly params: readonly unknown[]; readonly inTransaction: boolean }
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

export type BridgeAnswer =
  | { readonly id: number; readonly rows: unknown[][]; readonly rowCount: number }
  | { readonly id: number; readonly failure: BridgeFailure };
