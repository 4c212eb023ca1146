import { releaseHold } from '../../engine/dice/index.js';
import { describeStep, adjacentEnemies, awaitingAnswers, isOpen, openContact, resolveDecision, resolveStep1, splitContact } from '../../engine/contact/index.js';
import { formatGameTime } from '../../engine/clock/index.js';
import { REFEREE, type EngineEvent } from '../../engine/events/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { inCampaign, readCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import { deliveries } from '../deliveries/contactPrompts.js';
import { contactByIdForReferee } from './whichContact.js';

/** `/contact list`: every open contact, its step and who has not answered (names only). */
export function listContacts(app: App, actor: Actor): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'list the contacts');
    const name = (id: string): string => tx.state.armies[id]?.name ?? id;
    const open = Object.values(tx.state.contacts).filter(isOpen);
    const lines = open.map((c) => {
      const waiting = awaitingAnswers(c);
      return `- ${c.id} (${formatGameTime(c.openedAt)}, ${c.hexes.map((h) => tx.map.format(h)).join('/')}): ${c.armyIds.map(name).join(' vs ')}; ${describeStep(c.step)}${waiting.length > 0 ? `; waiting for ${waiting.map(name).join(', ')}` : ''}`;
    });
    const data = open.map((c) => ({ id: c.id, step: c.step, armyIds: c.armyIds, waiting: awaitingAnswers(c) }));
    return [ephemeral(lines.length > 0 ? `**Open contacts**\n${lines.join('\n')}` : 'No open contact.', { contacts: data })];
  });
}

/** `/contact split contact: groups:"a,b;c,d"`: separate engagements of a contact of three or more forces. */
export function splitContactCase(app: App, actor: Actor, input: { contact?: string | undefined; groups?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'split a contact');
    const c = contactByIdForReferee(tx.state, input.contact);
    if (!input.groups) throw new UserError('contact.splitGroups', `Give the groups, armies separated by commas and groups by semicolons, e.g. \`groups:"${c.armyIds.slice(0, 2).join(',')};${c.armyIds.slice(2).join(',')}"\`.`);
    const groups = input.groups.split(';').map((g) => g.split(',').map((t) => requireArmy(tx.state, t).id));
    const r = orRefuse(splitContact(tx.state, tx.map, c.id, groups));
    const d = deliveries(tx, tx.state, r.state, r.events);
    return { state: r.state, events: d.events, outbox: d.outbox, result: [reply(`Contact ${c.id} split into ${r.contactIds.join(', ')}.`, { contactIds: r.contactIds })] };
  });
}

/** `/contact resolve contact:`: the deadline now (missing answers: silent, then engage). */
export function resolveContactNow(app: App, actor: Actor, input: { contact?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => resolveContactChange(tx, input.contact));
}

/** The deadline of a contact's step now, as one Change (the command and the referee inbox's button). */
export function resolveContactChange(tx: CampaignTx, contact: string | undefined): Change<Reply[]> {
  {
    requireReferee(tx, 'resolve a contact');
    const c = contactByIdForReferee(tx.state, contact);
    if (c.step !== 'step1' && c.step !== 'decision') throw new UserError('contact.nothingToResolve', `Contact ${c.id} is ${describeStep(c.step)}; ${c.step === 'battle' ? 'record the battle with /battle result' : 'nothing is waiting'}.`);
    const r0 = orRefuse(c.step === 'step1' ? resolveStep1(tx.state, tx.map, c.id, tx.dice) : resolveDecision(tx.state, tx.map, c.id, tx.dice));
    // A contact waiting for manual dice stops waiting: the dice entered are used, the seeded die for the rest.
    const r = { ...r0, state: { ...r0.state, manualDice: releaseHold(r0.state.manualDice, c.id) } };
    const events: EngineEvent[] = [{ type: 'contactForced', audience: REFEREE, text: `The referee resolved ${c.id} (${c.step}) before the deadline.` }, ...r.events];
    const d = deliveries(tx, tx.state, r.state, events);
    const now = r.state.contacts[c.id];
    return { state: r.state, events: d.events, outbox: d.outbox, result: [ephemeral(`Contact ${c.id} resolved: now ${describeStep(now?.step ?? 'closed')}${now && now.data.outcome ? ` (${OUTCOME_WORDS[now.data.outcome] ?? now.data.outcome})` : ''}.`, { contactId: c.id, step: now?.step })] };
  }
}

/** How a contact ended, in words. */
const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  fightOnMorrow: 'they fight on the morrow', disengaged: 'a force disengaged', bothEvaded: 'both evaded', evaded: 'a force evaded', battle: 'battle joined', split: 'split into separate engagements',
};

/** One army of a comma-separated list; an unknown one typed with spaces is told the list takes commas. */
function armyOfList(state: CampaignState, text: string): Army {
  try {
    return requireArmy(state, text);
  } catch (e) {
    const words = text.trim().split(/\s+/);
    if (!(e instanceof UserError) || e.code !== 'army.unknown' || words.length < 2) throw e;
    throw new UserError('army.unknown', `${e.message} The armies are separated by commas, e.g. \`armies:"${words.join(',')}"\`.`);
  }
}

/** Two army ids of this campaign on different sides, for an example of `armies:` (the first army and the first not on its side). */
function exampleFoes(state: CampaignState): string[] {
  const armies = Object.values(state.armies);
  const first = armies[0];
  const other = armies.find((a) => a.side !== first?.side);
  return first && other ? [first.id, other.id] : ['hadewych', 'grallune'];
}

/** `/contact open armies:"a,b"`: the referee opens a contact by hand between adjacent enemies. */
export function openContactCase(app: App, actor: Actor, input: { armies?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'open a contact');
    const ids = (input.armies ?? '').split(',').filter((t) => t.trim() !== '').map((t) => armyOfList(tx.state, t).id);
    if (ids.length < 2) throw new UserError('contact.openArmies', `Name at least two enemy armies in contact by their ids, separated by commas, e.g. \`armies:"${exampleFoes(tx.state).join(',')}"\`.`);
    for (const id of ids) {
      if (Object.values(tx.state.contacts).some((c) => isOpen(c) && c.armyIds.includes(id))) throw new UserError('contact.alreadyOpen', `${tx.state.armies[id]?.name} is already in an open contact.`);
      const foes = adjacentEnemies(tx.state, id).map((a) => a.id);
      if (!ids.some((o) => foes.includes(o))) throw new UserError('contact.notAdjacent', `${tx.state.armies[id]?.name} has no enemy among the others next to it.`);
    }
    const r = openContact(tx.state, tx.map, ids);
    const d = deliveries(tx, tx.state, r.state, r.events);
    return { state: r.state, events: d.events, outbox: d.outbox, result: [ephemeral(`Contact ${r.contactId} opened.`, { contactId: r.contactId })] };
  });
}
