import { dbCopy } from './dbCopy.js';

/** `npm run db:copy -- FROM TO` (src/console/dbCopy.ts, docs/deploy.md). */
async function main(): Promise<void> {
  process.exitCode = await dbCopy(process.argv.slice(2), (line) => void process.stdout.write(`${line}\n`), (line) => void process.stderr.write(`${line}\n`));
}

void main();
