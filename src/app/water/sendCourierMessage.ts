import { isFog, withCourierReport } from '../../engine/knowledge/index.js';
import { COURIER_MESSAGE_LIMIT, sendCourier } from '../../engine/water/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy, requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { currentEffects } from '../weather/currentEffects.js';
import { requireNotEnded } from '../campaign/requireNotEnded.js';

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
    const out = orRefuse(sendCourier(tx.state, tx.map, { fromArmy: from.id, toArmy: to.id, message: input.message }, currentEffects(tx.state)));
    const c = out.courier;
    const who = to.commander || to.name;
    // In fog it rides first to where the sender knew the recipient to be, and no map draws it (docs/rulings.md, Couriers in fog).
    const how = c.data.seek
      ? `It rides 48 points a day to ${tx.map.format(c.data.seek)}, where you last knew ${who} to be, and on along ${who}'s trail from there; in fog of war your map does not show a lone rider.`
      : isFog(tx.state) ? `It rides 48 points a day by the cheapest road to ${who}; in fog of war your map does not show a lone rider.`
        : `It rides 48 points a day by the cheapest road to wherever ${who} is; you will see it on your own map only.`;
    const text = `Courier ${c.id} sent from ${from.name} at ${tx.map.format(c.hex)} to ${who}${asReferee ? ' (by the referee)' : ''}. ${how} If it is caught, you will hear only that it has not arrived.`;
    // In fog of war the courier also carries what its sender knows of the others' positions.
    const state = { ...out.state, knowledge: withCourierReport(out.state, c.id, from.id) };
    return { state, events: out.events, result: [ephemeral(text, { courierId: c.id, from: from.id, to: to.id, length: c.message.length })] };
  });
}
