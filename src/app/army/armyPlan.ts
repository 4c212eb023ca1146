import { echo, event, namesOf, REFEREE, type EngineEvent } from '../../engine/events/index.js';
import { CONTACT_POLICIES, checkPlan, describeWholePlan, followPlans, PLAN_GIVER, PLAN_KINDS, type ContactPolicy, type PlanKind, type PlanOrder } from '../../engine/plans/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { findArmy, requireArmy } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { commandersOf } from '../members.js';
import { pathOfPlaces } from '../places.js';
import type { Hex } from '../../engine/hex/index.js';
import { inCampaign, readCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx } from '../campaignTx.js';
import { planFollowers } from './planFollowers.js';
import { currentEffects } from '../weather/currentEffects.js';

export interface ArmyPlanInput {
  readonly army: string | undefined;
  /** show, clear, or the kind of plan: hold, march, patrol, shadow, withdraw, garrison. */
  readonly plan?: string | undefined;
  /** The places: one (march, withdraw, garrison) or the patrol's points in order. */
  readonly places?: string | undefined;
  /** The enemy army a shadow plan follows. */
  readonly target?: string | undefined;
  /** The contact policy: evade, delay or referee. */
  readonly contact?: string | undefined;
  /** Follow it even with a commander (standing orders). */
  readonly standing?: boolean | undefined;
}

const KINDS_TEXT = '`hold`, `march places:PLACE`, `patrol places:"A B ..."`, `shadow target:ARMY`, `withdraw places:PLACE`, `garrison places:TOWN`, or `show` / `clear`';

/** What a plan of this kind takes, read from the options; anything else given is refused. */
function readOrder(tx: CampaignTx, kind: PlanKind, input: ArmyPlanInput, armyId: string): PlanOrder {
  const places = input.places?.trim() ? input.places : undefined;
  const target = input.target?.trim() ? input.target : undefined;
  const one = (what: string): Hex => {
    if (!places) throw new UserError('plan.placeMissing', `A ${kind} plan needs ${what}: \`places:\` with a hex id or a place name, e.g. \`places:0913\`.`);
    const all = pathOfPlaces(tx.map, places, 'places', 'plan.badPlace');
    const [only, ...more] = all;
    if (!only || more.length > 0) throw new UserError('plan.onePlace', `A ${kind} plan takes one place in \`places:\` (it got ${all.length}); only a patrol takes several.`);
    return only;
  };
  if (kind !== 'shadow' && target) throw new UserError('plan.extraTarget', `\`target:\` is for a shadow plan only; a ${kind} plan does not take one.`);
  if ((kind === 'hold' || kind === 'shadow') && places) throw new UserError('plan.extraPlaces', `A ${kind} plan takes no \`places:\`.`);
  switch (kind) {
    case 'hold':
      return { kind };
    case 'march':
      return { kind, to: one('its destination') };
    case 'withdraw':
      return { kind, to: one('the place to fall back to') };
    case 'garrison':
      return { kind, town: one('the town it holds') };
    case 'patrol': {
      if (!places) throw new UserError('plan.placeMissing', 'A patrol plan needs its points in order in `places:`, e.g. `places:"0712 Valdheim 0915"` (it walks back to the first after the last).');
      return { kind, points: pathOfPlaces(tx.map, places, 'places', 'plan.badPlace') };
    }
    case 'shadow': {
      if (!target) throw new UserError('plan.targetMissing', 'A shadow plan needs the enemy army it follows: `target:ARMY` (an army id, its name or its commander).');
      const quarry = findArmy(tx.state, target);
      const self = tx.state.armies[armyId];
      if (!quarry) {
        const enemies = Object.values(tx.state.armies).filter((a) => self && a.side !== self.side).map((a) => a.id).sort().slice(0, 30);
        throw new UserError('plan.unknownArmy', `target: there is no army ${echo(target)} in this campaign. Enemy armies: ${enemies.join(', ') || 'none'}.`);
      }
      return { kind, target: quarry.id };
    }
  }
}

function readPolicy(text: string | undefined, had: ContactPolicy | undefined): ContactPolicy {
  if (text === undefined || text.trim() === '') return had ?? 'evade';
  const t = text.trim().toLowerCase();
  const found = CONTACT_POLICIES.find((p) => p === t);
  if (!found) throw new UserError('plan.badContact', `contact: ${echo(text)} is not a contact policy. Give \`evade\` (engage when stronger, else evade), \`delay\` (engage when stronger, else delay) or \`referee\` (every contact waits for you).`);
  return found;
}

/** Whether the army follows its plan now, in words. */
function followsText(tx: CampaignTx, armyId: string, standing: boolean): string {
  if (commandersOf(tx, armyId).length === 0) return 'Nobody commands it: it follows the plan from now on.';
  if (standing) return 'It is under standing orders: it follows the plan although it has a commander.';
  return 'It has a commander, who gives its orders: it follows the plan only under standing orders (`standing:true`) or once nobody commands it.';
}

/** `/army plan plan:show` (the default): the army's plan and the order it has now. */
function showPlan(tx: CampaignTx, armyText: string | undefined): Reply[] {
  requireReferee(tx, 'set army plans');
  const army = requireArmy(tx.state, armyText);
  const had = Object.hasOwn(tx.state.plans, army.id) ? tx.state.plans[army.id] : undefined;
  if (!had) return [ephemeral(`**${army.name}** has no plan. Set one with \`/army plan army:${army.id} plan:\` ${KINDS_TEXT}.`, { armyId: army.id, plan: null })];
  const order = tx.state.orders[army.id];
  const now = order ? `Its order now: ${order.kind}${order.givenBy === PLAN_GIVER ? ' (from the plan)' : ''}.` : 'It has no order now.';
  return [ephemeral([`**${army.name}**'s plan: ${describeWholePlan(had, tx.map, namesOf(tx.state.armies))}.`, followsText(tx, army.id, had.standing === true), now].join('\n'), { armyId: army.id, plan: had })];
}

/**
 * `/army plan` (referee): sets, shows or clears the plan an army follows when nobody commands it
 * or under standing orders. A plan is checked before it is stored (places on the map, a patrol's
 * circuit walkable, a shadowed army an enemy its side knows of); an army that follows it now
 * gets its first order at once. Plans and their reasons are the referee's only.
 */
export function armyPlan(app: App, actor: Actor, input: ArmyPlanInput): Reply[] {
  const what = (input.plan ?? 'show').trim().toLowerCase();
  // Showing a plan is a read: no write lock.
  if (what === 'show') return readCampaign(app, { actor }, (tx) => showPlan(tx, input.army));
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'set army plans');
    const army = requireArmy(tx.state, input.army);
    const names = namesOf(tx.state.armies);
    const had = Object.hasOwn(tx.state.plans, army.id) ? tx.state.plans[army.id] : undefined;
    if (what === 'clear') {
      if (!had) throw new UserError('plan.none', `${army.name} has no plan to clear.`);
      const { [army.id]: _gone, ...plans } = tx.state.plans;
      const order = tx.state.orders[army.id];
      // The order the plan gave goes with it: the army holds until someone orders it.
      const { [army.id]: _order, ...rest } = tx.state.orders;
      const orders = order?.givenBy === PLAN_GIVER ? rest : tx.state.orders;
      return {
        state: { ...tx.state, plans, orders },
        events: [event('planCleared', REFEREE, `The plan of ${army.name} was cleared.`, { armyId: army.id })],
        result: [ephemeral(`**${army.name}**'s plan is cleared${orders !== tx.state.orders ? ' with the order it gave' : ''}: it holds until it is given orders.`, { armyId: army.id, plan: null })],
      };
    }
    const kind = PLAN_KINDS.find((k) => k === what);
    if (!kind) throw new UserError('plan.badKind', `plan: ${echo(input.plan ?? '')} is not a plan. Give ${KINDS_TEXT}.`);
    const order = readOrder(tx, kind, input, army.id);
    const checked = checkPlan(tx.state, tx.map, { armyId: army.id, order, contact: readPolicy(input.contact, had?.contact), setBy: actor.userId });
    if (!checked.ok) throw new UserError(checked.violation.code, checked.violation.message);
    const standing = input.standing ?? had?.standing ?? false;
    const plan = { ...checked.value, ...(standing ? { standing: true } : {}) };
    let state = { ...tx.state, plans: { ...tx.state.plans, [army.id]: plan } };
    const events: EngineEvent[] = [event('planSet', REFEREE, `Plan set for ${army.name}: ${describeWholePlan(plan, tx.map, names)}.`, { armyId: army.id, plan })];
    const lines = [`**${army.name}** will follow this plan: ${describeWholePlan(plan, tx.map, names)}.`, followsText(tx, army.id, standing)];
    if (planFollowers({ members: tx.members, state }).has(army.id)) {
      // Its first order now, as the tick would give it.
      const first = followPlans(state, tx.map, currentEffects(state), [army.id]);
      state = first.state;
      events.push(...first.events);
      lines.push(...first.events.map((e) => e.text));
    }
    return { state, events, result: [ephemeral(lines.join('\n'), { armyId: army.id, plan: state.plans[army.id] })] };
  });
}
