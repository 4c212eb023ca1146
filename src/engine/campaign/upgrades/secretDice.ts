import { SEED_PATTERN } from '../../dice/index.js';

type Json = Readonly<Record<string, unknown>>;

/**
 * Upgrade step: dice in two streams (a public seed revealed with each tick, a secret one revealed
 * when the campaign ends). A campaign saved before has one stream: it keeps it, unchanged, for
 * the period in play (whose seed was committed as the one seed of its dice), and gets its secret
 * master when its next period begins (the app makes it then: an upgrade is pure and has nothing
 * secret to make it from). A `secret` that is not a whole secret stream is dropped rather than
 * half-read. Its past periods stay checkable as before: their log is not touched.
 * @see docs/dice.md
 */
export function splitDiceStreams(s: Json): Json {
  const rng = (s['rng'] ?? {}) as Json;
  const secret = rng['secret'] as Json | undefined;
  const whole = secret !== undefined && typeof secret['master'] === 'string' && SEED_PATTERN.test(secret['master'])
    && typeof secret['since'] === 'number' && typeof secret['draws'] === 'number';
  if (whole || secret === undefined) return s;
  const { secret: _dropped, counts: _counts, ...oneStream } = rng;
  return { ...s, rng: oneStream };
}
