import { assumeRole, declareReinforce, exploit, forceSecondContact, maneuver, relief, supportOperation, type ContactOutput } from '../../engine/contact/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy, requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { hexOrPlace } from '../places.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { CampaignState } from '../../engine/state/index.js';
import { deliveries } from '../deliveries/contactPrompts.js';

function done(tx: CampaignTx, r: ContactOutput, text: string, data: Record<string, unknown>): Change<Reply[]> {
  const d = deliveries(tx, tx.state, r.state, r.events);
  return { state: r.state, events: d.events, outbox: d.outbox, result: [ephemeral(text, data)] };
}

function run(app: App, actor: Actor, armyText: string | undefined, fn: (tx: CampaignTx, armyId: string, by: string) => Change<Reply[]>): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, armyText);
    return fn(tx, army.id, asReferee ? ' (by the referee)' : '');
  });
}

/**
 * An ally's id for the example of `of:`: the first other army of the army's own side (destroyed or
 * not: in fog of war, whether an ally is gone is not for an example to tell), as exampleFoes
 * (contactAdmin.ts) gives two enemies.
 */
function exampleAlly(state: CampaignState, armyId: string): string {
  const side = state.armies[armyId]?.side;
  return Object.values(state.armies).find((a) => a.id !== armyId && a.side === side)?.id ?? '<id>';
}

/** `/support army: of:` takes up the support role for an allied force in contact. @see 001 Support */
export function supportCase(app: App, actor: Actor, input: { army?: string | undefined; of?: string | undefined; operation?: boolean | undefined }): Reply[] {
  return run(app, actor, input.army, (tx, armyId, by) => {
    if (input.operation) {
      return done(tx, orRefuse(supportOperation(tx.state, tx.map, armyId)), `Support operation done${by}: your reserve took over the support role.`, { armyId });
    }
    if (!input.of) throw new UserError('contact.supportWhom', `Say which allied army to support: \`/support of:${exampleAlly(tx.state, armyId)}\` (or \`operation:true\` for a reserve to take over the support role).`);
    const target = requireArmy(tx.state, input.of);
    return done(tx, orRefuse(assumeRole(tx.state, armyId, 'support', target.id)), `${tx.state.armies[armyId]?.name} supports ${target.name}${by}.`, { armyId, supportedId: target.id });
  });
}

/** `/reserve army: of:` takes up the reserve role behind a supporting force. @see 001 Reserve */
export function reserveCase(app: App, actor: Actor, input: { army?: string | undefined; of?: string | undefined }): Reply[] {
  return run(app, actor, input.army, (tx, armyId, by) => {
    if (!input.of) throw new UserError('contact.reserveWhom', `Say which allied army in contact you stand in reserve for: \`/reserve of:${exampleAlly(tx.state, armyId)}\`.`);
    const target = requireArmy(tx.state, input.of);
    return done(tx, orRefuse(assumeRole(tx.state, armyId, 'reserve', target.id)), `${tx.state.armies[armyId]?.name} stands in reserve for ${target.name}${by}.`, { armyId, supportedId: target.id });
  });
}

/** `/relief army:`: a supporting force switches places with the force it supports. @see 001 Support: Relief */
export function reliefCase(app: App, actor: Actor, input: { army?: string | undefined }): Reply[] {
  return run(app, actor, input.army, (tx, armyId, by) => done(tx, orRefuse(relief(tx.state, tx.map, armyId)), `Relief done${by}.`, { armyId }));
}

/** `/reinforce army: on:`: a supporter will (or will not) reinforce against displacement. @see 001 Support: Reinforce */
export function reinforceCase(app: App, actor: Actor, input: { army?: string | undefined; on?: boolean | undefined }): Reply[] {
  return run(app, actor, input.army, (tx, armyId, by) => {
    const on = input.on ?? true;
    return done(tx, orRefuse(declareReinforce(tx.state, armyId, on)), `${on ? 'You will reinforce' : 'You will not reinforce'} the supported force if it is displaced${by}.`, { armyId, on });
  });
}

/** `/exploit army: to:`: a reserve moves through the supporter into contact. @see 001 Reserve: Exploit */
export function exploitCase(app: App, actor: Actor, input: { army?: string | undefined; to?: string | undefined }): Reply[] {
  return run(app, actor, input.army, (tx, armyId, by) => {
    if (!input.to) throw new UserError('contact.exploitWhere', 'Say the destination hex: `/exploit to:0913` (next to the supporting force and to an enemy).');
    const to = hexOrPlace(tx.map, input.to, 'to', 'contact.exploitWhere');
    const r = orRefuse(exploit(tx.state, tx.map, armyId, to));
    return done(tx, r, `Exploit done${by}: contact ${r.contactId} opened.`, { armyId, contactId: r.contactId });
  });
}

/** `/maneuver army: second:`: the maneuver action, or (second:true) the forced second contact. @see 001 Maneuver */
export function maneuverCase(app: App, actor: Actor, input: { army?: string | undefined; second?: boolean | undefined }): Reply[] {
  return run(app, actor, input.army, (tx, armyId, by) => {
    if (input.second) {
      const r = orRefuse(forceSecondContact(tx.state, tx.map, armyId));
      // An enemy already in a contact before its contact phase: the maneuvering force joined it.
      const joined = tx.state.contacts[r.contactId] !== undefined;
      const what = joined ? `joined contact ${r.contactId}, which the enemy was already in` : r.contactId;
      return done(tx, r, `Second contact forced${by}: ${what}.`, { armyId, contactId: r.contactId, joined });
    }
    return done(tx, orRefuse(maneuver(tx.state, tx.map, armyId)), `Maneuvering${by}: +1 to deployment and disengagement dice this half period; \`/maneuver second:true\` forces a second contact once this one is resolved.`, { armyId });
  });
}
