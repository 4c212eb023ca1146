import type { Database } from './client.js';
import { prepared } from './prepared.js';

/** Records that this process takes the interaction. Returns false if another process took it first. */
export function claimInteraction(db: Database, id: string, now: string): boolean {
  return prepared(db, 'insert into interaction_claims (id, claimed_at) values (?, ?) on conflict do nothing').run(id, now).changes > 0;
}

/** Forgets interactions claimed before `before`. Returns how many. */
export function pruneInteractionClaims(db: Database, before: string): number {
  return prepared(db, 'delete from interaction_claims where claimed_at < ?').run(before).changes;
}
