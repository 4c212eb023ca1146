import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { campaignExportText, exportCampaign } from '../../src/app/campaign/exportCampaign.js';
import { buildExport, exportPlan, keepExportPartsIn, type BuiltExport, type PartSizes } from '../../src/app/campaign/exportChunks.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { readReplayFile } from '../../src/app/journal/replayFile.js';
import { and, eq } from 'drizzle-orm';
import { writeTransaction } from '../../src/db/client.js';
import { oneOff } from '../../src/db/prepared.js';
import { replayText, reportText } from '../../src/console/replay.js';
import { campaignState, consoleHarness, type Harness } from '../scenarios/harness.js';
import { testTempDir } from '../support/tempDirs.js';
import { ConsoleSession, type ConsoleOutput } from '../../src/console/session.js';

/*
 * Issue 25: a season's `/campaign export` is built from closed parts of the journal and the log,
 * compressed once and kept beside the database (src/app/campaign/exportChunks.ts). Whatever was
 * kept, the export is the very text the campaign's whole export is (campaignExportText, read in
 * one transaction), and it replays; a kept part that is not the one needed (damaged, cut short,
 * of another database's rows, of the campaign before it ended) is built again.
 */

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:bob',
  '@referee /campaign start',
];
/** Commands that each write the journal and the log: any order of them is a campaign. */
const MOVES = ['@alice /move army:hadewych to:0817', '@bob /rest army:aeskrvald', '!tick', '@alice /hold army:hadewych', '@referee /turn undo', '@bob /move army:aeskrvald to:1418'];

let h: Harness | undefined;
afterEach(() => h?.close());

/** The export as parts would give it (plan in one transaction, parts kept or built), as text. */
async function partsExport(x: Harness, campaignId = campaignState(x).id): Promise<{ text: string; built: BuiltExport }> {
  const head = headOf(x, campaignId);
  const plan = readCampaign(x.app, { campaignId }, (tx) => exportPlan(x.app, tx, head));
  const built = await buildExport(x.app, plan);
  return { text: gunzipSync(Buffer.concat(built.members)).toString('utf8'), built };
}

/** The head the use-case writes, taken from the whole export so that both are of the same moment. */
function headOf(x: Harness, campaignId: string): Record<string, unknown> & { meta: { id: string } } {
  const whole = campaignExportText(x.app, campaignId);
  const { format: _f, version: _v, eventCount: _e, replay: _r, closedContacts: _c, ...head } = JSON.parse(`${whole.split('\n')[0] ?? ''}]}}`) as Record<string, unknown> & { meta: { id: string } };
  return head;
}

/**
 * Adds `count` closed contact records (line 1's array; a season holds ~1,900) from `from` on: the
 * export copies their stored text, so any record does (these short games close none of their own).
 */
function closeContacts(x: Harness, from: number, count: number): void {
  const id = campaignState(x).id;
  for (let i = from; i < from + count; i++) {
    const record = { id: `k${i}`, armies: ['hadewych', 'aeskrvald'], note: 'x'.repeat(i % 7) };
    writeTransaction(x.app.db, () => oneOff(x.app.db, (q, { contacts }) => q.insert(contacts).values({ campaignId: id, id: `k${i}`, step: 'closed', armyIds: ['hadewych', 'aeskrvald'], data: record as never, live: false }).prepare()).run());
  }
}

async function played(sizes: PartSizes, lines: readonly string[]): Promise<{ x: Harness; dir: string }> {
  const x = await consoleHarness({ seed: 7 });
  h = x;
  const dir = testTempDir('valormr-export-parts-');
  keepExportPartsIn(x.app, dir, sizes);
  await x.run(...SETUP, ...lines);
  return { x, dir };
}

describe('the export from closed parts (exportChunks.ts)', () => {
  it('PROPERTY: whatever was played and whatever parts were kept before, the export is byte for byte the whole export, and the parts kept are taken, not built again', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.constantFrom(...MOVES), { minLength: 4, maxLength: 14 }),
      fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }),
      fc.array(fc.constantFrom(...MOVES), { maxLength: 6 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 4 }),
      async (first, journal, events, contacts, more, closed, closedLater) => {
        h?.close();
        const { x } = await played({ journal, events, contacts }, first);
        closeContacts(x, 0, closed);
        const one = await partsExport(x);
        expect(one.text).toBe(campaignExportText(x.app, campaignState(x).id));
        const again = await partsExport(x);
        expect(again.text).toBe(one.text);
        expect(again.built.built).toBe(0);
        expect(again.built.kept).toBe(one.built.kept + one.built.built);
        await x.run(...more);
        closeContacts(x, closed, closedLater);
        const later = await partsExport(x);
        expect(later.text).toBe(campaignExportText(x.app, campaignState(x).id));
        expect(later.built.kept).toBeGreaterThanOrEqual(again.built.kept === 0 ? 0 : 1);
      },
    ), { numRuns: 6 });
  }, 600_000);

  it('GIVEN parts kept WHEN the referee exports THEN the file replays exactly, as the use-case gives it (plain, or gzip under a limit)', async () => {
    const { x } = await played({ journal: 2, events: 4 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick', '@referee /turn undo', '!tick']);
    await partsExport(x);
    const [plain] = await exportCampaign(x.app, REFEREE);
    const text = new TextDecoder().decode(plain?.files?.[0]?.data);
    expect(text).toBe(campaignExportText(x.app, campaignState(x).id));
    expect(reportText(await replayText(text))).toMatch(/^replays exactly/);
    const [packed] = await exportCampaign(x.app, REFEREE, 30_000);
    const file = packed?.files?.[0];
    expect(file?.name).toMatch(/\.json\.gz$/);
    expect(gunzipSync(file?.data ?? new Uint8Array()).toString('utf8')).toBe(text);
  }, 120_000);

  it('GIVEN an exports folder others could read or swap (a link, a folder writable by all, one open to others) WHEN exported THEN parts are kept only in a folder of this user\'s own, mode 700, and the export is whole either way', async () => {
    const { x } = await played({ journal: 2, events: 3 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick']);
    const id = campaignState(x).id;
    const whole = campaignExportText(x.app, id);
    const base = testTempDir('valormr-export-folders-');
    // A folder writable by everyone, not sticky: anyone could put another `exports` in its place.
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    keepExportPartsIn(x.app, join(open, 'exports'), { journal: 2, events: 3 });
    const fromOpen = await partsExport(x);
    expect(fromOpen.text).toBe(whole);
    expect(fromOpen.built.built).toBeGreaterThan(0);
    expect(existsSync(join(open, 'exports', id))).toBe(false);
    // A link to a folder elsewhere.
    mkdirSync(join(base, 'elsewhere'));
    symlinkSync(join(base, 'elsewhere'), join(base, 'link'));
    keepExportPartsIn(x.app, join(base, 'link'), { journal: 2, events: 3 });
    expect((await partsExport(x)).text).toBe(whole);
    expect(readdirSync(join(base, 'elsewhere'))).toEqual([]);
    // The user's own folder, made readable by others: closed again, and the parts kept there.
    const own = join(base, 'own');
    mkdirSync(own, { mode: 0o755 });
    chmodSync(own, 0o755);
    keepExportPartsIn(x.app, own, { journal: 2, events: 3 });
    expect(statSync(own).mode & 0o777).toBe(0o700);
    const first = await partsExport(x);
    expect(first.text).toBe(whole);
    expect(readdirSync(join(own, id)).length).toBeGreaterThan(0);
    const again = await partsExport(x);
    expect(again.built.built).toBe(0);
    expect(again.text).toBe(whole);
  }, 120_000);

  it('GIVEN kept parts damaged, cut short, emptied, or of another database\'s rows WHEN exported THEN each is built again and the export is still the whole one', async () => {
    const { x, dir } = await played({ journal: 2, events: 3 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick']);
    const first = await partsExport(x);
    const files = readdirSync(join(dir, campaignState(x).id)).map((f) => join(dir, campaignState(x).id, f)).sort();
    expect(files.length).toBeGreaterThanOrEqual(4);
    const [a, b, c, d] = files as [string, string, string, string];
    const bytes = readFileSync(a);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 5) ^ 0xff, bytes.length - 5);
    writeFileSync(a, bytes);
    writeFileSync(b, readFileSync(b).subarray(0, 30));
    writeFileSync(c, '');
    rmSync(d);
    const second = await partsExport(x);
    expect(second.text).toBe(first.text);
    expect(second.built.built).toBeGreaterThanOrEqual(4);
    // Another database's rows: the last entry of the first closed journal part rewritten by hand.
    const id = campaignState(x).id;
    writeTransaction(x.app.db, () => oneOff(x.app.db, (q, { journal }) => q.update(journal).set({ at: '2020-01-01T00:00:00.000Z' }).where(and(eq(journal.campaignId, id), eq(journal.seq, 1))).prepare()).run());
    const third = await partsExport(x);
    expect(third.text).toBe(campaignExportText(x.app, id));
    expect(third.text).not.toBe(first.text);
    expect(() => readReplayFile(third.text)).not.toThrow();
  }, 120_000);

  it('GIVEN kept parts whose bodies were checked once (and are not hashed again while unchanged) WHEN one is changed in place, its size and times put back THEN it is hashed again and built again', async () => {
    const { x, dir } = await played({ journal: 2, events: 3, contacts: 1 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick']);
    closeContacts(x, 0, 3);
    const first = await partsExport(x);
    // A file changed within the clock's grain of its last change could keep its times: files are
    // taken on their stamp only once they last changed seconds ago (src/cacheFile.ts).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const checked = await partsExport(x);
    expect(checked.built.built).toBe(0);
    const id = campaignState(x).id;
    const files = readdirSync(join(dir, id)).map((f) => join(dir, id, f));
    expect(files.some((f) => f.includes('contacts-'))).toBe(true);
    for (const file of files) {
      const was = statSync(file);
      const bytes = readFileSync(file);
      bytes.writeUInt8(bytes.readUInt8(bytes.length - 5) ^ 0xff, bytes.length - 5);
      writeFileSync(file, bytes);
      utimesSync(file, was.atime, was.mtime);
    }
    const damaged = await partsExport(x);
    expect(damaged.text).toBe(first.text);
    expect(damaged.built.built).toBe(files.length);
    expect(damaged.built.kept).toBe(0);
  }, 120_000);

  it('GIVEN parts kept for a campaign WHEN the campaign is deleted THEN its kept parts are removed, and another campaign\'s stay', async () => {
    const { x, dir } = await played({ journal: 2, events: 3, contacts: 1 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick']);
    closeContacts(x, 0, 3);
    const id = campaignState(x).id;
    await partsExport(x);
    expect(readdirSync(join(dir, id)).length).toBeGreaterThan(0);
    const other = join(dir, 'another-campaign');
    mkdirSync(other);
    writeFileSync(join(other, 'journal-0.gz'), 'kept');
    await x.run('@referee /campaign delete confirm:"Autumn War"');
    await expect.poll(() => existsSync(join(dir, id)), { timeout: 30_000 }).toBe(false);
    expect(readdirSync(other)).toEqual(['journal-0.gz']);
  }, 120_000);

  it('GIVEN parts kept while the campaign ran WHEN it ends THEN its export shows the seeds: parts of the ended campaign are other parts', async () => {
    const { x } = await played({ journal: 2, events: 3 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick']);
    const id = campaignState(x).id;
    const running = await partsExport(x);
    expect(running.text).toContain('(withheld until the campaign ends)');
    await x.run('@referee /campaign end confirm:"Autumn War"');
    const ended = await partsExport(x, id);
    expect(ended.text).toBe(campaignExportText(x.app, id));
    expect(ended.text).not.toContain('(withheld until the campaign ends)');
  }, 120_000);

  it('GIVEN a long export being built WHEN another campaign\'s referee runs a command THEN it is answered before the export is finished, while the export\'s closed parts are still being built', async () => {
    const { x, dir } = await played({ journal: 1, events: 2 }, ['@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick', '@alice /hold army:hadewych', '!tick']);
    const id = campaignState(x).id;
    const outputs: ConsoleOutput[] = [];
    const other = new ConsoleSession(x.app, { where: { guildId: 'console', channelId: 'other', baseDir: process.cwd() }, outDir: testTempDir('valormr-export-other-'), write: (o) => outputs.push(o), timeZone: 'UTC' });
    await other.handle('@carol /campaign create scenario:valormr name:"Winter War"');
    const plan = readCampaign(x.app, { campaignId: id }, (tx) => exportPlan(x.app, tx, headOf(x, id)));
    const parts = plan.journalParts + plan.eventParts;
    expect(parts).toBeGreaterThan(10);
    let finished = false;
    const building = buildExport(x.app, plan).then((b) => { finished = true; return b; });
    const before = outputs.length;
    await other.handle('@carol /campaign status');
    // The other campaign's answer came while the export was being built: it was not finished, and fewer of its parts were kept than it has.
    expect(outputs.slice(before).map((o) => o.content).join('\n')).toContain('Winter War');
    expect(finished).toBe(false);
    const keptSoFar = existsSync(join(dir, id)) ? readdirSync(join(dir, id)).length : 0;
    expect(keptSoFar).toBeLessThan(parts);
    const built = await building;
    expect(built.built).toBe(parts);
    expect(readdirSync(join(dir, id)).length).toBe(parts);
  }, 120_000);
});
