/**
 * A campaign held by another process on the same PostgreSQL for longer than a command waits
 * (lock_timeout) is "busy", not "the store is unavailable": the person is told nothing was done
 * and to try again in a moment, the connection is kept, and once the other process lets go the
 * same command works. (The real processes and the store going down: tests/process/pgFaults.test.ts.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { startCampaign } from '../../src/app/campaign/lifecycle.js';
import { createApp } from '../../src/app/createApp.js';
import { errorMessages, isStoreUnavailable, STORE_BUSY_TEXT } from '../../src/app/handleError.js';
import type { Logger } from '../../src/app/ports.js';
import { openPgBridge } from '../../src/db/pg/bridge.js';
import { freshPostgresDatabase } from '../support/postgres.js';

const url = freshPostgresDatabase();
const app = createApp({ databasePath: url });
const other = openPgBridge(url);

afterAll(() => {
  other.close();
  app.close();
});

describe('a campaign busy in another process', () => {
  it('GIVEN another process holding the campaign past the lock wait WHEN a command runs THEN it is told the campaign is busy (not the store down), nothing is done, and it works once the campaign is free', () => {
    const actor = { userId: 'u-ref', userName: 'Ref', guildId: 'g1', channelId: 'c1', roleIds: [] };
    const [created] = createCampaign(app, actor, { name: 'Busy War', scenario: 'valormr' });
    const campaignId = (created!.data as { campaignId: string }).campaignId;
    if (app.db.dialect !== 'postgres') throw new Error('the app is not on PostgreSQL');
    // The bot waits 10 s; here a fifth of a second.
    app.db.bridge.query('SET lock_timeout = 200', []);
    other.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [campaignId]);

    const failure = (() => {
      try {
        startCampaign(app, actor);
        return undefined;
      } catch (err) {
        return err;
      }
    })();
    expect(isStoreUnavailable(failure)).toBe(false);
    const logged: string[] = [];
    const logger: Logger = { debug: () => {}, info: (_o, m) => void logged.push(`info ${m}`), warn: (_o, m) => void logged.push(`warn ${m}`), error: (_o, m) => void logged.push(`error ${m}`) };
    expect(errorMessages(failure, logger)).toEqual([expect.objectContaining({ to: 'ephemeral', content: STORE_BUSY_TEXT, data: { error: 'storeBusy' } })]);
    expect(logged).toEqual(['info the campaign is busy in another process']);
    expect(other.query('SELECT status FROM campaigns WHERE id = $1', [campaignId]).rows).toEqual([['setup']]);

    other.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [campaignId]);
    startCampaign(app, actor);
    expect(other.query('SELECT status FROM campaigns WHERE id = $1', [campaignId]).rows).toEqual([['running']]);
  });
});
