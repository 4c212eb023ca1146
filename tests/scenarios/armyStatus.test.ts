import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign start',
  '@referee /weather set fog:false wind:none',
].join('\n');

let h: Harness | undefined;
afterEach(() => h?.close());

describe('/army status tells the truth at sea and while regiments are still coming', () => {
  it('GIVEN an army aboard ship with a regiment left ashore THEN its status says which vessels, where, whither and when, and which regiment is ashore; no march on land', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    await h.run('@prince /embark vessels:"troopTransport=9,galley=1"', '@prince /sail to:Skullhaven');
    const [status] = await h.run('@prince /army status');
    expect(status?.content).toContain('**Aboard ship**\n│ Aboard 1 galley, 9 troop transports at 2304 (East Port).\n│ Sailing to 0506, arriving Day 2, evening at the current weather; then land with `/debark`.');
    expect(status?.content).toContain('**March**: Aboard ship: no march');
    expect(status?.content).toMatch(/assault: First Regiment: 27\/27 figures .* \(aboard\)/);
    expect(status?.content).toMatch(/support: Second Regiment: 14\/14 figures .* \(ashore at 2304: follows by shuttle after you land\)/);
    expect(status?.content).not.toContain('column of figures');
    expect(status?.content).not.toMatch(/troopTransport/);
  });

  it('GIVEN an army landed and waiting for its regiments by shuttle THEN its status says so, and when they land', async () => {
    h = await consoleHarness({ seed: 3, setup: SETUP });
    await h.run('@prince /embark vessels:"troopTransport=9"', '@prince /debark hex:2304');
    const [status] = await h.run('@prince /army status');
    expect(status?.content).toMatch(/Waiting at .* for regiments still at sea: it may not march until they are all ashore\./);
    expect(status?.content).toMatch(/support: Second Regiment: 14\/14 figures .* \(at sea: lands Day 1, evening\)/);
    expect(status?.content).toMatch(/\*\*Order\*\*: wait at .* for the regiments still at sea/);
  });

  it('GIVEN scouts deployed THEN /army status and /scouts say it in the same words', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [deployed] = await h.run('@prince /scouts count:1');
    const said = /Scouts: (1 deployed ahead \([^)]*\)\.)/.exec(deployed?.content ?? '')?.[1];
    expect(said).toBeDefined();
    const [status] = await h.run('@prince /army status');
    expect(status?.content).toContain(`**Scouts**: ${said}`);
  });
});
