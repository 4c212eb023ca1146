import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign start',
].join('\n');

describe('honest move previews', () => {
  it('GIVEN a route that passes next to an enemy THEN the preview names it and where; an ally is not named', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /army edit army:grallune hex:1019', '@referee /army edit army:minke hex:0919');
    const [out] = await h.run('@alice /move army:hadewych to:1018');
    expect(out?.content).toContain('⚠ Known enemies next to the route: Army of Grallune at 1019 (next to 1018). Entering a hex next to an enemy brings map contact there.');
    expect(out?.content).not.toContain('Minke');
  });

  it('GIVEN a forced march over several days THEN the preview says it counts the fatigue the march itself causes', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [one] = await h.run('@alice /move army:hadewych path:"0817 0918" forced:true');
    expect(one?.content).not.toContain('over several days');
    const [many] = await h.run('@alice /move army:hadewych to:1418 forced:true');
    expect(many?.content).toContain('⚠ Forced march over several days: from tomorrow the army marches fatigued');
  });
});

describe('known enemies: only what this commander knows', () => {
  it('GIVEN an enemy this commander has estimated THEN the warning adds their own estimate; another commander\'s warning does not', async () => {
    const { contactHarness, open } = await import('./contactSetup.js');
    h = await contactHarness();
    await h.run('@referee /campaign assign army:minke user:carol');
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /evade', '@bob /evade');
    await h.run('@referee /army edit army:grallune hex:1019', '@referee /army edit army:hadewych hex:0918', '@referee /army edit army:minke hex:0917');
    const [alice] = await h.run('@alice /move army:hadewych to:1018');
    expect(alice?.content).toMatch(/Known enemies next to the route: Army of Grallune at 1019 \(next to 1018; est\. ~?[\d,]+ troops(?: engaging| \+\d+ regts?)?\)/);
    const [carol] = await h.run('@carol /move army:minke to:1018');
    expect(carol?.content).toContain('Known enemies next to the route: Army of Grallune at 1019 (next to 1018).');
  });
});

describe('known enemies in fog of war', () => {
  it('GIVEN fog of war and an enemy this commander never saw THEN the preview does not name it', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings positions:fog!', '@referee /army edit army:grallune hex:1019');
    const [out] = await h.run('@alice /move army:hadewych to:1018');
    expect(out?.content).toContain('move order');
    expect(out?.content).not.toContain('Grallune');
  });
});
