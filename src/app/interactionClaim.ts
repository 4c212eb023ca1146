import { writeTransaction } from '../db/client.js';
import { claimInteraction, pruneInteractionClaims } from '../db/interactionRepo.js';
import type { App } from './app.js';

/** An interaction lives 15 minutes; its claim is kept a day, then pruned. */
const CLAIM_RETENTION_MS = 86_400_000;

/**
 * Takes an interaction for this process, before anything is done with it. Discord gives an event
 * to every session on a shard, so two instances on one token (a deploy overlap, a copy started by
 * mistake) both receive it: the first to record its id in the shared database runs it, and the
 * other gets false and must leave it alone (not answer, not log an error).
 */
export function takeInteraction(app: App, interactionId: string): boolean {
  return writeTransaction(app.db, () => claimInteraction(app.db, interactionId, app.clock.now().toISOString()));
}

/** Forgets the claims of interactions older than a day (with the outbox's pruning). Returns how many. */
export function pruneInteractions(app: App): number {
  const before = new Date(app.clock.now().getTime() - CLAIM_RETENTION_MS).toISOString();
  return writeTransaction(app.db, () => pruneInteractionClaims(app.db, before));
}
