import { writeFileSync } from 'node:fs';
import { openStoreReader } from '../app/storeCopy.js';
import { explainFailure } from './storeFailure.js';

const USAGE = 'Usage: npm run export -- CAMPAIGN_ID [FILE] [--store TARGET]\n'
  + '  writes the campaign\'s export (what /campaign export gives its referee) to FILE (by default CAMPAIGN_ID-export.json);\n'
  + '  TARGET a SQLite file or a postgres:// URL, by default DATABASE_URL, else DATABASE_PATH, else ./data/valormr.db\n';

/**
 * `npm run export -- CAMPAIGN_ID [FILE]`: the bot's host writes a campaign's export to a file, for a
 * campaign whose export is too large for Discord to take even compressed (docs/replay.md).
 */
function main(): void {
  const args = process.argv.slice(2);
  const at = args.indexOf('--store');
  const store = at >= 0 ? args[at + 1] : undefined;
  const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const [campaignId, file, ...extra] = rest;
  if (campaignId === undefined || campaignId.startsWith('-') || extra.length > 0 || (at >= 0 && store === undefined)) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const target = store ?? (process.env['DATABASE_URL'] || process.env['DATABASE_PATH'] || './data/valormr.db');
  const path = file ?? `${campaignId}-export.json`;
  try {
    const reader = openStoreReader(target);
    try {
      const all = reader.campaigns();
      if (!all.some((c) => c.id === campaignId)) {
        process.stderr.write(`REFUSED: there is no campaign ${campaignId} in this store; it holds ${all.length === 0 ? 'none' : all.map((c) => `${c.id} (${c.name})`).slice(0, 20).join(', ')}.\n`);
        process.exitCode = 1;
        return;
      }
      const text = reader.exportText(campaignId);
      writeFileSync(path, text);
      process.stdout.write(`Wrote ${path} (${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB): \`npm run replay -- ${path}\` replays it.\n`);
    } finally {
      reader.close();
    }
  } catch (err) {
    process.stderr.write(`${explainFailure(err)}\n`);
    process.exitCode = 1;
  }
}

main();
