/**
 * Which store the bot runs on (DATABASE_URL or DATABASE_PATH), the refusals of a bad URL, the
 * shards of one machine of several (SHARD_LIST), where the map layers are kept, and what a person
 * is told while the store is out of reach.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorMessages, isStoreUnavailable, STORE_UNAVAILABLE_TEXT } from '../../src/app/handleError.js';
import { silentLogger, type Logger } from '../../src/app/ports.js';
import { defaultLayerDir, describeTarget, isPostgresTarget } from '../../src/app/storeTarget.js';
import { databaseTarget, loadConfig, shardList } from '../../src/config.js';
import { openOrExplain } from '../../src/databaseGuard.js';
import { NewerSchemaError } from '../../src/db/schemaVersion.js';
import { StoreUnavailableError } from '../../src/db/storeErrors.js';
import { failureLine } from '../../src/failure.js';

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('DATABASE_URL chooses PostgreSQL; without it, the SQLite file', () => {
  it('GIVEN no DATABASE_URL THEN the store is DATABASE_PATH (its default when unset); GIVEN one THEN the URL wins', () => {
    expect(databaseTarget(loadConfig({}))).toBe('./data/valormr.db');
    expect(databaseTarget(loadConfig({ DATABASE_PATH: '/var/lib/v.db', DATABASE_URL: '' }))).toBe('/var/lib/v.db');
    for (const url of ['postgres://bot:s3cret@db.internal:5432/valormr', 'postgresql://bot@10.0.0.5/valormr', 'POSTGRES://localhost/valormr']) {
      expect(databaseTarget(loadConfig({ DATABASE_PATH: '/var/lib/v.db', DATABASE_URL: url }))).toBe(url);
      expect(isPostgresTarget(url)).toBe(true);
    }
    expect(isPostgresTarget('/var/lib/postgres.db')).toBe(false);
  });

  it('GIVEN a DATABASE_URL of another scheme, or no URL at all THEN it is refused naming the scheme and what is accepted, never repeating the URL', () => {
    const cases: [string, string][] = [
      ['mysql://bot:hunter2@db/valormr', 'DATABASE_URL: mysql:// is not a store the bot runs on; accepted: postgres://USER:PASSWORD@HOST:5432/DATABASE (or postgresql://...); for SQLite leave DATABASE_URL empty and set DATABASE_PATH to a file'],
      ['sqlite:///var/lib/hunter2.db', 'DATABASE_URL: sqlite:// is not a store the bot runs on; accepted: postgres://'],
      ['hunter2', 'DATABASE_URL: not a URL (no scheme such as postgres://); accepted: postgres://'],
      ['postgres://bot:pa ss@db:99999/valormr', 'DATABASE_URL: not a well-formed URL (a password with @, :, / or # must be percent-encoded'],
    ];
    for (const [url, said] of cases) {
      const message = refusal({ DATABASE_URL: url });
      expect(message).toContain('Bad configuration:\n');
      expect(message).toContain(said);
      expect(message).not.toContain('hunter2');
    }
    expect(failureLine(new Error(refusal({ DATABASE_URL: 'mysql://x@y/z' })))).toMatch(/Fix it in .* \.env\.example lists every setting/);
  });

  it('GIVEN a PostgreSQL URL THEN people are shown it with the password hidden; a file by its full path', () => {
    expect(describeTarget('postgres://bot:s3cret@db.internal:5432/valormr')).toBe('postgres://bot:***@db.internal:5432/valormr');
    expect(describeTarget('data/v.db')).toBe(join(process.cwd(), 'data/v.db'));
  });
});

describe('SHARD_LIST: the shards of one machine of several', () => {
  it('GIVEN ids and ranges below the total THEN the sorted shard ids; GIVEN one past the total, a reversed range, or no numeric total THEN refused saying why', () => {
    expect(shardList(undefined, 8)).toBeUndefined();
    expect(shardList('0-3', 8)).toEqual([0, 1, 2, 3]);
    expect(shardList(' 6, 0 , 2-3,3', 8)).toEqual([0, 2, 3, 6]);
    expect(() => shardList('4-8', 8)).toThrow('SHARD_LIST: shard 8 is not below SHARDS=8 (shard ids are 0 to 7)');
    expect(() => shardList('5-2', 8)).toThrow('SHARD_LIST: "5-2" is a range that ends before it starts');
    expect(() => shardList('0-3', 'auto')).toThrow('SHARD_LIST: needs SHARDS set to the total number of shards of the whole bot (the same on every machine), not auto or unset');
    expect(() => shardList('0-3', undefined)).toThrow(/^Bad configuration:\nSHARD_LIST: needs SHARDS/);
    expect(refusal({ SHARD_LIST: 'first half' })).toContain('SHARD_LIST: shard ids and ranges separated by commas, e.g. 0-15 or 0,2,4-7');
  });
});

describe('the map layers are kept where the store says', () => {
  it('GIVEN a SQLite file THEN beside it; GIVEN PostgreSQL THEN in the OS temporary folder, one per user; GIVEN memory THEN nowhere', () => {
    expect(defaultLayerDir('/var/lib/valormr/valormr.db')).toBe('/var/lib/valormr/valormr.db-layers');
    expect(defaultLayerDir('postgres://bot:pw@db/valormr')).toBe(join(tmpdir(), `valormr-layers-${process.getuid?.() ?? 'user'}`));
    expect(defaultLayerDir('postgres://bot:pw@db/valormr')).not.toContain('pw');
    expect(defaultLayerDir(':memory:')).toBeUndefined();
  });
});

describe('the store out of reach', () => {
  it('GIVEN a command that met StoreUnavailableError (itself or wrapped) THEN the person is told the store is unavailable and to try again, and a warning (no error with a reference) is logged', () => {
    const logged: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_o, m) => void logged.push(`warn ${m}`), error: (_o, m) => void logged.push(`error ${m}`) };
    for (const err of [new StoreUnavailableError('connection to postgres://bot:***@db/valormr lost'), new Error('transaction failed', { cause: new StoreUnavailableError('lost') })]) {
      expect(isStoreUnavailable(err)).toBe(true);
      expect(errorMessages(err, logger)).toEqual([expect.objectContaining({ to: 'ephemeral', content: STORE_UNAVAILABLE_TEXT, data: { error: 'storeUnavailable' } })]);
    }
    expect(STORE_UNAVAILABLE_TEXT).toBe('The campaign store is unavailable right now; try again in a minute.');
    expect(logged).toEqual(['warn the campaign store is unavailable', 'warn the campaign store is unavailable']);
    // Any other failure keeps the reference path.
    expect(errorMessages(new Error('boom'), logger)[0]!.content).toMatch(/^Something went wrong \(ref [0-9a-f]{6}\)/);
    expect(isStoreUnavailable(new Error('boom'))).toBe(false);
  });

  it('GIVEN PostgreSQL unreachable at start THEN the reason names the server with its password hidden and says what to do; a failure that says what to do itself is passed on', () => {
    const url = 'postgres://bot:s3cret@db.internal:5432/valormr';
    const fail = (err: Error): string => {
      try {
        openOrExplain(url, () => {
          throw err;
        });
      } catch (e) {
        return failureLine(e);
      }
      throw new Error('opened');
    };
    const line = fail(new StoreUnavailableError('cannot connect to postgres://bot:***@db.internal:5432/valormr: ECONNREFUSED'));
    expect(line).toBe('The campaign store is unavailable: cannot connect to postgres://bot:***@db.internal:5432/valormr: ECONNREFUSED. Start PostgreSQL or make it reachable from this machine (pg_isready -h HOST -p PORT says whether it answers), or correct DATABASE_URL; then start the bot again.');
    expect(fail(Object.assign(new Error('password authentication failed for user "bot"'), { code: '28P01' }))).toBe('PostgreSQL at postgres://bot:***@db.internal:5432/valormr refused the login (password authentication failed for user "bot"). Check the user and password in DATABASE_URL (a password with @, : or / percent-encoded) and the server\'s pg_hba.conf.');
    expect(fail(Object.assign(new Error('database "valormr" does not exist'), { code: '3D000' }))).toContain('has no such database (database "valormr" does not exist). Create it (createdb');
    const newer = new NewerSchemaError('this database was upgraded by a newer version of the bot (...): run that version or a later one, or restore a backup taken before the upgrade');
    expect(fail(newer)).toBe('The database postgres://bot:***@db.internal:5432/valormr cannot be used: this database was upgraded by a newer version of the bot (...): run that version or a later one, or restore a backup taken before the upgrade.');
    expect(fail(new StoreUnavailableError('timed out'))).toMatch(/^The campaign store is unavailable: timed out \(PostgreSQL at postgres:\/\/bot:\*\*\*@db\.internal:5432\/valormr\)\. Start PostgreSQL/);
    expect(line).not.toContain('s3cret');
  });
});
