import { withCourierReport } from '../../engine/knowledge/index.js';
import { COURIER_MESSAGE_LIMIT, sendCourier } from '../../engine/water/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy, requireControl } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../session.js';
import { currentEffects, requireNotEnded, unwrap } from './common.js';

export interface SendCourierMessageInput {
  readonly fromArmy: string | undefined;
  readonly toArmy: string | undefined;
  readonly message: string | undefined;
}

/**
 * `/courier send from-army: to-army: message:` — a lone rider carries the message. The reply is
 * ephemeral; the recipient reads the message by DM on arrival (or the captor, if it is caught).
 */
export function sendCourierMessage(app: App, actor: Actor, input: SendCourierMessageInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireNotEnded(tx.state);
    const { army: from, asReferee } = requireControl(tx, input.fromArmy);
    const to = requireArmy(tx.state, input.toArmy);
    if (!input.message) throw new UserError('courier.empty', `Write the message in \`message:\` (up to ${COURIER_MESSAGE_LIMIT} characters).`);
    const out = unwrap(sendCourier(tx.state, tx.map, { fromArmy: from.id, toArmy: to.id, message: input.message }, currentEffects(tx.state)));
    const c = out.courier;
    const text = `Courier ${c.id} sent from ${from.name} at ${tx.map.format(c.hex)} to ${to.commander || to.name}${asReferee ? ' (by the referee)' : ''}. It rides 48 points a day by the cheapest road to wherever ${to.commander || to.name} is; you will see it on your own map only. If it is caught, you will hear only that it has not arrived.`;
    // In fog of war the courier also carries what its sender knows of the others' positions.
    const state = { ...out.state, knowledge: withCourierReport(out.state, c.id, from.id) };
    return { state, events: out.events, result: [ephemeral(text, { courierId: c.id, from: from.id, to: to.id, length: c.message.length })] };
  });
}
