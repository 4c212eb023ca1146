import { NO_MANUAL_DICE, type RngState, SEED_PATTERN, sha256Hex } from '../../dice/index.js';
import { NO_KNOWLEDGE } from '../../knowledge/index.js';

type Json = Readonly<Record<string, unknown>>;

/** A stored generator state of the current shape (a dice period with its seeds). */
function isPeriodState(rng: unknown): rng is RngState {
  if (typeof rng !== 'object' || rng === null) return false;
  const r = rng as Json;
  return typeof r['period'] === 'number' && typeof r['seed'] === 'string' && SEED_PATTERN.test(r['seed']) && typeof r['next'] === 'string' && SEED_PATTERN.test(r['next']);
}

/**
 * The dice of a campaign saved before dice periods (one sfc32 stream from a numeric seed): the
 * stream's secret state becomes the seeds of period 0 and 1. Pure, so the new seeds come from the
 * old state; neither was committed in advance, which the first checks after the upgrade say.
 */
function periodFromStream(rng: unknown): RngState {
  if (isPeriodState(rng)) return rng;
  const secret = JSON.stringify(rng ?? null);
  return { period: 0, seed: sha256Hex(`upgrade:${secret}:0`).slice(0, 32), draws: 0, next: sha256Hex(`upgrade:${secret}:1`).slice(0, 32) };
}

/** 3 -> 4: dice periods with committed seeds, manual dice, and what each army knows (fog of war), empty. */
export function upgradeToFairDice(s: Json): Json {
  return {
    ...s,
    rng: periodFromStream(s['rng']),
    manualDice: s['manualDice'] ?? NO_MANUAL_DICE,
    knowledge: s['knowledge'] ?? NO_KNOWLEDGE,
  };
}
