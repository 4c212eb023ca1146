import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files that stay on SQLite in the `postgres` project, each with why. Everything else under
 * tests/app, tests/scenarios and tests/process runs on both stores, but for single tests marked
 * `it.skipIf(onPostgres())` in their file with the reason beside it (tests/support/store.ts).
 */
const SQLITE_ONLY: Readonly<Record<string, string>> = {
  // Not about the store: a second run would repeat the same assertions.
  'tests/app/architectureDoc.test.ts': 'reads docs/architecture.md and the source tree, no store',
  'tests/app/importCycles.test.ts': 'reads the import graph, no store',
  'tests/app/noConflictMarkers.test.ts': 'reads tracked files, no store',
  'tests/app/refusalCodes.test.ts': 'reads the refusal codes and docs, no store',
  'tests/app/storeConfig.test.ts': 'unit tests of the DATABASE_URL/DATABASE_PATH choice; they name both stores themselves',
  'tests/app/storeBusy.test.ts': 'asks for PostgreSQL itself (a campaign held by a second connection past lock_timeout)',
  'tests/app/audience.test.ts': 'the delivery audience rules, pure functions, no store',
  'tests/scenarios/parseLine.test.ts': 'the console line parser, no store',
  'tests/app/journalExportText.test.ts': 'the journal export text, pure functions, no store',
  'tests/app/manualDiceAfterTick.test.ts': 'the manual dice after a tick, engine state only, no store',
  'tests/process/deployDoc.test.ts': 'plays docs/deploy.md and the systemd unit on SQLite (DATABASE_PATH is what the unit sets)',
  // SQLite itself: files, WAL, the file-level errors.
  'tests/scenarios/crash.test.ts': 'kill -9 on a SQLite file (WAL recovery, integrity_check); PostgreSQL crashes are tests/db/pg/transactionProcesses and pgMachines',
  'tests/process/startupErrors.test.ts': 'SQLite file errors (not a database, unwritable, deleted) and DATABASE_URL refusals that need no server; the server stopped under a bot and a newer schema are pgFaults',
  'tests/app/soak.test.ts': "bench/soak.ts plays on a SQLite file it measures (statSync); the two-store differential test covers PostgreSQL's answers",
  'tests/app/benchPlayed.test.ts': "the bench's tick section on the SQLite file `npm run bench` plays on; the scheduler's pre-warm it goes through is tests/scheduler/prewarm",
  'tests/process/buildCodeCache.test.ts': 'builds a copy of the bot and starts it once on a SQLite file; the store plays no part',
  'tests/process/start.test.ts': 'npm start with DATABASE_PATH files (the default SQLite path and its folder)',
  'tests/app/readPath.test.ts': "holds SQLite's write lock from a second connection (BEGIN IMMEDIATE, data_version)",
  'tests/app/deliveryLanes.test.ts': 'a SQLite temp trigger refuses the sent mark (the retry of a refused record)',
  'tests/app/statics.test.ts': "copies a campaign row through SQLite's pragma_table_info and json_set",
  'tests/scenarios/upgrade.test.ts': "opens the previous release's SQLite file (tests/fixtures/v1-campaign.db)",
  'tests/process/shards.test.ts': 'asserts each shard plays its own guilds, the SQLite rule; on PostgreSQL any process plays any campaign (tests/process/pgMachines)',
  'tests/process/pgMachines.test.ts': 'asks for PostgreSQL itself (three machines on one server); a second run would play the same 1,000 campaigns again',
  'tests/process/identify.test.ts': "the gateway's identify pacing across shards; the store plays no part",
};

const POSTGRES_SUITES = ['tests/app/**/*.test.ts', 'tests/scenarios/**/*.test.ts', 'tests/process/**/*.test.ts'];

/**
 * Test files that share their modules within a worker (vitest `isolate: false`): each file
 * otherwise imports the whole app again (on this 2-core machine tests/engine took 406 s isolated
 * and 92 s shared, load 16-20; the whole suite spent 168-448 s importing). Only folders whose tests
 * keep no state in modules: the engine's pure functions, and the app's harnesses (scenarios,
 * Discord, scheduler, replay, store, cases, console), which open a new app and database for each test (caches
 * are per database or content-addressed). Files that mock modules or fake timers stay isolated
 * (SHARED_LEFT_ISOLATED). tests/web, tests/render and tests/process stay isolated: their tests set
 * module-level render caches and layer folders, or count draws.
 */
const SHARED_FOLDERS = ['tests/engine', 'tests/scenarios', 'tests/discord', 'tests/scheduler', 'tests/replay', 'tests/db', 'tests/app', 'tests/cases', 'tests/console'];
const SHARED_LEFT_ISOLATED: Readonly<Record<string, string>> = {
  'tests/app/drawAhead.test.ts': 'mocks src/app/pictures.js',
  'tests/app/deliveryLanes.test.ts': 'fakes setTimeout and performance',
  'tests/discord/identifyGate.test.ts': 'fakes setTimeout (the gate\'s own timers)',
};
const SHARED_MODULES = SHARED_FOLDERS.flatMap((dir) => readdirSync(fileURLToPath(new URL(dir, import.meta.url)), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `${dir}/${file}`))
  .filter((file) => !(file in SHARED_LEFT_ISOLATED))
  .sort();
const onPostgresLeg = (file: string): boolean => /^tests\/(app|scenarios)\//.test(file);

/**
 * Every test file, on every project (a project's own setupFiles replace these, so the PostgreSQL
 * projects list them again): stops the render threads it started, removes the temporary folders it
 * made (tests/support/tempDirs.ts).
 */
const SETUP_FILES = ['tests/setup/closeRenderPool.ts', 'tests/setup/removeTempDirs.ts'];

export default defineConfig({
  test: {
    setupFiles: SETUP_FILES,
    // One PostgreSQL cluster for the run, started when a test first asks (tests/support/postgres.ts).
    globalSetup: ['tests/setup/postgresCluster.ts'],
    testTimeout: 120_000,
    // Generous: a test must pass on a loaded machine (speed is the bench's); a hang still ends.
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where most
    // of the slow files wait on child processes (real bots, kills, builds, Chromium). Two at least.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // Every test on SQLite (the default store): `sqlite` and `sqlite-shared` (SHARED_MODULES).
      { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.ts'], exclude: SHARED_MODULES } },
      { extends: true, test: { name: 'sqlite-shared', include: SHARED_MODULES, isolate: false } },
      // The app, scenario and real-process suites again on PostgreSQL: their harnesses ask
      // tests/support/store.ts's testStore()/sharedTestStore(), which give a new PostgreSQL database here.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          // tests/process/pg*.test.ts are PostgreSQL's own (several bots on one server, the server
          // stopped under a bot): they ask for PostgreSQL themselves and run once, in `sqlite`.
          exclude: [...Object.keys(SQLITE_ONLY), 'tests/process/pg*.test.ts', ...SHARED_MODULES],
          setupFiles: [...SETUP_FILES, 'tests/setup/dropTestDatabases.ts'],
          env: { VALORMR_TEST_STORE: 'postgres' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-shared',
          include: SHARED_MODULES.filter(onPostgresLeg),
          exclude: Object.keys(SQLITE_ONLY),
          isolate: false,
          setupFiles: [...SETUP_FILES, 'tests/setup/dropTestDatabases.ts'],
          env: { VALORMR_TEST_STORE: 'postgres' },
        },
      },
    ],
  },
});
