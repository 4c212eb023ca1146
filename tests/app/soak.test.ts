import { describe, expect, it } from 'vitest';
import { soak } from '../../bench/soak.js';

describe('a short season (the soak, 30 half periods): invariants and secrets', () => {
  it('GIVEN 24 armies under random orders, every contact answered and every battle recorded THEN no invariant breaks and nothing secret reaches the channel', async () => {
    const broken: string[] = [];
    const r = await soak({ halves: 30, seed: 11, log: (line) => { if (line.startsWith('half') || line.startsWith('secret')) broken.push(line); } });
    expect(broken).toEqual([]);
    expect(r.invariantViolations).toBe(0);
    expect(r.secretLeaks).toBe(0);
    expect(r.halfPeriods).toBe(30);
  }, 120_000);
});
