import { deleteCampaign as deleteRows, setSchedule } from '../../db/campaignRepo.js';
import { PUBLIC } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { discordTime } from '../format.js';
import { ephemeral, reply, type Message } from '../messages.js';
import { nextDue } from '../schedule.js';
import { forgetCampaign, inCampaign, requireReferee } from '../session.js';

/** The past-tense event each status change logs. */
const EVENT_OF = { start: 'campaignStarted', pause: 'campaignPaused', resume: 'campaignResumed' } as const;

function setStatus(app: App, actor: Actor, to: CampaignState['status'], allowedFrom: readonly CampaignState['status'][], verb: keyof typeof EVENT_OF): Message[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, `${verb} the campaign`);
    if (!allowedFrom.includes(tx.state.status)) {
      throw new UserError('campaign.badStatus', `The campaign is ${tx.state.status}; it can only be ${verb === 'start' ? 'started' : `${verb}d`} when it is ${allowedFrom.join(' or ')}.`);
    }
    const state = { ...tx.state, status: to };
    let when = '';
    if (to === 'running') {
      const due = nextDue(state.settings.cadence, state.settings.timezone, tx.now).toISOString();
      setSchedule(tx.db, tx.meta.id, due, null);
      when = ` Next tick ${discordTime(due)} (${discordTime(due, 'R')}).`;
    } else {
      setSchedule(tx.db, tx.meta.id, null);
    }
    const text = { running: verb === 'start' ? 'The campaign has started.' : 'The campaign resumes.', paused: 'The campaign is paused by the referee.', setup: '', ended: 'The campaign has ended.' }[to] + when;
    return { state, events: [{ type: EVENT_OF[verb], audience: PUBLIC, text }], outbox: [], result: [reply(text, { status: to })] };
  });
}

export const startCampaign = (app: App, actor: Actor): Message[] => setStatus(app, actor, 'running', ['setup'], 'start');
export const pauseCampaign = (app: App, actor: Actor): Message[] => setStatus(app, actor, 'paused', ['running'], 'pause');
export const resumeCampaign = (app: App, actor: Actor): Message[] => setStatus(app, actor, 'running', ['paused'], 'resume');

/** Referee: deletes the campaign of this channel. Requires `confirm` to be the campaign's name. */
export function deleteCampaign(app: App, actor: Actor, confirm: string | undefined): Message[] {
  let id = '';
  const name = inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'delete the campaign');
    if ((confirm ?? '').trim() !== tx.state.name) {
      throw new UserError('campaign.confirmDelete', `Deleting removes the whole campaign and its log. To confirm, repeat its name: \`/campaign delete confirm:${tx.state.name}\`.`);
    }
    id = tx.meta.id;
    deleteRows(tx.db, tx.meta.id);
    return { result: tx.state.name };
  });
  forgetCampaign(app, id);
  return [reply(`The campaign **${name}** was deleted.`, { deleted: id }), ephemeral('Tip: `/campaign export` before deleting keeps a JSON copy.', { tip: 'export' })];
}

