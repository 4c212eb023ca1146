import type { CampaignState } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { ephemeral, type Reply } from '../messages.js';
import { EXPORT_FORMAT, exportText } from '../journal/replayFile.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { requireReferee } from '../access.js';
import { fitUpload, sizeText } from '../uploads.js';

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

/**
 * Referee: the whole campaign as a JSON file: state, members, scenario, the closed contacts kept
 * out of the live state, the journal that replays it (`npm run replay -- FILE`), and the event log (every die, undone events marked; the seeds of the dice
 * periods still in play left out, so nobody can know a die before it is rolled). One read
 * transaction; the log is written out from its stored text, so a season's export stays fast.
 */
export async function exportCampaign(app: App, actor: Actor, uploadLimit?: number): Promise<Reply[]> {
  // The document is read in one read transaction; compressing it (seconds for a season) is done after, holding nothing, off the event loop.
  const { json, count, armies, name, id } = readCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'export the campaign (it holds every secret)');
    return { ...exportJson(tx), armies: Object.keys(tx.state.armies).length, name: tx.state.name, id: tx.meta.id };
  });
  const fitted = await fitUpload({ name: `${name.replace(/[^A-Za-z0-9-]+/g, '-').toLowerCase()}-export.json`, data: new TextEncoder().encode(json) }, uploadLimit);
  const what = `Export of **${name}**: ${armies} armies, ${count} events`;
  if (fitted.kind === 'tooLarge') {
    // A long campaign's export outgrows what Discord takes: said plainly, with the way round it.
    return [ephemeral(`${what}: ${sizeText(fitted.bytes)}, ${sizeText(fitted.compressedBytes)} compressed, more than the ${sizeText(uploadLimit ?? 0)} Discord lets the bot upload here. `
      + `The bot's host can write it to a file: \`npm run export -- ${id}\` (docs/replay.md).`,
    { format: EXPORT_FORMAT, campaignId: id, armies, events: count, tooLarge: { bytes: fitted.bytes, compressedBytes: fitted.compressedBytes, limit: uploadLimit } })];
  }
  const note = fitted.kind === 'compressed' ? `; compressed (gzip) from ${sizeText(fitted.bytes)} to fit Discord's ${sizeText(uploadLimit ?? 0)} (\`npm run replay\` reads it as it is)` : '';
  // The document is the file; the reply's data only says what it holds.
  return [ephemeral(`${what}${note}.`, { format: EXPORT_FORMAT, campaignId: id, armies, events: count, file: fitted.file.name }, [fitted.file])];
}

/** The export of a campaign by its id, as `/campaign export` gives its referee (`npm run db:copy` checks a copy with it). */
export function campaignExportText(app: App, campaignId: string): string {
  return readCampaign(app, { campaignId }, (tx) => exportJson(tx).json);
}

/** The export document (one read transaction; the log written out from its stored text, so a season's export stays fast). */
function exportJson(tx: CampaignTx): { json: string; count: number } {
  const head = {
    exportedAt: tx.now.toISOString(),
    meta: tx.meta,
    state: exportedState(tx.state),
    members: tx.members,
    scenario: tx.scenario,
    closedContacts: tx.read.closedContacts(),
  };
  const { json: events, count } = tx.read.allEventsJson();
  // The journal travels with the export, one entry a line, so that anyone can replay it (docs/replay.md).
  return { json: exportText(head, events, tx.read.journal(), tx.state.status === 'ended'), count };
}
