import { toArmy } from '../../engine/events/index.js';
import type { Order } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { stopSailChange } from '../water/stopSail.js';
import { refuseAfloat } from './afloat.js';

/**
 * `/rest`: the army stays put and rests (replacing any move order). Two half periods of rest
 * restore full daily points; a full day clears fatigue and resets the weekly count.
 */
export function orderRest(app: App, actor: Actor, armyRef: string | undefined): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, armyRef);
    refuseAfloat(army, 'rest', tx.state);
    if (army.march.operation) throw new UserError('rest.committed', `${army.name} is committed to a river crossing at ${tx.map.format(army.march.operation.hex)}; it rests once across.`);
    const order: Order = { armyId: army.id, kind: 'rest', givenBy: actor.userId, givenAt: tx.state.clock };
    const m = army.march;
    const notes = [
      army.status.fatigued ? 'A full day of rest (no movement from daybreak to daybreak) ends the fatigue.' : '',
      m.daysMarched > 0 ? `A full day of rest resets the ${m.daysMarched} day(s) marched in a row.` : '',
      army.formation === 'unformed' ? 'A full day here reforms the army; stragglers catch up while it waits.' : '',
      m.savedPoints > 0 ? `Resting loses the ${m.savedPoints} saved point(s).` : '',
    ].filter(Boolean);
    const text = [`**${army.name}** rests at ${tx.map.format(army.hex)}${asReferee ? ' (by the referee)' : ''}. Two half periods of rest restore full daily points.`, ...notes].join('\n');
    const state = { ...tx.state, orders: { ...tx.state.orders, [army.id]: order } };
    return { state, events: [{ type: 'orderGiven', audience: toArmy(army.id), text: `Rest order${asReferee ? ' (by the referee)' : ''}.` }], result: [ephemeral(text, { armyId: army.id, order })] };
  });
}

/**
 * `/hold`: cancels the army's standing order; it stays where it is. Aboard ship it stops the
 * fleet where it lies, as `/sail stop:true` does (the army stays aboard).
 */
export function orderHold(app: App, actor: Actor, armyRef: string | undefined): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, armyRef);
    if (army.status.embarked) return stopSailChange(tx, army, asReferee);
    const had = tx.state.orders[army.id];
    refuseAfloat(army, 'hold', tx.state);
    if (army.march.operation) throw new UserError('hold.committed', `${army.name} is committed to a river crossing at ${tx.map.format(army.march.operation.hex)} and cannot stop until it is across.`);
    const { [army.id]: _gone, ...orders } = tx.state.orders;
    const text = had
      ? `**${army.name}** holds at ${tx.map.format(army.hex)}${asReferee ? ' (by the referee)' : ''}: its ${had.kind} order is cancelled.`
      : `**${army.name}** had no standing order; it holds at ${tx.map.format(army.hex)}.`;
    return { state: { ...tx.state, orders }, events: [{ type: 'orderCancelled', audience: toArmy(army.id), text: `Orders cancelled${asReferee ? ' (by the referee)' : ''}.` }], result: [ephemeral(text, { armyId: army.id, cancelled: had?.kind ?? null })] };
  });
}
