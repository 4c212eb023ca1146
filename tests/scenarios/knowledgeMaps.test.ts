import { afterEach, describe, expect, it } from 'vitest';
import { commanderMapView, publicMapView, type MapView } from '../../src/engine/views/mapView.js';
import { hexCentre } from '../../src/render/layout.js';
import { tokenRadius } from '../../src/render/tokens.js';
import { renderMapCanvas, snapshotLayout, type RenderMapOptions } from '../../src/render/renderMap.js';
import { loadShippedScenario } from '../../src/app/scenarios.js';
import { campaignState, consoleHarness, valormrMap, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const OPTS: RenderMapOptions = { title: { campaign: 'Fog', time: 'Day 1', weather: 'Clear' }, hexIds: 'none', labels: false };

/** The pixels of the square around a hex's centre, as drawn for a view. */
function patch(view: MapView, hexId: string): number[] {
  const hex = valormrMap.parse(hexId)!;
  const layout = snapshotLayout(valormrMap, OPTS, view.kind);
  const c = hexCentre(layout, hex);
  const r = Math.ceil(tokenRadius(layout.size) * 1.6);
  const data = renderMapCanvas(valormrMap, view, OPTS).getContext('2d').getImageData(Math.round(c.x) - r, Math.round(c.y) - r, 2 * r, 2 * r).data;
  return [...data];
}

/**
 * Fog falls with every army at its scenario start. Then Eglidain (Law) rides far off to 2530 and
 * Laugher (Chaos) to 0323, out of anyone's sight, and Eglidain's ally Aeskrvald is placed next to
 * Hadewych (Chaos, Alice's). Bob commands Grallune (Law).
 */
async function fogCampaign(): Promise<Harness> {
  const x = await consoleHarness({ setup: [
    '@referee /campaign create scenario:valormr name:"Fog"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign settings positions:fog',
    '@referee /campaign start',
    '@referee /army edit army:eglidain hex:2530',
    '@referee /army edit army:laugher hex:0323',
    '@referee /army edit army:aeskrvald hex:0817',
  ].join('\n') });
  await x.run('!tick');
  return x;
}

describe('knowledge maps: each commander\'s map shows what their armies know (fog of war)', () => {
  it('GIVEN fog of war WHEN two commanders of enemy sides view their maps THEN each shows its own side where it is and the other side only where last known: never where it is now unseen', async () => {
    h = await fogCampaign();
    const s = campaignState(h);
    const alice = commanderMapView(s, ['hadewych']);
    const bob = commanderMapView(s, ['grallune']);
    const where = (v: MapView, id: string) => v.tokens.find((t) => t.armyId === id);
    // Alice (Chaos): Laugher is hers, where it is; Eglidain was last known at its start, 2122, a half period ago.
    expect(valormrMap.format(where(alice, 'laugher')!.hex)).toBe('0323');
    expect(valormrMap.format(where(alice, 'eglidain')!.hex)).toBe('2122');
    expect(where(alice, 'eglidain')?.seen).toMatchObject({ how: 'public', ageHalves: 1, label: 'last known Day 1, morning' });
    // Aeskrvald stands next to Hadewych: Alice sees it there, now.
    expect(valormrMap.format(where(alice, 'aeskrvald')!.hex)).toBe('0817');
    expect(where(alice, 'aeskrvald')?.seen).toMatchObject({ how: 'contact', ageHalves: 0 });
    // Bob (Law) the other way round.
    expect(valormrMap.format(where(bob, 'eglidain')!.hex)).toBe('2530');
    expect(valormrMap.format(where(bob, 'laugher')!.hex)).toBe('1027');
    // Nobody's map holds a token where its commander does not know it to be: an enemy not seen
    // now stands where it was when fog fell (its scenario start).
    const start = new Map(loadShippedScenario('valormr').armies.map((a) => [a.id, a.hex]));
    for (const [view, side] of [[alice, 'chaos'], [bob, 'law']] as const) {
      for (const t of view.tokens) {
        const truth = s.armies[t.armyId]!;
        if (truth.side === side || t.seen?.ageHalves === 0) continue;
        expect(valormrMap.format(t.hex), `${t.armyId} on ${side}'s map`).toBe(start.get(t.armyId));
      }
    }
  });

  it('GIVEN the same campaign THEN the pixels say the same: nothing is drawn on Alice\'s map where Eglidain is, and Bob\'s map draws it there', async () => {
    h = await fogCampaign();
    const s = campaignState(h);
    const empty = patch(publicMapView(s), '2530');
    expect(patch(commanderMapView(s, ['hadewych']), '2530')).toEqual(empty);
    expect(patch(commanderMapView(s, ['grallune']), '2530')).not.toEqual(empty);
    // And where Laugher is now, the other way round.
    const laugher = patch(publicMapView(s), '0323');
    expect(patch(commanderMapView(s, ['grallune']), '0323')).toEqual(laugher);
    expect(patch(commanderMapView(s, ['hadewych']), '0323')).not.toEqual(laugher);
  });

  it('GIVEN fog of war THEN the channel hears no move or placement and the public map has no army; each commander is told their own', async () => {
    h = await fogCampaign();
    await h.run('@bob /move army:grallune to:1824', '!tick 2');
    const s = campaignState(h);
    expect(publicMapView(s).tokens).toEqual([]);
    const afterFog = h.outputs.slice(h.outputs.findIndex((o) => /positions fog/.test(o.content)));
    const channel = afterFog.filter((o) => o.to === 'channel').map((o) => o.content).join('\n');
    expect(channel).not.toMatch(/\b(1824|1825|2530|0323|0817)\b/);
    expect(channel).not.toMatch(/Grallune|Eglidain|Aeskrvald|Laugher|marche/);
    expect(channel).toMatch(/The clock moves on|→ Day 1, (afternoon|evening)/);
    expect(h.dms('bob').some((o) => /Grallune|Ingegerd/.test(o.content) && /18\d\d/.test(o.content))).toBe(true);
    // Nor does the public status.
    const [status] = await h.run('@carol /campaign status');
    expect(status?.content).not.toMatch(/ at \d{4}/);
    expect(JSON.stringify(status?.data)).not.toMatch(/"hex"/);
  });

  it('GIVEN positions public (the default) THEN every commander\'s map shows every army where it is, with no age', async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Open"\n@referee /campaign start\n@referee /army edit army:eglidain hex:2530' });
    const s = campaignState(h);
    const view = commanderMapView(s, ['hadewych']);
    expect(valormrMap.format(view.tokens.find((t) => t.armyId === 'eglidain')!.hex)).toBe('2530');
    expect(view.tokens.every((t) => t.seen === undefined)).toBe(true);
    expect(publicMapView(s).tokens.length).toBe(Object.keys(s.armies).length);
  });
});
