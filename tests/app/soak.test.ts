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
    // Where the bytes are, table by table: the journal and the event log are there, and the parts add up to no more than the file.
    expect(r.dbTablesMb.journal).toBeGreaterThan(0);
    expect(r.dbTablesMb.events).toBeGreaterThan(0);
    expect(Object.values(r.dbTablesMb).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(r.dbBytes / 1024 / 1024 + 0.01 * Object.keys(r.dbTablesMb).length);
    // The export as a Discord referee meets it: a file under the default limit, as it is at this length.
    expect(r.exportDiscord).toMatchObject({ kind: 'asIs' });
    expect(r.exportDiscord.bytes).toBeGreaterThan(0);
    // And again once the bot's own builder has kept the closed parts, as a referee meets it in a running bot.
    expect(r.exportKept.runs).toBe(5);
    expect(r.exportKept.ms).toBeGreaterThan(0);
  }, 120_000);

  it('GIVEN the season then played side by side with a fresh campaign in its position THEN each timed command is timed on both, and the commands\' figure is a round of them (each one\'s median, summed), not a median over the mix', async () => {
    const r = await soak({ halves: 6, seed: 5, web: false, sideRounds: 3 });
    const side = r.sideBySide;
    expect(side?.rounds).toBe(3);
    const each = Object.entries(side?.commandsMs ?? {});
    expect(each.map(([name]) => name)).toEqual(['/army status', '/move', '/turn status', '/intel']);
    for (const [, c] of each) {
      expect(c.fresh).toBeGreaterThan(0);
      expect(c.long).toBeGreaterThan(0);
    }
    const sum = (k: 'fresh' | 'long'): number => each.reduce((t, [, c]) => t + c[k], 0);
    expect(side?.commandMs.fresh).toBeCloseTo(sum('fresh'), 1);
    expect(side?.commandMs.long).toBeCloseTo(sum('long'), 1);
  }, 120_000);
});
