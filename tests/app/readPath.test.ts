import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { armyChoices, placeChoices } from '../../src/app/autocomplete.js';
import { STATE_VERSION } from '../../src/engine/campaign/index.js';
import { autumnWar, consoleHarness, type Harness } from '../scenarios/harness.js';
import { rawSqlite } from '../../src/db/client.js';
import { testTempDir } from '../support/tempDirs.js';

/**
 * The read path (docs/architecture.md, "Reads and writes"): every command that changes nothing
 * runs in a deferred read transaction. It takes no write lock, so it answers while another
 * connection holds one, and it writes nothing, not even an old stored shape brought up to date.
 */

/** Commands that only read, each as a console line (referee's and a commander's). */
const READS = [
  '@referee /map',
  '@alice /map view:mine',
  '@referee /map army:aeskrvald',
  '@alice /campaign status',
  '@alice /army status army:hadewych',
  '@alice /turn status',
  '@alice /weather',
  '@referee /contact list',
  '@alice /campaign settings',
  '@referee /army plan army:elding',
  '@alice /notify',
  '@alice /rules',
  '@alice /dice verify',
  '@alice /dice log',
  '@referee /referee inbox',
  '@referee /campaign export',
];

const SETUP = autumnWar({ hadewych: 'alice', aeskrvald: 'bob' },
  '@referee /campaign start',
  '@alice /move army:hadewych to:0913',
  '@referee /army plan army:elding plan:hold',
  '!tick');

let h: Harness | undefined;
let other: BetterSqlite3.Database | undefined;
afterEach(() => {
  if (other?.inTransaction) other.exec('ROLLBACK');
  other?.close();
  other = undefined;
  h?.close();
  h = undefined;
});

async function campaignOnFile(): Promise<{ h: Harness; path: string }> {
  const path = join(testTempDir('valormr-readpath-'), 'campaign.db');
  return { h: await consoleHarness({ databasePath: path, setup: SETUP }), path };
}

/** Every row of every table, as one string: what the database holds. */
function contents(db: BetterSqlite3.Database): string {
  const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all() as string[];
  return tables.map((t) => `${t}:${JSON.stringify(db.prepare(`select * from "${t}"`).raw().all())}`).join('\n');
}

const dataVersion = (db: BetterSqlite3.Database): number => db.pragma('data_version', { simple: true }) as number;

describe('read-only commands are on the read path', () => {
  it('GIVEN another connection holding the write lock WHEN each read-only command runs THEN each answers, and nothing is written', async () => {
    const made = await campaignOnFile();
    h = made.h;
    other = new BetterSqlite3(made.path);
    const before = contents(other);
    const version = dataVersion(other);
    // The write lock, held by another connection for the whole run (a command on the write path waits for it, then fails).
    other.exec('BEGIN IMMEDIATE');
    for (const line of READS) {
      const out = await h.run(line);
      expect(out.length, line).toBeGreaterThan(0);
      for (const o of out) expect(`${line}: ${o.content}`).not.toMatch(/Something went wrong|locked|busy/i);
    }
    const where = { userId: 'alice', guildId: 'console', channelId: 'console', roleIds: [] };
    expect(armyChoices(h.app, where, 'hade').map((c) => c.value)).toContain('hadewych');
    expect(placeChoices(h.app, where, '0913').map((c) => c.value)).toContain('0913');
    other.exec('ROLLBACK');
    expect(contents(other)).toBe(before);
    expect(dataVersion(other)).toBe(version);
  });

  it('GIVEN the write lock held elsewhere WHEN a command that writes runs THEN it waits and fails (so the test above can fail)', async () => {
    const made = await campaignOnFile();
    h = made.h;
    other = new BetterSqlite3(made.path);
    other.exec('BEGIN IMMEDIATE');
    rawSqlite(h.app.db).pragma('busy_timeout = 50');
    const [out] = await h.run('@alice /hold army:hadewych');
    expect(out?.content).toMatch(/Something went wrong/);
  });

  it('GIVEN a state stored in an older shape WHEN read-only commands run THEN it is upgraded in memory only; the next write saves it', async () => {
    const made = await campaignOnFile();
    h = made.h;
    // An older shape version on the rows (the upgrade steps from it are no-ops for this state), read by a new process.
    rawSqlite(h.app.db).prepare('update campaigns set state_version = ?, revision = revision + 1').run(STATE_VERSION - 1);
    h.close();
    h = (await consoleHarness({ databasePath: made.path }));
    other = new BetterSqlite3(made.path, { readonly: true });
    const before = contents(other);
    for (const line of READS) await h.run(line);
    expect(contents(other)).toBe(before);
    await h.run('@alice /hold army:hadewych');
    expect(other.prepare('select state_version from campaigns').pluck().get()).toBe(STATE_VERSION);
  });
});
