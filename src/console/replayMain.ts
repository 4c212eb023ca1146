import { readFileSync } from 'node:fs';
import { ReplayFileError } from '../app/journal/replayFile.js';
import { exportFileText, replayText, reportText } from './replay.js';
import { replayStore } from './replayStore.js';
import { explainFailure } from './storeFailure.js';

const USAGE = 'Usage: npm run replay -- FILE [FILE...] (a campaign export from /campaign export; an export in parts: every part, in order)\n'
  + '       npm run replay -- --store [TARGET] [--campaign ID] (every campaign of a store, or one; TARGET a SQLite file or a postgres:// URL, by default DATABASE_URL)\n';

/** `npm run replay -- FILE [FILE...]` or `-- --store TARGET`: replays a campaign export, or a store's campaigns (docs/replay.md). Exit code 0 only when all replay exactly. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--store') return replayFromStore(args.slice(1));
  const path = args[0];
  if (!path || args.some((a) => a.startsWith('--'))) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  try {
    // An export in parts (over Discord's limit even compressed): the parts' bytes one after the other are the whole gzip stream.
    const report = await replayText(exportFileText(Buffer.concat(args.map((a) => readFileSync(a)))));
    process.stdout.write(`${reportText(report)}\n`);
    process.exitCode = report.exact ? 0 : 1;
  } catch (err) {
    if (!(err instanceof ReplayFileError)) throw err;
    process.stdout.write(`REFUSED: ${args.join(" + ")} is not a replayable export: ${err.message}. Nothing was replayed.\n`);
    process.exitCode = 1;
  }
}

/** `--store [TARGET] [--campaign ID]`. */
async function replayFromStore(args: string[]): Promise<void> {
  const at = args.indexOf('--campaign');
  const campaignId = at >= 0 ? args[at + 1] : undefined;
  const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const target = rest[0] ?? process.env['DATABASE_URL'];
  if ((at >= 0 && campaignId === undefined) || rest.length > 1 || target === undefined || target === '') {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  try {
    const exact = await replayStore(target, (line) => process.stdout.write(`${line}\n`), campaignId);
    process.exitCode = exact ? 0 : 1;
  } catch (err) {
    process.stderr.write(`${explainFailure(err)}\n`);
    process.exitCode = 1;
  }
}

void main();
