import { createHash } from 'node:crypto';

/**
 * A reader's version of their page: a hash of what that page shows them (its data and its map's
 * view), so it moves exactly when what they see moves. The campaign's raw version (its stored
 * revision and its log's last event id, `webVersion`) moves on hidden changes too, and differs
 * between two worlds that differ only in hidden facts: it stays on the server (caches, change
 * checks) and only this one is sent (page.json, the live updates, the tile URLs).
 */
export function readerVersion(...shown: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 22);
}
