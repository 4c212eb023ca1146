import { readFileSync } from 'node:fs';
import { ReplayFileError } from '../app/journal/replayFile.js';
import { replayText, reportText } from './replay.js';

/** `npm run replay -- FILE`: replays a campaign export (docs/replay.md). Exit code 0 only when it replays exactly. */
async function main(): Promise<void> {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write('Usage: npm run replay -- FILE (a campaign export from /campaign export)\n');
    process.exitCode = 2;
    return;
  }
  try {
    const report = await replayText(readFileSync(path, 'utf8'));
    process.stdout.write(`${reportText(report)}\n`);
    process.exitCode = report.exact ? 0 : 1;
  } catch (err) {
    if (!(err instanceof ReplayFileError)) throw err;
    process.stdout.write(`REFUSED: ${path} is not a replayable export: ${err.message}. Nothing was replayed.\n`);
    process.exitCode = 1;
  }
}

void main();
