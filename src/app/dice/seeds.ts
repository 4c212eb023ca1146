import { createHash, randomBytes } from 'node:crypto';
import { seedFromNumber, type RngState } from '../../engine/dice/index.js';
import { PUBLIC, type EngineEvent } from '../../engine/events/index.js';

/**
 * The seeds of the dice periods: 16 random bytes from node:crypto, as 32 hex digits. A campaign
 * created with a fixed seed (the console's --seed, tests) gets seeds made from that number
 * instead: reproducible, and predictable, so only for scripts. @see docs/dice.md
 */
export function newSeed(fixed: number | undefined, period: number): string {
  return fixed === undefined ? randomBytes(16).toString('hex') : seedFromNumber(fixed, period);
}

/** What is published before a period starts: the SHA-256 of its seed's 32 hex digits. */
export function commitmentOf(seed: string): string {
  return createHash('sha256').update(seed, 'ascii').digest('hex');
}

/** The public line that commits to a period's seed (its hash only: nothing in it tells a die). */
export function commitEvent(period: number, seed: string, what: string): EngineEvent {
  const commitment = commitmentOf(seed);
  return { type: 'diceSeedCommitted', audience: PUBLIC, text: `Dice: ${what} (period ${period}) will be rolled from a seed whose SHA-256 is \`${commitment}\`.`, data: { period, commitment } };
}

/** The public line that reveals the seed of a period that is over, for anyone to check its dice. */
function revealEvent(closed: RngState): EngineEvent {
  const commitment = commitmentOf(closed.seed);
  return {
    type: 'diceSeedRevealed', audience: PUBLIC,
    text: `Dice: period ${closed.period} is over; its seed was \`${closed.seed}\` (${closed.draws} draws). Check its dice with \`/dice verify tick:${closed.period}\` or by hand (docs/dice.md).`,
    data: { period: closed.period, seed: closed.seed, draws: closed.draws, commitment },
  };
}

/**
 * A new dice period begins (a tick, or an undo): the period in use is closed and its seed revealed;
 * the committed seed comes into use; a fresh seed is chosen for the period after and its hash
 * published now, before it is used.
 */
export function startDicePeriod(dice: { state(): RngState; startPeriod(fresh: string): void }, fixed: number | undefined, what: string): EngineEvent[] {
  const closed = dice.state();
  const fresh = newSeed(fixed, closed.period + 2);
  dice.startPeriod(fresh);
  return [revealEvent(closed), commitEvent(closed.period + 2, fresh, what)];
}
