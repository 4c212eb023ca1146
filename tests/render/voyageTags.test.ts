import { afterEach, describe, expect, it } from 'vitest';
import { HALF_PERIODS } from '../../src/engine/clock/gameTime.js';
import { commanderMapView, halfPeriodTag } from '../../src/engine/views/mapView.js';
import { commanderKnowledge } from '../../src/app/map/knowledge.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';

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
