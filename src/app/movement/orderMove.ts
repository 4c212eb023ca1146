import { toArmy } from '../../engine/events/index.js';
import { defaultPeriod, planMove } from '../../engine/movement/index.js';
import { TICK_PLAN } from '../../engine/tick/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { refuseAfloat } from './afloat.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../session.js';
import { formatPlan } from './formatPlan.js';
import { parseOneHex, parsePath, parsePeriod } from './parseMove.js';

export interface OrderMoveInput {
  readonly army?: string | undefined;
  /** Hex ids in order, e.g. "0712 0713 0813". */
  readonly path?: string | undefined;
  /** Destination: the bot finds the cheapest legal route. */
  readonly to?: string | undefined;
  readonly period?: string | undefined;
  readonly forced?: boolean | undefined;
  readonly unformed?: boolean | undefined;
  readonly save?: boolean | undefined;
  /** End on the far bank of the river in the last hex. */
  readonly cross?: boolean | undefined;
}

/**
 * `/move`: validates a move order with the movement rules, stores it (replacing any standing
 * order) and answers privately with the preview hex by hex. Refusals say which hex and rule,
 * and what would be accepted.
 */
export function orderMove(app: App, actor: Actor, input: OrderMoveInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    refuseAfloat(army, 'move', tx.state);
    if (tx.state.status === 'ended') throw new UserError('campaign.ended', 'The campaign has ended: no more orders.');
    if (input.path && input.to) throw new UserError('move.pathAndTo', 'Give either `path` (hexes in order) or `to` (a destination), not both.');
    const path = input.path ? parsePath(tx.map, input.path) : undefined;
    const to = input.to ? parseOneHex(tx.map, input.to, 'to') : undefined;
    const period = parsePeriod(input.period) ?? defaultPeriod(army);
    const weather = TICK_PLAN.effects(tx.state);
    const plan = planMove(tx.state, tx.map, weather, army.id, {
      ...(path ? { path } : {}),
      ...(to ? { to } : {}),
      period,
      forced: input.forced ?? false,
      unformed: input.unformed ?? false,
      save: input.save ?? false,
      crossAtEnd: input.cross ?? false,
      givenBy: actor.userId,
    });
    if (!plan.ok) throw new UserError(plan.violation.code, plan.violation.message, { ...plan.violation.details });
    const text = formatPlan(army.name, plan.value, tx.state.clock, asReferee);
    const dest = plan.value.steps.at(-1)?.hex ?? tx.map.format(army.hex);
    const state = { ...tx.state, orders: { ...tx.state.orders, [army.id]: plan.value.order } };
    const events = [{ type: 'orderGiven', audience: toArmy(army.id), text: `Move order${asReferee ? ' (by the referee)' : ''}: ${period}, to ${dest}.`, data: { order: plan.value.order } }];
    return { state, events, result: [ephemeral(text, { armyId: army.id, plan: plan.value })] };
  });
}
