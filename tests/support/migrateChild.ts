import { existsSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { openPgBridge } from '../../src/db/pg/bridge.js';
import { migratePostgres } from '../../src/db/pg/migrate.js';

/**
 * A process that migrates one PostgreSQL database and exits (tests/db/pgMigrate.test.ts starts
 * several at once). Arguments: the database URL, the migrations folder, and a file name `go`: once
 * connected it writes `go.<pid>.ready` and waits for `go` to exist, so the processes migrate together.
 */
const [url = '', folder = '', go = ''] = process.argv.slice(2);
const bridge = openPgBridge(url);
try {
  writeFileSync(`${go}.${process.pid}.ready`, '');
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(go)) Atomics.wait(nap, 0, 0, 2);
  migratePostgres(bridge, folder);
  process.stdout.write('migrated\n');
} finally {
  bridge.close();
}
