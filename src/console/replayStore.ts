import { openStoreReader } from '../app/storeCopy.js';
import { replayText, reportText } from './replay.js';

/**
 * `npm run replay -- --store TARGET [--campaign ID]` (docs/deploy.md): every campaign of a store (a
 * SQLite file or a PostgreSQL URL), or the one named, exported as `/campaign export` would and
 * replayed from its journal, with a verdict a line. `npm run db:copy` runs it on the copy. True
 * when every campaign replayed exactly.
 */
export async function replayStore(target: string, write: (line: string) => void, campaignId?: string): Promise<boolean> {
  const reader = openStoreReader(target);
  try {
    const all = reader.campaigns();
    const chosen = campaignId === undefined ? all : all.filter((c) => c.id === campaignId);
    if (campaignId !== undefined && chosen.length === 0) {
      write(`REFUSED: there is no campaign ${campaignId} in this store; it holds ${all.length === 0 ? 'none' : all.map((c) => c.id).slice(0, 20).join(', ') + (all.length > 20 ? ', ...' : '')}.`);
      return false;
    }
    let failed = 0;
    for (const c of chosen) {
      const report = await replayText(reader.exportText(c.id));
      if (!report.exact) failed += 1;
      write(`campaign ${c.id} (${c.name}): ${reportText(report)}`);
    }
    write(failed === 0
      ? `${chosen.length} campaign(s) replayed exactly.`
      : `${failed} of ${chosen.length} campaign(s) DO NOT REPLAY (see above).`);
    return failed === 0;
  } finally {
    reader.close();
  }
}
