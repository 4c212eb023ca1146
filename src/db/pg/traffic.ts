import type { PgStatement } from './bridgeProtocol.js';

/**
 * What a PostgreSQL bridge has sent, counted: the figure that sets a command's or a tick's cost on
 * PostgreSQL (each waited request is a round trip, ~0.1-0.3 ms on loopback, more on a network),
 * and the same on any machine or load. Tests hold the round trips per command kind and per tick
 * (tests/db/pg/roundTrips.test.ts); `npm run bench -- --store postgres` reports them.
 */
export interface Traffic {
  /** Requests waited for: one round trip each (all their statements pipelined). */
  readonly roundTrips: number;
  /** Requests sent without waiting for their answer (a read-only transaction's COMMIT). */
  readonly posts: number;
  /** Statements sent, in both. */
  readonly statements: number;
}

/** A bridge's counter; `trace` (when set) is given each request's statement texts, for finding where round trips go. */
export class TrafficCounter implements Traffic {
  roundTrips = 0;
  posts = 0;
  statements = 0;
  trace: ((texts: readonly string[], waited: boolean) => void) | undefined;

  /** Counts one request of `statements`; `waited`: a round trip (else a post). */
  count(statements: readonly PgStatement[], waited: boolean): void {
    if (waited) this.roundTrips++;
    else this.posts++;
    this.statements += statements.length;
    this.trace?.(statements.map((s) => s.text), waited);
  }

  /** The counts now (a copy). */
  snapshot(): Traffic {
    return { roundTrips: this.roundTrips, posts: this.posts, statements: this.statements };
  }
}

/** What was sent between two snapshots. */
export function trafficSince(before: Traffic, now: Traffic): Traffic {
  return { roundTrips: now.roundTrips - before.roundTrips, posts: now.posts - before.posts, statements: now.statements - before.statements };
}
