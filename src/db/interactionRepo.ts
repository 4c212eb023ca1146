import { lt, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { perConnection } from './prepared.js';
import type { interactionClaims } from './schema.js';

const claim = perConnection((q, { interactionClaims }) => q.insert(interactionClaims).values({ id: sql.placeholder('id'), claimedAt: sql.placeholder('claimedAt') }).onConflictDoNothing().prepare());
const prune = perConnection((q, { interactionClaims }) => q.delete(interactionClaims).where(lt(interactionClaims.claimedAt, sql.placeholder('before'))).prepare());

/** Records that this process takes the interaction. Returns false if another process took it first. */
export function claimInteraction(db: Database, id: string, now: string): boolean {
  const row: typeof interactionClaims.$inferInsert = { id, claimedAt: now };
  return claim(db).run(row).changes > 0;
}

/** Forgets interactions claimed before `before`. Returns how many. */
export function pruneInteractionClaims(db: Database, before: string): number {
  return prune(db).run({ before }).changes;
}
