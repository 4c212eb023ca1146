import { toArmy } from '../../engine/events/index.js';
import { defaultPeriod, planMove } from '../../engine/movement/index.js';
import { movementProfile } from '../../engine/profiles/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { refuseAfloat } from './afloat.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { commanderMapView } from '../../engine/views/index.js';
import { commanderKnowledge } from '../map/knowledge.js';
import { stateAsKnown } from '../../engine/knowledge/index.js';
import { isHostile, type Army } from '../../engine/forces/index.js';
import { neighbours } from '../../engine/hex/index.js';
import { formatPlan } from './formatPlan.js';
import { parseOneHex, parsePath, parsePeriod } from './parseMove.js';
import { currentEffects } from '../weather/currentEffects.js';
import { requireNotEnded } from '../campaign/requireNotEnded.js';

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
 * Known enemies beside the route: hostile commanders next to a hex the march enters, as this
 * commander's own map shows them (their positions, public or, in fog of war, where their armies
 * last knew them, with how old that is), with the commander's own estimate when they have one.
 * Entering a hex next to an enemy brings map contact there.
 */
function enemiesNearRoute(tx: CampaignTx, army: Army, route: readonly string[]): string[] {
  const s = tx.state;
  // Each hex next to the route, with the first route hex it is next to.
  const nextTo = new Map<string, string>();
  for (const id of route) {
    const h = tx.map.parse(id);
    if (h) for (const n of neighbours(h)) if (!nextTo.has(`${n.q},${n.r}`)) nextTo.set(`${n.q},${n.r}`, id);
  }
  const near = (view: ReturnType<typeof commanderMapView>) => view.tokens.flatMap((t) => {
    if (t.own || !isHostile(s.sides, army.side, t.sideId) || t.flags.embarked) return [];
    const by = nextTo.get(`${t.hex.q},${t.hex.r}`);
    return by ? [{ t, by }] : [];
  });
  // Where this commander knows enemies to be; their private estimates only when one is near.
  if (near(commanderMapView(s, [army.id])).length === 0) return [];
  const found = near(commanderMapView(s, [army.id], commanderKnowledge(tx, [army.id]))).map(({ t, by }) => {
    const notes = [`next to ${by}`, ...(t.seen?.label ? [t.seen.label] : []), ...(t.estimate ? [t.estimate] : [])];
    return `${t.name} at ${tx.map.format(t.hex)} (${notes.join('; ')})`;
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
    requireNotEnded(tx.state);
    if (input.path && input.to) throw new UserError('move.pathAndTo', 'Give either `path` (hexes in order) or `to` (a destination), not both.');
    const path = input.path ? parsePath(tx.map, input.path) : undefined;
    const to = input.to ? parseOneHex(tx.map, input.to, 'to') : undefined;
    const period = parsePeriod(input.period) ?? defaultPeriod(army);
    const weather = currentEffects(tx.state);
    // In fog of war the order is planned on what the army knows: a hex held by an army it does not
    // see is free to it, and the march meets that army at the tick (contact, or stopped).
    const plan = planMove(stateAsKnown(tx.state, [army.id]), tx.map, weather, army.id, {
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
    const text = formatPlan(army, plan.value, tx.state.clock, asReferee, movementProfile(tx.state.settings), enemiesNearRoute(tx, army, plan.value.steps.map((st) => st.hex)));
    const dest = plan.value.steps.at(-1)?.hex ?? tx.map.format(army.hex);
    const state = { ...tx.state, orders: { ...tx.state.orders, [army.id]: plan.value.order } };
    const events = [{ type: 'orderGiven', audience: toArmy(army.id), text: `Move order${asReferee ? ' (by the referee)' : ''}: ${period}, to ${dest}.`, data: { order: plan.value.order } }];
    return { state, events, result: [ephemeral(text, { armyId: army.id, plan: plan.value })] };
  });
}
