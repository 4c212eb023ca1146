import { afterEach, describe, expect, it } from 'vitest';
import { campaignState, consoleHarness, type Harness } from './harness.js';

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign start',
  '@referee /weather set fog:false wind:none',
].join('\n');

let h: Harness | undefined;
afterEach(() => h?.close());

const state = campaignState;

describe('an army waiting at its port of debarkation for regiments still at sea', () => {
  it('GIVEN regiments coming by shuttle WHEN the commander tries /hold, /rest or /move THEN each is refused and the shuttle stands; once all are ashore the army marches', async () => {
    h = await consoleHarness({ seed: 3, setup: SETUP });
    // Nine transports carry the first regiment (27); the second (14) waits ashore for the shuttle.
    await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=9"');
    const [landed] = await h.run('@prince /debark army:aeskrvald hex:2304');
    expect(landed?.content).toMatch(/does not march until its other regiments arrive by shuttle/);
    expect(state(h).orders['aeskrvald']?.kind).toBe('debark');

    for (const verb of ['hold', 'rest'] as const) {
      const [refused] = await h.run(`@prince /${verb} army:aeskrvald`);
      expect(refused).toMatchObject({ to: 'ephemeral', data: { error: `${verb}.awaitingRegiments` } });
      expect(state(h).orders['aeskrvald']?.kind).toBe('debark');
    }
    const [move] = await h.run('@prince /move army:aeskrvald to:2306');
    expect(move).toMatchObject({ data: { error: 'move.awaitingRegiments' } });

    await h.run('!tick', '!tick', '!tick'); // the shuttle lands at the close of Day 1, evening
    expect(h.dms('prince').some((d) => d.content.includes('the army is assembled and may march'))).toBe(true);
    const [ok] = await h.run('@prince /move army:aeskrvald to:2306');
    expect(ok?.content).toContain('move order for the day');
  });
});
