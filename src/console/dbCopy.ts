import { copyStore } from '../app/storeCopy.js';
import { replayStore } from './replayStore.js';
import { explainFailure } from './storeFailure.js';

const USAGE = 'Usage: npm run db:copy -- FROM TO (each a SQLite file path or a postgres:// URL; TO must be empty)';

/**
 * `npm run db:copy -- FROM TO` (docs/deploy.md): copies every table (src/app/storeCopy.ts), then
 * replays every copied campaign from the copy's journal. `out` gets the progress and verdicts,
 * `err` a refusal. The exit code: 0 only when the copy committed and every campaign replayed
 * exactly; 2 for a wrong command line; 1 otherwise.
 */
export async function dbCopy(args: readonly string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [from, to] = args;
  if (args.length !== 2 || from === undefined || to === undefined) {
    err(`${USAGE}\n  (given ${args.length} argument(s))`);
    return 2;
  }
  try {
    const copied = copyStore(from, to, out);
    out(`committed: ${copied.tables.reduce((n, t) => n + t.rows, 0).toLocaleString('en-US')} row(s) in ${copied.tables.length} tables, ${copied.campaigns.length} campaign(s).`);
    out('replaying every campaign from the copy\'s journal:');
    const exact = await replayStore(to, out);
    if (!exact) out('The copy is committed and equal to its source (same rows, byte-equal exports), so the source does not replay either: `npm run replay -- --store FROM` says the same.');
    return exact ? 0 : 1;
  } catch (error) {
    err(explainFailure(error));
    return 1;
  }
}
