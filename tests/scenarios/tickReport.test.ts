import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/** Alice commands two armies of Chaos, Bob the Groennendr Regiment of the elves at 1116. */
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Long Autumn"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:solon user:alice',
  '@referee /campaign assign army:groennendr user:bob',
  '@referee /campaign start',
].join('\n');

/** The DMs a user got from the last tick (after the line `!tick`). */
async function tickDms(x: Harness, user: string): Promise<string[]> {
  const out = await x.run('!tick');
  return out.filter((o) => o.to === 'dm' && o.user === user).map((o) => o.content);
}

describe('issue 27 item 2: each commander\'s own tick report', () => {
  it('GIVEN a commander of two armies that both march WHEN the tick is played THEN one DM tells each army\'s march and why it stopped; a commander to whom nothing happened hears nothing', async () => {
    h = await consoleHarness({ seed: 3, setup: SETUP });
    await h.run('@alice /move army:hadewych to:0817', '@alice /move army:solon to:0715', '@bob /hold army:groennendr');
    const alice = await tickDms(h, 'alice');
    expect(alice).toHaveLength(1);
    expect(alice[0]).toContain('**Army of Hadewych** and **Army of Solon Theros** (Long Autumn)');
    expect(alice[0]).toContain('**Tick report: Day 1, morning (late autumn) → Day 1, afternoon**');
    expect(alice[0]).toMatch(/Morning: Army of Hadewych marched 0816 -> 0817; \d+ of \d+ points left today\./);
    expect(alice[0]).toMatch(/Morning: Army of Solon Theros (marched 0815 -> 0715|stayed at \d{4})/);
    // Bob held: nothing happened to him, so no report (his default is `changes`).
    expect(h.outputs.filter((o) => o.to === 'dm' && o.user === 'bob').map((o) => o.content).filter((c) => c.includes('Tick report'))).toEqual([]);
  });

  it('GIVEN /notify tick-report:always THEN a report comes after a tick in which nothing happened; GIVEN never THEN no report, but a contact\'s question still comes', async () => {
    h = await consoleHarness({ seed: 3, setup: SETUP });
    await h.run('@bob /notify tick-report:always', '@alice /notify tick-report:never');
    await h.run('@alice /move army:hadewych to:0817');
    const [bob] = await tickDms(h, 'bob');
    expect(bob).toContain('Groennendr Regiment stands at 1116: nothing happened to it this half period.');
    expect(h.outputs.filter((o) => o.to === 'dm' && o.user === 'alice' && o.content.includes('Tick report'))).toEqual([]);
    // Alice marches next to Bob: the contact's question reaches her all the same, without the march.
    await h.run('@referee /army edit army:hadewych hex:1015', '@alice /move army:hadewych to:1016');
    const alice = await tickDms(h, 'alice');
    expect(alice).toHaveLength(1);
    expect(alice[0]).toContain('**Your answer**: Contact');
    expect(alice[0]).not.toContain('marched to');
    // Bob's report after the contact is the contact's own card, not "nothing happened".
    const bobs = h.outputs.filter((o) => o.to === 'dm' && o.user === 'bob');
    expect(bobs.at(-1)?.content).toContain('**Your answer**: Contact');
    expect(bobs.at(-1)?.content).not.toContain('nothing happened');
  });
});
