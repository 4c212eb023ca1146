/**
 * `/web` in a process that does not serve the page (a shard other than 0, or another machine on
 * the same PostgreSQL): its link points at the serving process's public address, is signed with
 * the shared WEB_SECRET, and logs in once there. Without WEB_SECRET it gives no link and says why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { linkToWebElsewhere, startWebFromConfig } from '../../src/web/startWeb.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { fogSetup } from './webHarness.js';

const dir = mkdtempSync(join(tmpdir(), 'valormr-web-elsewhere-'));
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const linkOf = async (h: Harness, user: string) => (await h.run(`@${user} /web`)).at(-1)!;

describe('/web from a process that does not serve the page', () => {
  it('GIVEN two processes on one database and one WEB_SECRET, the page served by the first WHEN alice runs /web in the second THEN its link logs her in on the first, once', async () => {
    const databasePath = join(dir, 'shared.db');
    const config = loadConfig({ WEB_PORT: '0', WEB_SECRET: 'x'.repeat(40), WEB_PUBLIC_URL: 'https://valormr.example.org/' });
    const serving = await consoleHarness({ setup: fogSetup(), databasePath });
    open.push(serving);
    const web = await startWebFromConfig(serving.app, config);
    open.push(web!);
    const other = await consoleHarness({ databasePath });
    open.push(other);
    linkToWebElsewhere(other.app, config);
    const reply = await linkOf(other, 'alice');
    const url = (reply.data as { url: string }).url;
    expect(url).toMatch(/^https:\/\/valormr\.example\.org\/login\/[\w-]+\.[\w-]+$/);
    const local = url.replace('https://valormr.example.org', web!.url);
    const first = await fetch(local, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toMatch(/^\/c\//);
    expect((await fetch(local, { redirect: 'manual' })).status).toBe(404);
  });

  it('GIVEN no WEB_SECRET WHEN a process that does not serve the page starts THEN it warns to set WEB_SECRET and its /web says the page is not running here', async () => {
    const h = await consoleHarness({ setup: fogSetup() });
    open.push(h);
    const warned: string[] = [];
    linkToWebElsewhere({ ...h.app, logger: { ...h.app.logger, warn: (_o: object, m?: string) => void warned.push(m ?? '') } }, loadConfig({}));
    expect(warned).toEqual([expect.stringContaining('WEB_SECRET is not set: its /web cannot give links the page accepts. Set WEB_SECRET (the same on every machine) and WEB_PUBLIC_URL.')]);
    expect((await linkOf(h, 'alice')).content).toContain('The campaign web page is not running on this bot');
    linkToWebElsewhere(h.app, loadConfig({ WEB: 'off', WEB_SECRET: 'x'.repeat(40) }));
    expect(h.app.web).toBeUndefined();
  });
});

process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
