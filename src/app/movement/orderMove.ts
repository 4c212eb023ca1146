import { toArmy } from '../../engine/events/index.js';
import { planMove } from '../../engine/movement/index.js';
import { TICK_PLAN } from '../../engine/tick/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { refuseAfloat } from './afloat.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign, type CampaignTx } from '../session.js';
import { commanderKnowledge } from '../map/knowledge.js';
import { isHostile, type Army } from '../../engine/forces/index.js';
import { neighbours } from '../../engine/hex/index.js';
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
 * Known enemies beside the route: hostile commanders (their positions are public) standing next
 * to a hex the march enters, with the commander's own estimate of them when they have one.
 * Entering a hex next to an enemy brings map contact there.
 */
function enemiesNearRoute(tx: CampaignTx, army: Army, route: readonly string[]): string[] {
  const s = tx.state;
  const near = new Map<string, { other: Army; by: string }>();
  for (const id of route) {
    const h = tx.map.parse(id);
    if (!h) continue;
    for (const n of neighbours(h)) {
      const other = Object.values(s.armies).find((a) => a.id !== army.id && !a.status.destroyed && !a.status.embarked && a.hex.q === n.q && a.hex.r === n.r);
      if (!other || near.has(other.id) || !isHostile(s.sides, army.side, other.side)) continue;
      near.set(other.id, { other, by: id });
    }
  }
  if (near.size === 0) return [];
  // What this commander knows of them privately: their own latest estimates.
  const estimates = new Map(commanderKnowledge(tx, [army.id]).estimates?.map((e) => [e.armyId, e.text]) ?? []);
  const found = [...near.values()].map(({ other, by }) => {
    const est = estimates.get(other.id);
    return `${other.name} at ${tx.map.format(other.hex)} (next to ${by}${est ? `; ${est}` : ''})`;
  });
  return [`Known enemies next to the route: ${found.join('; ')}. Entering a hex next to an enemy brings map contact there.`];
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
    const defaultPeriod = army.sight === 'dark' && army.nocturnal ? 'night' : 'day';
    const period = parsePeriod(input.period) ?? defaultPeriod;
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
    const text = formatPlan(army.name, plan.value, tx.state.clock, asReferee, enemiesNearRoute(tx, army, plan.value.steps.map((st) => st.hex)));
    const dest = plan.value.steps.at(-1)?.hex ?? tx.map.format(army.hex);
    const state = { ...tx.state, orders: { ...tx.state.orders, [army.id]: plan.value.order } };
    const events = [{ type: 'orderGiven', audience: toArmy(army.id), text: `Move order${asReferee ? ' (by the referee)' : ''}: ${period}, to ${dest}.`, data: { order: plan.value.order } }];
    return { state, events, result: [ephemeral(text, { armyId: army.id, plan: plan.value })] };
  });
}
