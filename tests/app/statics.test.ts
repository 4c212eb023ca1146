import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { staticsOf } from '../../src/app/statics.js';
import { ConsoleSession } from '../../src/console/session.js';
import type { Harness } from '../scenarios/harness.js';
import { campaignIds, scheduled, SETUP } from '../scheduler/fixtures.js';
import { rawSqlite } from '../../src/db/client.js';
import { testTempDir } from '../support/tempDirs.js';

let h: (Harness & { id: string }) | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe('a campaign\'s statics (scenario, map model, map key)', () => {
  it('GIVEN campaigns of one scenario THEN they share one parsed document and map model, under the key of the document\'s JSON; a changed document gets its own', async () => {
    h = await scheduled();
    const s = new ConsoleSession(h.app, { where: { guildId: 'console', channelId: 'b', baseDir: process.cwd() }, outDir: testTempDir('valormr-statics-'), write: () => {} });
    for (const line of SETUP.split('\n')) await s.handle(line);
    const [a, b] = campaignIds(h.app) as [string, string];
    const first = staticsOf(h.app, a);
    const second = staticsOf(h.app, b);
    expect(second.scenario).toBe(first.scenario);
    expect(second.map).toBe(first.map);
    // The key is what it always was (the layer files beside a database are found again).
    expect(first.mapKey).toBe(createHash('sha1').update(JSON.stringify(first.scenario)).digest('hex'));
    // A third campaign whose stored document differs (a copy with another map name) is its own.
    const db = rawSqlite(h.app.db);
    const cols = (db.prepare('select name from pragma_table_info(?)').all('campaigns') as { name: string }[]).map((c) => c.name);
    const pick = cols.map((c) => (c === 'id' ? "'changed'" : c === 'channel_id' ? "'c'" : c === 'scenario' ? "json_set(scenario, '$.name', 'Other')" : c));
    db.prepare(`insert into campaigns (${cols.join(', ')}) select ${pick.join(', ')} from campaigns where id = ?`).run(a);
    const third = staticsOf(h.app, 'changed');
    expect(third.mapKey).not.toBe(first.mapKey);
    expect((third.scenario as { name?: string }).name).toBe('Other');
    expect(third.scenario).not.toBe(first.scenario);
    expect(() => staticsOf(h!.app, 'no-such-campaign')).toThrow(/no scenario/);
  });
});
