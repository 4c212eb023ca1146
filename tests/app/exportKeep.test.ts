import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { campaignExportText } from '../../src/app/campaign/exportCampaign.js';
import { buildExport, exportPlan, keepExportPartsIn } from '../../src/app/campaign/exportChunks.js';
import { keepExportParts } from '../../src/app/campaign/exportKeep.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { startScheduler } from '../../src/cron/startScheduler.js';
import { campaignState, consoleHarness, type Harness } from '../scenarios/harness.js';
import { testTempDir } from '../support/tempDirs.js';

/*
 * Issue 25: the closed parts of a long campaign's export are built in the background
 * (src/app/campaign/exportKeep.ts, started by the scheduler), so that the referee's first export
 * (after a deploy, or ever) finds them kept; the kept parts of campaigns the database no longer
 * has are removed.
 */

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:bob',
  '@referee /campaign start',
];
const PLAY = ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick', '@alice /hold army:hadewych', '!tick'];
const SIZES = { journal: 2, events: 3, contacts: 1 };
const noRest = (): Promise<void> => Promise.resolve();

let h: Harness | undefined;
afterEach(() => h?.close());

async function played(): Promise<{ x: Harness; dir: string; id: string }> {
  const x = await consoleHarness({ seed: 11 });
  h = x;
  const dir = testTempDir('valormr-export-keep-');
  keepExportPartsIn(x.app, dir, SIZES);
  await x.run(...SETUP, ...PLAY);
  return { x, dir, id: campaignState(x).id };
}

/** The referee's export as parts give it (the plan in one read transaction, then the parts), as text, and how many parts it built. */
async function exported(x: Harness, id: string): Promise<{ text: string; built: number; kept: number }> {
  const whole = campaignExportText(x.app, id);
  const { format: _f, version: _v, eventCount: _e, replay: _r, closedContacts: _c, ...head } = JSON.parse(`${whole.split('\n')[0] ?? ''}]}}`) as Record<string, unknown> & { meta: { id: string } };
  const plan = readCampaign(x.app, { campaignId: id }, (tx) => exportPlan(x.app, tx, head));
  const built = await buildExport(x.app, plan);
  return { text: gunzipSync(built.packed).toString('utf8'), built: built.built, kept: built.kept };
}

describe('the export\'s closed parts built in the background (exportKeep.ts)', () => {
  it('GIVEN a long campaign never exported WHEN the builder has run THEN the first export builds nothing and is the whole export; after more play only the parts closed since are built', async () => {
    const { x, dir, id } = await played();
    expect(existsSync(join(dir, id))).toBe(false);
    const first = await keepExportParts(x.app, { pause: noRest });
    expect(first.built).toBeGreaterThan(4);
    const filesThen = readdirSync(join(dir, id)).length;
    const again = await keepExportParts(x.app, { pause: noRest });
    expect(again.built).toBe(0);
    const one = await exported(x, id);
    expect(one.built).toBe(0);
    expect(one.kept).toBe(filesThen);
    expect(one.text).toBe(campaignExportText(x.app, id));
    await x.run('!tick', '@bob /move army:aeskrvald to:1418', '!tick', '!tick');
    const later = await keepExportParts(x.app, { pause: noRest });
    expect(later.built).toBeGreaterThan(0);
    expect(later.built).toBeLessThan(readdirSync(join(dir, id)).length);
    const two = await exported(x, id);
    expect(two.built).toBe(0);
    expect(two.text).toBe(campaignExportText(x.app, id));
  }, 120_000);

  it('GIVEN kept parts of campaigns the database no longer has WHEN the builder first runs THEN they are removed, and the kept parts of the campaigns it has stay', async () => {
    const { x, dir, id } = await played();
    await keepExportParts(x.app, { pause: noRest });
    const gone = join(dir, 'c0ffee00');
    mkdirSync(gone);
    writeFileSync(join(gone, 'journal-0.gz'), 'kept');
    // A new process: the builder's first run there looks at every campaign and every kept folder.
    keepExportPartsIn(x.app, dir, SIZES);
    const run = await keepExportParts(x.app, { pause: noRest });
    expect(run.removed).toBe(1);
    await expect.poll(() => existsSync(gone), { timeout: 30_000 }).toBe(false);
    expect(readdirSync(join(dir, id)).length).toBeGreaterThan(4);
    expect((await exported(x, id)).built).toBe(0);
  }, 120_000);

  it('GIVEN a builder asked to stop WHEN it runs THEN it builds nothing, and a run asked for while one goes on is that run', async () => {
    const { x, dir, id } = await played();
    expect((await keepExportParts(x.app, { stopped: () => true })).built).toBe(0);
    expect(existsSync(join(dir, id))).toBe(false);
    const a = keepExportParts(x.app, { pause: noRest });
    const b = keepExportParts(x.app, { pause: noRest });
    expect(b).toBe(a);
    expect((await a).built).toBeGreaterThan(4);
  }, 120_000);

  it('GIVEN the scheduler WHEN it runs THEN it starts the builder, and the parts get kept without any export', async () => {
    const { x, dir, id } = await played();
    const s = startScheduler(x.app, { trigger: () => ({ stop: () => undefined }) });
    await expect.poll(() => existsSync(join(dir, id)) && readdirSync(join(dir, id)).length > 4, { timeout: 60_000 }).toBe(true);
    s.stop();
    await keepExportParts(x.app, { pause: noRest });
    expect((await exported(x, id)).built).toBe(0);
  }, 120_000);

  it('GIVEN campaigns with no closed part to build WHEN the builder looks at them THEN it builds nothing, and lets the event loop turn once it has looked for sliceMs', async () => {
    const x = await consoleHarness({ seed: 11 });
    h = x;
    keepExportPartsIn(x.app, testTempDir('valormr-export-keep-'));
    await x.run(...SETUP);
    let turns = 0;
    const turned = (): void => {
      turns++;
    };
    // A slice longer than the run: it looks at the campaign without a turn of the event loop.
    setImmediate(turned);
    expect(await keepExportParts(x.app, { pause: noRest, sliceMs: 60_000 })).toEqual({ built: 0, removed: 0 });
    expect(turns).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    // An order changes the campaign, so the next run looks at it again; with a slice of 0 it lets the loop turn first.
    await x.run('@alice /move army:hadewych to:0817');
    turns = 0;
    setImmediate(turned);
    expect(await keepExportParts(x.app, { pause: noRest, sliceMs: 0 })).toEqual({ built: 0, removed: 0 });
    expect(turns).toBe(1);
  }, 120_000);
});
