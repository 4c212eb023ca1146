/**
 * Start-up errors and the console's guard on its database, with real processes: each failure
 * names the file and the next step on stderr and exits non-zero; a second console on one database
 * is refused naming the first; a console whose database file is deleted stops at its next line
 * instead of playing on into a file nobody will read. A PostgreSQL store that cannot be reached,
 * or a DATABASE_URL the bot does not run on, is refused by the compiled bot (as `npm start` runs it)
 * the same way, the URL's password hidden. (A database at a newer schema: tests/process/pgFaults.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrExplain } from '../../src/databaseGuard.js';
import { failureLine } from '../../src/failure.js';
import { botEnv, buildDist, killAll, ROOT, startBot, startProcess, type BotProcess } from './botProcess.js';

// The compiled bot (startBot runs dist/src/main.js): built once for the run if a source changed.
beforeAll(buildDist);

const dir = mkdtempSync(join(tmpdir(), 'valormr-startup-'));

afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** The compiled console (dist/, built in beforeAll) on this database, its input a pipe (JSON lines out). */
const startConsole = (db: string) => startProcess(['dist/src/console/main.js', '--db', db], botEnv({ WEB: 'off' }));

describe('start-up errors name the file and the next step', () => {
  it('GIVEN DATABASE_PATH at a file that is not a database WHEN the bot starts THEN it exits 1 naming the file and saying to restore or move it', async () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(path, 'not a database, a note someone saved here '.repeat(100));
    const p = startBot({ DISCORD_TOKEN: 'x.y.z', DISCORD_API_BASE: 'http://127.0.0.1:9/api', DATABASE_PATH: path, WEB: 'off' });
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(p.stderr.join('\n')).toContain(`The bot could not start: The database file ${path} is not a SQLite database or is damaged (file is not a database). Restore it from a backup, or move it away to start with an empty database, or set DATABASE_PATH to the right file.`);
  }, 120_000);

  it('GIVEN DATABASE_PATH where nothing can be written WHEN the console starts (no token) THEN it exits 1 naming the file and the folder to make writable', async () => {
    // The tests run as root here, so file modes do not stop a write: /proc refuses any new file.
    const path = '/proc/valormr-startup-test.db';
    const p = startBot({ DATABASE_PATH: path, WEB: 'off' });
    p.child.stdin.end();
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    const err = p.stderr.join('\n');
    expect(err).toContain(`The bot could not start: The database file ${path} cannot be opened for writing`);
    expect(err).toContain('make both the file and the folder writable by the user the bot runs as (ls -l /proc');
  }, 120_000);

  it('GIVEN a bad setting WHEN the bot starts THEN the line names the setting and the settings file it read', async () => {
    const p = startBot({ WEB_PORT: '99999', DATABASE_PATH: join(dir, 'config.db') });
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    const err = p.stderr.join('\n');
    expect(err).toContain('The bot could not start: Bad configuration:\nWEB_PORT:');
    expect(err).toContain(`Fix it in ${join(ROOT, 'tests', 'process', 'no-such.env')} (not found) or the service's environment file; .env.example lists every setting`);
  }, 120_000);

  it('GIVEN a read-only database (SQLite says so when the journal is set) THEN the reason names the file and what to make writable', () => {
    const e = (() => {
      try {
        return openOrExplain('/var/lib/valormr/valormr.db', () => {
          throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
        });
      } catch (err) {
        return err;
      }
    })();
    expect(failureLine(e)).toBe('The database file /var/lib/valormr/valormr.db cannot be opened for writing (attempt to write a readonly database). The bot writes the file and, beside it in /var/lib/valormr, its -wal and -shm files: make both the file and the folder writable by the user the bot runs as (ls -l /var/lib/valormr; e.g. chown that user), or set DATABASE_PATH to a writable place.');
  });
});

describe('the console guards its database like the bot', () => {
  it('GIVEN a console open on a database WHEN a second console opens the same file THEN it is refused naming the first; once the first ends, a console opens it again', async () => {
    const path = join(dir, 'shared.db');
    const first = startConsole(path);
    first.child.stdin.write('@referee /help\n');
    await first.waitForLine((l) => l.startsWith('{"to":"ephemeral"'), 120_000, 'the first console\'s answer');
    const second = startConsole(path);
    const refused = await second.exited;
    expect(refused.code).toBe(2);
    expect(second.stderr.join('\n')).toContain(`The console could not start: The database ${path} is already open in another console (process ${first.pid}, since `);
    expect(second.stderr.join('\n')).toContain('Use that console, or end it (Ctrl-D) first');
    first.child.stdin.end();
    expect((await first.exited).code).toBe(0);
    expect(existsSync(`${path}.console-lock`)).toBe(false);
    const third = startConsole(path);
    third.child.stdin.write('@referee /help\n');
    await third.waitForLine((l) => l.startsWith('{"to":"ephemeral"'), 120_000, 'the third console\'s answer');
    third.child.stdin.end();
    expect((await third.exited).code).toBe(0);
  }, 300_000);

  it('GIVEN a console playing a campaign WHEN its database file is deleted THEN the next line is not played: it stops with exit 1 saying so', async () => {
    const path = join(dir, 'deleted.db');
    const p = startConsole(path);
    p.child.stdin.write('@referee /campaign create scenario:valormr name:"Lost War"\n');
    await p.waitForLine((l) => l.includes('Lost War'), 120_000, 'the campaign created');
    unlinkSync(path);
    p.child.stdin.write('@referee /campaign start\n');
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(p.stdout.some((l) => l.includes('The campaign has started'))).toBe(false);
    expect(p.stderr.join('\n')).toContain(`The console stopped: The database file ${path} was deleted while the console was running. Nothing more was written. Put the database back at that path (or set DATABASE_PATH to where it is) and start again.`);
  }, 120_000);
});

describe('a PostgreSQL store that cannot be used is refused at start, saying what to do', () => {
  /** `npm start`'s process: the compiled bot, with a token (Discord) or without (the console). */
  const startCompiled = (env: Record<string, string>): BotProcess => {
    const p = startProcess(['dist/src/main.js'], botEnv({ WEB: 'off', ...env }));
    p.child.stdin.end();
    return p;
  };
  const paths: Record<string, string>[] = [{ DISCORD_TOKEN: 'x.y.z', DISCORD_API_BASE: 'http://127.0.0.1:9/api' }, {}];

  it('GIVEN DATABASE_URL at a server nothing answers on WHEN the bot starts (with a token, and the console without) THEN it exits 1 naming the URL with its password hidden and saying what to do, without a stack trace', async () => {
    // The prestart step: builds dist/ when the sources are newer than the last build.
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const runs = paths.map((env) => startCompiled({ ...env, DATABASE_URL: 'postgres://valormr:s3cret@127.0.0.1:1/valormr' }));
    for (const p of runs) {
      const exit = await p.exited;
      const err = p.stderr.join('\n');
      expect(exit.code, err).toBe(1);
      expect(err).toBe('The bot could not start: The campaign store is unavailable: postgres://valormr:***@127.0.0.1:1/valormr: connect ECONNREFUSED 127.0.0.1:1. Start PostgreSQL or make it reachable from this machine (pg_isready -h HOST -p PORT says whether it answers), or correct DATABASE_URL; then start the bot again.');
      expect(p.stdout.join('\n')).not.toContain('s3cret');
    }
  }, 300_000);

  it.each([
    ['mysql://valormr:s3cret@db/valormr', 'mysql:// is not a store the bot runs on'],
    ['sqlite:///var/lib/valormr/valormr.db', 'sqlite:// is not a store the bot runs on'],
    ['valormr', 'not a URL (no scheme such as postgres://)'],
  ])('GIVEN DATABASE_URL=%s WHEN the bot starts THEN it exits 1 saying what is wrong and what is accepted', async (given, why) => {
    const p = startCompiled({ DATABASE_URL: given });
    const exit = await p.exited;
    const err = p.stderr.join('\n');
    expect(exit.code, err).toBe(1);
    expect(err).toBe(`The bot could not start: Bad configuration:\nDATABASE_URL: ${why}; accepted: postgres://USER:PASSWORD@HOST:5432/DATABASE (or postgresql://...); for SQLite leave DATABASE_URL empty and set DATABASE_PATH to a file. Fix it in ${join(ROOT, 'tests', 'process', 'no-such.env')} (not found) or the service's environment file; .env.example lists every setting with an example.`);
    expect(err).not.toContain('s3cret');
  }, 120_000);
});
