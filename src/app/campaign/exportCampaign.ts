import { allEvents } from '../../db/eventRepo.js';
import { listMembers } from '../../db/memberRepo.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { ephemeral, type Message } from '../messages.js';
import { inCampaign, requireReferee } from '../session.js';

/** Referee: the whole campaign (state, members, scenario, event log) as a JSON file. */
export function exportCampaign(app: App, actor: Actor): Message[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'export the campaign (it holds every secret)');
    const doc = {
      format: 'valormr-campaign-export',
      version: 1,
      exportedAt: tx.now.toISOString(),
      meta: tx.meta,
      state: tx.state,
      members: listMembers(tx.db, tx.meta.id),
      scenario: tx.scenario,
      events: allEvents(tx.db, tx.meta.id),
    };
    const json = JSON.stringify(doc, null, 2);
    const file = { name: `${tx.state.name.replace(/[^A-Za-z0-9-]+/g, '-').toLowerCase()}-export.json`, data: new TextEncoder().encode(json) };
    return { result: [ephemeral(`Export of **${tx.state.name}**: ${Object.keys(tx.state.armies).length} armies, ${doc.events.length} events.`, doc, [file])] };
  });
}
