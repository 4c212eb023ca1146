import { afterEach, describe, expect, it } from 'vitest';
import { HALF_PERIODS } from '../../src/engine/clock/gameTime.js';
import { commanderMapView, halfPeriodTag } from '../../src/engine/views/mapView.js';
import { commanderKnowledge } from '../../src/app/map/knowledge.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { consoleHarness, valormrMap, type Harness } from '../scenarios/harness.js';
import { createCanvas } from '@napi-rs/canvas';
import { formatHex, hexKey } from '../../src/engine/hex/index.js';
import { computeLayout, layoutHexes, showHexId, type Rect } from '../../src/render/layout.js';
import { legendEntryCount } from '../../src/render/legend.js';
import { placeLabels, rectsOverlap } from '../../src/render/placeLabels.js';
import { drawPaths } from '../../src/render/routes.js';
import { font } from '../../src/render/fonts.js';
import { hexIdSpot } from '../../src/render/staticLayer.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign start',
  '@referee /weather set fog:false wind:none',
  '@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"',
].join('\n');

describe('the private map tags a voyage as the /sail preview schedules it', () => {
  it('GIVEN /sail to:0506 previewed hex by hex WHEN the private map is drawn THEN every path tag is the half period the preview gave that hex, and the last is the arrival', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    const [sail] = await h.run('@prince /sail army:aeskrvald to:0506');
    const preview = (sail?.data as { preview: { hex: string; day: number; half: string }[] }).preview;
    expect(sail?.content).toContain('Arrives Day 2, evening');
    const prince = { userId: 'prince', userName: 'prince', guildId: 'console', channelId: 'console', roleIds: [] };
    const view = readCampaign(h.app, { actor: prince }, (tx) => commanderMapView(tx.state, ['aeskrvald'], commanderKnowledge(tx, ['aeskrvald'])));
    const path = view.paths.find((p) => p.armyId === 'aeskrvald');
    expect(path?.steps).toHaveLength(preview.length);
    const tag = (p: { day: number; half: string }): string => halfPeriodTag({ day: p.day, half: HALF_PERIODS.indexOf(p.half as (typeof HALF_PERIODS)[number]) as 0 | 1 | 2 | 3 });
    expect(path?.steps.map((s) => s.label)).toEqual(preview.map(tag));
    expect(path?.steps.at(-1)?.label).toBe('D2 Eve');
    // The /map answer carries the same schedule.
    const [map] = await h.run('@prince /map view:mine');
    const times = (map?.data as { stepTimes: Record<string, { day: number; half: number }[]> }).stepTimes.aeskrvald;
    expect(times?.map((t) => halfPeriodTag({ day: t.day, half: t.half as 0 | 1 | 2 | 3 }))).toEqual(preview.map(tag));
  });
});

describe('the private map keeps its step tags off the hex ids it prints', () => {
  it('GIVEN /sail to:0506 along the north coast WHEN the tags are placed as on the 1,600 px private map THEN none covers a printed id (D2 Mor sat on 0903, D1 Mor on 2103)', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    await h.run('@prince /sail army:aeskrvald to:0506');
    const prince = { userId: 'prince', userName: 'prince', guildId: 'console', channelId: 'console', roleIds: [] };
    const view = readCampaign(h.app, { actor: prince }, (tx) => commanderMapView(tx.state, ['aeskrvald'], commanderKnowledge(tx, ['aeskrvald'])));
    const map = valormrMap;
    const layout = computeLayout(map.width, map.height, { legendEntries: legendEntryCount(view.kind) });
    const ctx = createCanvas(layout.width, layout.height).getContext('2d');
    const obstacles: Rect[] = [];
    const tags = drawPaths(ctx, layout, view, obstacles, 'subset');
    expect(tags.length).toBe(7);
    const placed = placeLabels(tags, obstacles, { x: layout.map.x + 2, y: layout.map.y + 2, w: layout.map.w - 4, h: layout.map.h - 4 });
    expect(placed).toHaveLength(7);
    // The ids the private map prints ('subset': odd columns of odd rows), but the route's own (drawn over the route).
    const onRoute = new Set(view.paths.flatMap((p) => p.steps.map((st) => hexKey(st.hex))));
    ctx.font = font(hexIdSpot(layout, { q: 0, r: 0 }).px, 'sans', { weight: 600 });
    const printed = layoutHexes(layout).filter((x) => showHexId('subset', x) && !onRoute.has(hexKey(x))).map((x) => {
      const { at, px } = hexIdSpot(layout, x);
      const w = ctx.measureText(formatHex(x)).width;
      return { id: formatHex(x), rect: { x: at.x - w / 2, y: at.y - px / 2, w, h: px } };
    });
    const hidden = placed.flatMap((p) => printed.filter((i) => rectsOverlap(p.rect, i.rect)).map((i) => `${p.id} over ${i.id}`));
    expect(hidden).toEqual([]);
  });
});
