import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { ephemeral, type Reply } from '../messages.js';
import { readCampaign, requireReferee } from '../session.js';

/** Referee: the whole campaign (state, members, scenario, event log) as a JSON file. */
export function exportCampaign(app: App, actor: Actor): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'export the campaign (it holds every secret)');
    const doc = {
      format: 'valormr-campaign-export',
      version: 1,
      exportedAt: tx.now.toISOString(),
      meta: tx.meta,
      state: tx.state,
      members: tx.members,
      scenario: tx.scenario,
      closedContacts: tx.read.closedContacts(),
      events: tx.read.allEvents(),
    };
    const json = JSON.stringify(doc, null, 2);
    const file = { name: `${tx.state.name.replace(/[^A-Za-z0-9-]+/g, '-').toLowerCase()}-export.json`, data: new TextEncoder().encode(json) };
    // The document is the file; the reply's data only says what it holds.
    return [ephemeral(`Export of **${tx.state.name}**: ${Object.keys(tx.state.armies).length} armies, ${doc.events.length} events.`,
      { format: doc.format, campaignId: tx.meta.id, armies: Object.keys(tx.state.armies).length, events: doc.events.length, file: file.name }, [file])];
  });
}
