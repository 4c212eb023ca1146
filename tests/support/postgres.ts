import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { openPgBridge, type PgBridge } from '../../src/db/pg/bridge.js';

/**
 * A PostgreSQL server for the tests, one for a whole test run:
 * - `VALORMR_TEST_PG_URL` (a server's admin URL) if set;
 * - else a throwaway cluster in a temporary folder on a free loopback port, started by the first
 *   test that asks (so a run without PostgreSQL tests pays nothing) and stopped by the vitest
 *   globalSetup's teardown (tests/setup/postgresCluster.ts), which names the folder in
 *   `VALORMR_TEST_PG_DIR` for every test process. Outside vitest (the bench) the asking process
 *   makes its own folder and stops the cluster when it exits.
 * Run as root (CI's container), the server runs as the `postgres` user, as PostgreSQL requires.
 */

const URL_ENV = 'VALORMR_TEST_PG_URL';
export const DIR_ENV = 'VALORMR_TEST_PG_DIR';
const START_WAIT_MS = 300_000;

/** The admin URL (database `postgres`) of this test run's server; starts it on first use. */
export function testPostgresUrl(): string {
  const given = process.env[URL_ENV];
  if (given) return given;
  let dir = process.env[DIR_ENV];
  if (!dir) {
    dir = newClusterDir();
    process.env[DIR_ENV] = dir;
    const mine = dir;
    process.on('exit', () => stopTestCluster(mine));
  }
  return clusterUrl(dir);
}

let admin: PgBridge | undefined;
let made = 0;

/** Creates an empty database on the test server and returns its URL. */
export function freshPostgresDatabase(): string {
  const adminUrl = testPostgresUrl();
  admin ??= openPgBridge(adminUrl);
  const name = `t_${process.pid}_${++made}_${Math.random().toString(36).slice(2, 8)}`;
  admin.query(`CREATE DATABASE ${name}`, []);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A temporary folder for a cluster, owned by the user the server will run as. */
export function newClusterDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-pg-'));
  const owner = serverUser();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** Stops the cluster in `dir` if one was started there (immediately: it is thrown away) and removes the folder. */
export function stopTestCluster(dir: string): void {
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    const tools = findTools();
    if (tools) run(tools.pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The cluster's URL, starting it if nobody has: the first process to make `dir/lock` starts it
 * and writes `dir/url` (or `dir/error`); the others wait for that file.
 */
function clusterUrl(dir: string): string {
  const urlFile = join(dir, 'url');
  const errorFile = join(dir, 'error');
  if (existsSync(urlFile)) return readFileSync(urlFile, 'utf8');
  let starter = true;
  try {
    mkdirSync(join(dir, 'lock'));
  } catch {
    starter = false;
  }
  if (starter) {
    try {
      const url = startCluster(dir);
      writeFileSync(`${urlFile}.tmp`, url);
      renameSync(`${urlFile}.tmp`, urlFile);
      return url;
    } catch (error) {
      writeFileSync(errorFile, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  const waitUntil = Date.now() + START_WAIT_MS;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() < waitUntil) {
    if (existsSync(urlFile)) return readFileSync(urlFile, 'utf8');
    if (existsSync(errorFile)) throw new Error(readFileSync(errorFile, 'utf8'));
    Atomics.wait(nap, 0, 0, 50);
  }
  throw new Error(`the test PostgreSQL server in ${dir} did not start within ${START_WAIT_MS / 1000} s`);
}

interface Tools {
  readonly initdb: string;
  readonly pgCtl: string;
}

const INSTALL_HINT =
  "PostgreSQL's server is not installed: the PostgreSQL tests need its initdb and pg_ctl (on PATH or in /usr/lib/postgresql/*/bin). " +
  'Install it (Debian/Ubuntu: `apt-get install postgresql`; the system service need not run), or set VALORMR_TEST_PG_URL to the admin URL of a server to use.';

/** initdb and pg_ctl: from PATH, else the newest of /usr/lib/postgresql/<version>/bin (where Debian puts them). */
function findTools(): Tools | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    dirs.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  const home = dirs.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
  return home === undefined ? undefined : { initdb: join(home, 'initdb'), pgCtl: join(home, 'pg_ctl') };
}

/** As root, the user the server runs as (PostgreSQL refuses to run as root). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error(`running as root, the PostgreSQL tests need the \`postgres\` user to run the server as. ${INSTALL_HINT}`);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(command: string, args: readonly string[]): SpawnSyncReturns<string> {
  const asServer = serverUser() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] as const : [command, args] as const;
  return spawnSync(asServer[0], asServer[1], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
}

/** initdb (locale C, trust on loopback) and pg_ctl start on a free port, the socket in `dir`; returns the admin URL. */
function startCluster(dir: string, durable = false): string {
  const tools = requireTools();
  const init = run(tools.initdb, ['-D', join(dir, 'data'), '--locale=C', '-E', 'UTF8', '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout || init.error?.message}`);
  const port = freePort();
  startServer(dir, port, durable);
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

function requireTools(): Tools {
  const tools = findTools();
  if (!tools) throw new Error(INSTALL_HINT);
  return tools;
}

/**
 * pg_ctl start of the cluster in `dir` on `port` (waits until it accepts connections). The server
 * is thrown away after the run: no fsync (speed on a shared machine); a process crash loses
 * nothing without it, the OS keeps the written pages. `durable`: a commit is acknowledged only
 * once its WAL is written (synchronous_commit on), for the fault tests that kill the server
 * (`-m immediate`) and check what was committed is kept; off, the last commits acknowledged before
 * a kill are lost, as PostgreSQL documents for that setting. Prepared transactions are allowed: a
 * fault test holds a lock with one, which no session's end lets go (tests/process/pgFaults.test.ts).
 */
function startServer(dir: string, port: number, durable: boolean): void {
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=${durable ? 'on' : 'off'} -c full_page_writes=off -c max_connections=300 -c max_prepared_transactions=4`;
  const start = run(requireTools().pgCtl, ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', '-t', '300', '-o', options, 'start']);
  if (start.status !== 0) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    throw new Error(`pg_ctl start failed: ${start.stderr || start.stdout}\n${log}`);
  }
}

/** A cluster of one test file's own, which it may stop and start again (the fault tests): not the run's shared one. */
export interface OwnPostgresCluster {
  /** The admin URL (database `postgres`); the port stays the same across stops and starts. */
  readonly url: string;
  /** pg_ctl stop: `fast` rolls back open transactions and closes connections; `immediate` kills the server (crash recovery at the next start). */
  stop(mode: 'fast' | 'immediate'): void;
  /** pg_ctl start on the same port (waits until it accepts connections). */
  start(): void;
  /** Stops it if running and removes its folder. */
  remove(): void;
}

/** initdb and start of a cluster of the caller's own, in a new temporary folder on a free loopback port. */
export function ownPostgresCluster(): OwnPostgresCluster {
  const dir = newClusterDir();
  const url = startCluster(dir, true);
  const port = Number(new URL(url).port);
  return {
    url,
    stop(mode) {
      const stop = run(requireTools().pgCtl, ['-D', join(dir, 'data'), '-m', mode, '-w', '-t', '300', 'stop']);
      if (stop.status !== 0) throw new Error(`pg_ctl stop -m ${mode} failed: ${stop.stderr || stop.stdout}`);
    },
    start: () => startServer(dir, port, true),
    remove: () => stopTestCluster(dir),
  };
}

/** A loopback port nothing listens on now (asked of the kernel by a short child process). */
function freePort(): number {
  const probe = spawnSync(process.execPath, ['-e', "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"], { encoding: 'utf8' });
  const port = Number(probe.stdout.trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`could not find a free port: ${probe.stderr}`);
  return port;
}
