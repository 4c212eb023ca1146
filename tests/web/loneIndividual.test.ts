import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webPage } from '../../src/app/web/webPage.js';
import { campaignIdOf, consoleHarness, type Harness } from '../scenarios/harness.js';

/*
 * Anax Archontas, in the Valormr scenario, is an army of one: the red dragon, an individual, no
 * regiment (assets/scenarios/valormr.json; 001's orders of battle: "Anax Archontas (Dragon) 200").
 * So 0 troop figures is right, but the referee's figures list said "Anax Archontas: 0", as if the
 * army were gone, and his status card (the web page's "View as") "Troops: 0 figures (0 troops)"
 * and an empty "Regiments:". Read as the page and the console show them.
 */

let h: Harness;
let campaignId: string;

beforeAll(async () => {
  h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Dragon"\n@referee /campaign start' });
  campaignId = campaignIdOf(h);
}, 120_000);

afterAll(() => h?.close());

describe('an army of individuals alone (Anax Archontas, the dragon)', () => {
  it('GIVEN the referee viewing as Anax on the web THEN his card says he has no regiments, not "0 figures" and an empty list', () => {
    const card = webPage(h.app, { campaignId, userId: 'referee' }, { as: 'anax' }).armies[0]!.text;
    expect(card).toContain('**Troops**: none: no regiments; its individuals are the army');
    expect(card).toContain('**Regiments**: none.');
    expect(card).toContain('**Individuals**: Anax Archontas, the red dragon (dragon)');
    expect(card).not.toMatch(/0 figures|\*\*Regiments\*\*: *\n/);
    // An army with regiments reads as before.
    expect(webPage(h.app, { campaignId, userId: 'referee' }, { as: 'hadewych' }).armies[0]!.text).toContain('**Troops**: 52 figures (2,080 troops)');
  });

  it('GIVEN the referee\'s /campaign status THEN the figures list says why Anax counts 0', async () => {
    const out = await h.run('@referee /campaign status');
    const figures = out.map((o) => String(o.content)).find((c) => c.includes('Troop figures (referee only)'))!;
    expect(figures).toContain('Anax Archontas: 0 (no regiments: Anax Archontas, the red dragon)');
    expect(figures).toContain('Army of Hadewych: 52\n');
    expect(figures).not.toMatch(/Anax Archontas: 0\n/);
  });
});
