import { escapeName } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { ephemeral, type Reply } from '../messages.js';
import { EXPORT_FORMAT, exportText } from '../journal/replayFile.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { requireReferee } from '../access.js';
import { fitExport, sizeText } from '../uploads.js';
import { buildExport, exportPlan, type ExportPlan } from './exportChunks.js';

/**
 * The dice state as exported: the public seeds of the periods not over yet stay secret, even from
 * the referee (they are revealed with the ticks), and so does the secret master until the
 * campaign ends (from it every secret seed to come follows; the referee checks the secret dice
 * with `/dice verify`). @see docs/dice.md
 */
function exportedDice(state: CampaignState): unknown {
  const { rng } = state;
  const secret = rng.secret && state.status !== 'ended' ? { secret: { ...rng.secret, master: '(secret until the campaign ends)' } } : {};
  return { ...rng, seed: `(secret until period ${rng.period} ends)`, next: `(secret until period ${rng.period + 1} ends)`, ...secret };
}

/** The state as the export writes it: every field, with the dice's secrets withheld (exportedDice). */
export function exportedState(state: CampaignState): CampaignState {
  return { ...state, rng: exportedDice(state) as CampaignState['rng'] };
}

/** More rows than any campaign has (a PostgreSQL integer's largest value). */
const ALL = 2_147_483_647;

/**
 * Referee: the whole campaign as a JSON file: state, members, scenario, the closed contacts kept
 * out of the live state, the journal that replays it (`npm run replay -- FILE`), and the event log (every die, undone events marked; the seeds of the dice
 * periods still in play left out, so nobody can know a die before it is rolled). One short read
 * transaction reads the head and the open tail; the closed parts of the journal and the log are
 * taken as kept, compressed, or built once (exportChunks.ts), each on its own between turns of the
 * event loop, so a season's export neither waits seconds nor holds up other campaigns.
 */
export async function exportCampaign(app: App, actor: Actor, uploadLimit?: number): Promise<Reply[]> {
  const { plan, armies, name, id } = readCampaign(app, { actor, orEnded: true }, (tx) => {
    requireReferee(tx, 'export the campaign (it holds every secret)');
    return { plan: exportPlan(app, tx, exportHead(tx)), armies: Object.keys(tx.state.armies).length, name: tx.state.name, id: tx.meta.id };
  });
  const built = await buildExport(app, plan);
  const fitted = await fitExport({ name: `${name.replace(/[^A-Za-z0-9-]+/g, '-').toLowerCase()}-export.json`, members: built.members, packed: built.packed, bytes: built.bytes }, uploadLimit);
  const count = plan.events;
  const what = `Export of **${escapeName(name)}**: ${armies} armies, ${count} events`;
  if (fitted.kind === 'tooLarge') {
    // A long campaign's export outgrows what Discord takes: said plainly, with the way round it.
    return [ephemeral(`${what}: ${sizeText(fitted.bytes)}, ${sizeText(fitted.compressedBytes)} compressed, more than the ${sizeText(uploadLimit ?? 0)} Discord lets the bot upload here. `
      + `The bot's host can write it to a file: \`npm run export -- ${id}\` (docs/replay.md).`,
    { format: EXPORT_FORMAT, campaignId: id, armies, events: count, tooLarge: { bytes: fitted.bytes, compressedBytes: fitted.compressedBytes, limit: uploadLimit } })];
  }
  if (fitted.kind === 'parts') {
    // Over the limit even compressed: the gzip stream in files each under it (each a gzip file; replay reads them in order).
    const n = fitted.files.length;
    return fitted.files.map((file, i) => ephemeral(i > 0 ? `Part ${i + 1} of ${n}.` : `${what}: ${sizeText(fitted.bytes)}, ${sizeText(fitted.compressedBytes)} compressed (gzip), more than the ${sizeText(uploadLimit ?? 0)} Discord lets the bot upload here, so it comes in ${n} parts. `
      + `Keep them all: \`npm run replay -- ${fitted.files.map((f) => f.name).join(' ')}\` reads them in order (or join them: \`cat\` them into one \`.json.gz\`).`,
    { format: EXPORT_FORMAT, campaignId: id, armies, events: count, file: file.name, part: i + 1, parts: n }, [file]));
  }
  const note = fitted.kind === 'compressed' ? `; compressed (gzip) from ${sizeText(fitted.bytes)} to fit Discord's ${sizeText(uploadLimit ?? 0)} (\`npm run replay\` reads it as it is)` : '';
  // The document is the file; the reply's data only says what it holds.
  return [ephemeral(`${what}${note}.`, { format: EXPORT_FORMAT, campaignId: id, armies, events: count, file: fitted.file.name }, [fitted.file])];
}

/** The export of a campaign by its id, as `/campaign export` gives its referee, in one piece (`npm run db:copy` checks a copy with it). */
export function campaignExportText(app: App, campaignId: string): string {
  return readCampaign(app, { campaignId }, (tx) => exportText(exportHead(tx), tx.read.closedContactsJson(), tx.read.eventsAfter(0, ALL).map((e) => e.json), tx.read.journal(), tx.state.status === 'ended'));
}

/** The export's head: every field but the closed contacts (written from their stored text: headLine), the journal and the log. */
function exportHead(tx: CampaignTx): ExportPlan['head'] {
  return {
    exportedAt: tx.now.toISOString(),
    meta: tx.meta,
    state: exportedState(tx.state),
    members: tx.members,
    scenario: tx.scenario,
  };
}
