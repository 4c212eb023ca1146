import { createHash } from 'node:crypto';
import { secretSeedOf, type RngState } from '../../engine/dice/index.js';
import { PUBLIC, type EngineEvent } from '../../engine/events/index.js';
import type { DiceSource } from './diceSource.js';

/** What is published before a period starts: the SHA-256 of its seed's 32 hex digits. */
export function commitmentOf(seed: string): string {
  return createHash('sha256').update(seed, 'ascii').digest('hex');
}

/**
 * The public line that commits to a period's seeds (their hashes only: nothing in it tells a die):
 * the public seed and, in a campaign with secret dice, the secret one.
 */
function commitEvent(period: number, seed: string, secretSeed: string | undefined, what: string): EngineEvent {
  const commitment = commitmentOf(seed);
  if (secretSeed === undefined) return { type: 'diceSeedCommitted', audience: PUBLIC, text: `Dice: ${what} (period ${period}) will be rolled from a seed whose SHA-256 is \`${commitment}\`.`, data: { period, commitment } };
  const secretCommitment = commitmentOf(secretSeed);
  return {
    type: 'diceSeedCommitted', audience: PUBLIC,
    text: `Dice: ${what} (period ${period}) will be rolled from a public seed whose SHA-256 is \`${commitment}\` and a secret seed whose SHA-256 is \`${secretCommitment}\`.`,
    data: { period, commitment, secretCommitment },
  };
}

/** The commitments a new campaign publishes: periods 0 (the setup) and 1 (the first tick). */
export function firstCommitments(rng: RngState): EngineEvent[] {
  const master = rng.secret?.master;
  return [
    commitEvent(0, rng.seed, master === undefined ? undefined : secretSeedOf(master, 0), 'the setup'),
    commitEvent(1, rng.next, master === undefined ? undefined : secretSeedOf(master, 1), 'the first tick'),
  ];
}

/** Whether a period's dice come in two streams (it began after the campaign had a secret master). */
export function hasSecretStream(rng: RngState, period: number): boolean {
  return rng.secret !== undefined && period >= rng.secret.since;
}

/**
 * The public line that reveals the seed of a period that is over, for anyone to check its dice:
 * the public seed only (and how many public dice it rolled: the weather's, the same whatever else
 * happened). A period of one stream (a campaign from before secret dice) reveals its one seed.
 */
function revealEvent(closed: RngState): EngineEvent {
  const commitment = commitmentOf(closed.seed);
  if (!hasSecretStream(closed, closed.period)) {
    return {
      type: 'diceSeedRevealed', audience: PUBLIC,
      text: `Dice: period ${closed.period} is over; its seed was \`${closed.seed}\` (${closed.draws} draws). Check its dice with \`/dice verify tick:${closed.period}\` or by hand (docs/dice.md).`,
      data: { period: closed.period, seed: closed.seed, draws: closed.draws, commitment },
    };
  }
  return {
    type: 'diceSeedRevealed', audience: PUBLIC,
    text: `Dice: period ${closed.period} is over; its public seed was \`${closed.seed}\` (${closed.draws === 1 ? '1 public die' : `${closed.draws} public dice`}). Check them with \`/dice verify tick:${closed.period}\` or by hand (docs/dice.md); its secret dice are checked when the campaign ends.`,
    data: { period: closed.period, seed: closed.seed, draws: closed.draws, commitment, streams: 2 },
  };
}

/**
 * A new dice period begins (a tick, or a re-rolling undo): the period in use is closed and its
 * public seed revealed; the committed seeds come into use; a fresh public seed is chosen for the
 * period after and its hash published now, with the hash of that period's secret seed, before
 * either is used. A campaign from before secret dice gets its secret master now: the secret seed
 * of the period starting now is committed at once (not in advance: said so), the next ones ahead.
 */
export function startDicePeriod(dice: { state(): RngState; startPeriod(fresh: string, master?: string): void }, seeds: Pick<DiceSource, 'newSeed' | 'newMaster'>, what: string): EngineEvent[] {
  const closed = dice.state();
  const fresh = seeds.newSeed(closed.period + 2);
  dice.startPeriod(fresh, closed.secret ? undefined : seeds.newMaster());
  const now = dice.state();
  const master = now.secret?.master;
  const late: EngineEvent[] = master !== undefined && now.secret?.since === now.period ? [{
    type: 'diceSeedCommitted', audience: PUBLIC,
    text: `Dice: from period ${now.period} on, the dice that are not everyone's (contacts, scouts, estimates, battles, marches, couriers) are rolled from a secret seed, revealed when the campaign ends; this period's has SHA-256 \`${commitmentOf(secretSeedOf(master, now.period))}\` (published as the period begins: the campaign predates secret dice).`,
    data: { period: now.period, secretCommitment: commitmentOf(secretSeedOf(master, now.period)), late: true },
  }] : [];
  return [revealEvent(closed), ...late, commitEvent(closed.period + 2, fresh, master === undefined ? undefined : secretSeedOf(master, closed.period + 2), what)];
}

/**
 * The public line of a campaign's end that reveals its secret master: from it anyone computes
 * every period's secret seed and checks every secret die. @see docs/dice.md
 */
export function revealMasterEvent(rng: RngState): EngineEvent[] {
  const secret = rng.secret;
  if (!secret) return [];
  return [{
    type: 'diceSecretRevealed', audience: PUBLIC,
    text: `Dice: the campaign is over, so its secret dice are no secret any more. Their master was \`${secret.master}\`: the secret seed of period n is the first 32 hex digits of SHA-256("${secret.master}:n"). Anyone can now check every die by hand (docs/dice.md).`,
    data: { master: secret.master, since: secret.since },
  }];
}
