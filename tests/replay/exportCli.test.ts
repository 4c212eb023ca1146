import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
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
});
