import { describe, expect, it } from 'vitest';
import { soak } from '../../bench/soak.js';

describe('replay: the soak campaign', () => {
  it('GIVEN the soak\'s campaign (24 armies, random orders, couriers, contacts answered by buttons, battles) WHEN its export is replayed THEN it replays exactly', async () => {
    const result = await soak({ halves: 6, seed: 7, replay: true });
    expect(result.replay?.report).toMatch(/^replays exactly/);
    expect(result.replay?.exact).toBe(true);
  });
});
