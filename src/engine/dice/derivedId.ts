import { sha256Hex } from './sha256.js';

/*
 * Ids derived from what their readers know of the thing itself, never from a count across the
 * campaign (a count would tell a reader how many others there were that they never saw).
 * @see src/engine/state/ids.ts; docs/rulings.md (Fog of war: ids)
 */

/** Letters only (no i, l, o), so a derived id never looks like a numbered one nor like a digit. */
const LETTERS = 'abcdefghjkmnpqrstuvwxyz';
const LENGTH = 6;

/** `prefix` and six letters from the SHA-256 of `facts` (and of `attempt` after a clash). */
function lettersOf(prefix: string, facts: string, attempt: number): string {
  const hex = sha256Hex(attempt === 0 ? facts : `${facts}|${attempt}`);
  let id = prefix;
  for (let i = 0; i < LENGTH; i += 1) id += LETTERS[Number.parseInt(hex.slice(i * 4, i * 4 + 4), 16) % LETTERS.length];
  return id;
}

/** The first derived id for `facts` not `taken` (a clash is astronomically rare, but checked). */
export function derivedId(prefix: string, facts: string, taken: (id: string) => boolean): string {
  for (let attempt = 0; ; attempt += 1) {
    const id = lettersOf(prefix, facts, attempt);
    if (!taken(id)) return id;
  }
}
