import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { exportCampaign } from '../../src/app/campaign/exportCampaign.js';
import { keepExportPartsIn } from '../../src/app/campaign/exportChunks.js';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleHarness } from '../scenarios/harness.js';

/*
 * The host's way round Discord's upload limit (docs/replay.md): `npm run export -- ID [FILE]`
 * writes the export a referee would get, and `npm run replay -- FILE` reads it, also gzipped as
 * /campaign export sends it when it is too large for Discord as it is.
 */

const dir = mkdtempSync(join(tmpdir(), 'valormr-export-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tool = (script: string, ...args: string[]): { code: number | null; out: string; err: string } => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `src/console/${script}`, ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('npm run export and npm run replay of a gzipped export', () => {
  it('GIVEN a played campaign WHEN the host exports it to a file THEN the file is the referee\'s export, and it replays exactly gzipped; an unknown campaign is refused with what is accepted', async () => {
    const db = join(dir, 'bot.db');
    const h = await consoleHarness({ databasePath: db });
    await h.run('@referee /campaign create scenario:valormr name:"Autumn War"', '@referee /campaign assign army:hadewych user:alice', '@referee /campaign start', '@alice /move army:hadewych to:0817', '!tick');
    const id = (h.outputs.find((o) => (o.data as { campaignId?: string } | undefined)?.campaignId)?.data as { campaignId: string }).campaignId;
    h.close();

    const file = join(dir, 'autumn.json');
    const wrote = tool('exportMain.ts', id, file, '--store', db);
    expect(wrote.err).toBe('');
    expect(wrote.code).toBe(0);
    expect(wrote.out).toContain(`Wrote ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{"format":"valormr-campaign-export"')).toBe(true);

    writeFileSync(`${file}.gz`, gzipSync(text));
    const packed = tool('replayMain.ts', `${file}.gz`);
    expect(packed.out).toMatch(/^replays exactly/);
    expect(packed.code).toBe(0);

    const unknown = tool('exportMain.ts', 'no-such-campaign', '--store', db);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(`REFUSED: there is no campaign no-such-campaign in this store; it holds ${id} (Autumn War)`);
  });

  it('GIVEN a campaign whose export is over the upload limit even compressed WHEN the referee exports it THEN it comes in parts, each a gzip file under the limit, and `npm run replay -- PART...` replays them exactly; a part missing is refused', async () => {
    const h = await consoleHarness({ databasePath: join(dir, 'parts.db'), seed: 7 });
    // Small closed parts, so that a short campaign's export has several members to cut between.
    keepExportPartsIn(h.app, join(dir, 'parts-kept'), { journal: 2, events: 4 });
    await h.run('@referee /campaign create scenario:valormr name:"Autumn War"', '@referee /campaign assign army:hadewych user:alice', '@referee /campaign assign army:aeskrvald user:bob',
      '@referee /campaign start', '@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '!tick');
    const referee = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };
    const whole = (await exportCampaign(h.app, referee))[0]?.files?.[0]?.data ?? new Uint8Array();
    const compressed = gzipSync(whole).byteLength;
    // A limit under the compressed size, over its largest member (the head, with the scenario, is most of a short campaign).
    let limit = compressed;
    let replies = await exportCampaign(h.app, referee, limit);
    while (replies.length === 1 && replies[0]?.files?.length) replies = await exportCampaign(h.app, referee, --limit);
    h.close();
    expect(replies.length).toBeGreaterThan(1);
    expect(replies[0]?.content).toMatch(/so it comes in \d+ parts\. Keep them all: `npm run replay -- /);
    const paths = replies.map((r, i) => {
      const file = r.files?.[0];
      expect(file?.name).toBe(`autumn-war-export.part-${i + 1}-of-${replies.length}.json.gz`);
      expect(file?.data.byteLength).toBeLessThanOrEqual(limit);
      const path = join(dir, file?.name ?? `part${i}`);
      writeFileSync(path, file?.data ?? new Uint8Array());
      return path;
    });
    expect(gunzipSync(Buffer.concat(paths.map((p) => readFileSync(p)))).toString('utf8')).toBe(new TextDecoder().decode(whole));
    const replayed = tool('replayMain.ts', ...paths);
    expect(replayed.out).toMatch(/^replays exactly/);
    expect(replayed.code).toBe(0);
    const missing = tool('replayMain.ts', ...paths.slice(0, -1));
    expect(missing.out).toMatch(/^REFUSED: .* is not a replayable export: line \d+: /);
    expect(missing.code).toBe(1);
  }, 120_000);
});
