import { timeIndex } from '../clock/index.js';
import { namesOf, REFEREE, tell } from '../events/index.js';
import { isHostile, type Army } from '../forces/index.js';
import { hexDistance, hexEquals, hexKey, hexSpiral, type Hex } from '../hex/index.js';
import { knownPositions, stateAsKnown } from '../knowledge/index.js';
import type { MapModel } from '../map/index.js';
import { defaultPeriod, planMove } from '../movement/index.js';
import type { ArmyPlan, CampaignState, MoveOrder, PlanEstimate, RestOrder, WeatherEffects } from '../state/index.js';
import { answerByPolicy, contactOf, owesAnswer, ownFigures } from './contactPolicy.js';
import { describePlan } from './describePlan.js';
import type { PlanDecidedFact, PlanEvent, PlanReason } from './planEvents.js';
import { describePlanOrder, placeName } from './summary.js';

/** Who gives a plan's orders (the `givenBy` of its move and rest orders). */
export const PLAN_GIVER = 'plan';

/** The hex distance a shadowing army keeps from its quarry: close enough to watch, not in map contact. */
const SHADOW_DISTANCE = 2;
/** How near a known enemy must be for a withdrawing army to fall back before it. */
const WITHDRAW_RADIUS = 3;

/** What the plan wants this half period, before the movement rules check it. */
interface Intent {
  readonly action: 'march' | 'rest';
  readonly to?: Hex;
  readonly reason: PlanReason;
  readonly detail?: string;
  readonly enemy?: string;
  readonly own?: number;
  readonly estimate?: number;
  /** The plan's bookkeeping after this decision. */
  readonly plan: ArmyPlan;
}

/** Warnings of a march that mean rest is owed first: a plan never marches an army into fatigue. */
const REST_FIRST: ReadonlySet<string> = new Set(['move.fatigueToday', 'move.fatigued']);

/**
 * The plan keeps what its army estimated of the enemies it met (its own estimates, from the
 * contacts it took part in), the newest of each.
 */
function remember(state: CampaignState, plan: ArmyPlan): ArmyPlan {
  let estimates: Record<string, PlanEstimate> | undefined;
  for (const c of Object.values(state.contacts)) {
    const mine = c.data.estimates?.[plan.armyId];
    if (!mine) continue;
    const at = timeIndex(c.openedAt);
    for (const [target, e] of Object.entries(mine)) {
      if (e.estimatedFigures === undefined) continue;
      const had = (estimates ?? plan.estimates)?.[target];
      if (had && (had.at > at || (had.at === at && had.figures === e.estimatedFigures))) continue;
      estimates = { ...(estimates ?? plan.estimates ?? {}), [target]: { figures: e.estimatedFigures, at } };
    }
  }
  return estimates ? { ...plan, estimates } : plan;
}

/** Shadow: keep SHADOW_DISTANCE hexes from where the army's side knows the quarry to be. */
function shadowIntent(state: CampaignState, map: MapModel, plan: ArmyPlan, army: Army, target: string): Intent[] {
  const seen = knownPositions(state, [army.id])[target];
  if (!seen) return [{ action: 'rest', reason: 'noSighting', enemy: target, plan }];
  const where = map.format(seen.hex);
  const d = hexDistance(army.hex, seen.hex);
  if (d >= SHADOW_DISTANCE && d <= SHADOW_DISTANCE + 1) return [{ action: 'rest', reason: 'watching', enemy: target, detail: where, plan }];
  // Hexes at the distance kept, nearest to the army first (ties in a fixed order).
  const ring = hexSpiral(seen.hex, SHADOW_DISTANCE).filter((h) => hexDistance(h, seen.hex) === SHADOW_DISTANCE && map.inBounds(h));
  ring.sort((a, b) => hexDistance(army.hex, a) - hexDistance(army.hex, b) || hexKey(a).localeCompare(hexKey(b)));
  const reason: PlanReason = d < SHADOW_DISTANCE ? 'tooClose' : 'shadowing';
  return ring.slice(0, 6).map((to) => ({ action: 'march' as const, to, reason, enemy: target, detail: where, plan }));
}

/** Withdraw: hold until a known enemy near it is one it estimated stronger, then fall back for good. */
function withdrawIntent(state: CampaignState, plan: ArmyPlan, army: Army, to: Hex): Intent {
  if (plan.fellBack) return hexEquals(army.hex, to) ? { action: 'rest', reason: 'fellBack', plan } : { action: 'march', to, reason: 'fellBack', plan };
  const own = ownFigures(army);
  const known = knownPositions(state, [army.id]);
  const threats = Object.entries(known)
    .filter(([id, s]) => {
      const o = state.armies[id];
      const e = plan.estimates?.[id];
      return o !== undefined && isHostile(state.sides, army.side, o.side) && hexDistance(army.hex, s.hex) <= WITHDRAW_RADIUS && e !== undefined && e.figures > own;
    })
    .sort(([a, sa], [b, sb]) => hexDistance(army.hex, sa.hex) - hexDistance(army.hex, sb.hex) || a.localeCompare(b));
  const threat = threats[0];
  if (!threat) return { action: 'rest', reason: 'hold', plan };
  const estimate = plan.estimates?.[threat[0]]?.figures;
  const fellBack = { ...plan, fellBack: true };
  const odds = { enemy: threat[0], own, ...(estimate !== undefined ? { estimate } : {}) };
  return hexEquals(army.hex, to) ? { action: 'rest', reason: 'strongerMet', ...odds, plan: fellBack } : { action: 'march', to, reason: 'strongerMet', ...odds, plan: fellBack };
}

/** What the plan wants, in order of preference (a shadow tries the nearest hexes one by one). */
function intents(state: CampaignState, map: MapModel, plan: ArmyPlan, army: Army): Intent[] {
  const order = plan.order;
  const goTo = (to: Hex, reason: PlanReason, p: ArmyPlan = plan): Intent => (hexEquals(army.hex, to) ? { action: 'rest', reason: 'arrived', to, plan: p } : { action: 'march', to, reason, plan: p });
  switch (order.kind) {
    case 'hold':
      return [{ action: 'rest', reason: 'hold', plan }];
    case 'march':
      return [goTo(order.to, 'heading')];
    case 'garrison':
      return [goTo(order.town, 'heading')];
    case 'patrol': {
      const n = order.points.length;
      let leg = Math.min(plan.leg ?? 0, n - 1);
      const here = order.points[leg];
      if (here && hexEquals(here, army.hex)) leg = (leg + 1) % n;
      const next = order.points[leg];
      return next ? [goTo(next, 'nextPoint', { ...plan, leg })] : [{ action: 'rest', reason: 'hold', plan }];
    }
    case 'shadow':
      return shadowIntent(state, map, plan, army, order.target);
    case 'withdraw':
      return [withdrawIntent(state, plan, army, order.to)];
  }
}

interface Decided {
  readonly order: MoveOrder | RestOrder;
  readonly fact: PlanDecidedFact['data'];
  readonly plan: ArmyPlan;
}

/**
 * Turns the plan's intents into an order through the movement rules, as a commander's `/move`
 * would be checked, planned on what the army knows (in fog of war, an army it has not seen is
 * not on its map): the first march the rules accept, unless rest is owed first; a rest order
 * when the plan holds, has arrived, or every march is refused (with the rules' reason).
 */
function decide(state: CampaignState, map: MapModel, weather: WeatherEffects, army: Army, wanted: readonly Intent[], summary: string): Decided {
  const rest = (i: Intent, reason: PlanReason = i.reason, detail: string | undefined = i.detail): Decided => ({
    order: { armyId: army.id, kind: 'rest', givenBy: PLAN_GIVER, givenAt: state.clock },
    plan: i.plan,
    fact: { armyId: army.id, plan: summary, action: 'rest', reason, ...extra(i), ...(detail !== undefined ? { detail } : {}), ...(i.to && reason === 'arrived' ? { to: placeName(map, i.to) } : {}) },
  });
  const first = wanted[0];
  if (!first) throw new Error('a plan always has an intent');
  if (first.action === 'rest' || !first.to) return rest(first);
  const known = stateAsKnown(state, [army.id]);
  let refusal: string | undefined;
  for (const i of wanted) {
    if (!i.to) continue;
    const planned = planMove(known, map, weather, army.id, { to: i.to, period: defaultPeriod(army), forced: false, unformed: false, save: false, crossAtEnd: false, givenBy: PLAN_GIVER });
    if (!planned.ok) {
      if (planned.violation.code === 'move.alreadyThere') return rest(i, 'arrived');
      refusal ??= planned.violation.message;
      continue;
    }
    const owed = planned.value.warnings.find((w) => REST_FIRST.has(w.code));
    if (owed) return rest(i, 'restDue', owed.message);
    // A commander may order a march into a hex held now (its holder may leave); a plan does not
    // count on that: the hex it wants is held, so it is blocked, as before the rule was a warning.
    const held = planned.value.warnings.find((w) => w.code === 'move.occupied');
    if (held) {
      refusal ??= `${held.message.split(': one commander per hex')[0] ?? ''}: one commander per hex, and a plan does not count on its holder leaving.`;
      continue;
    }
    return { order: planned.value.order, plan: i.plan, fact: { armyId: army.id, plan: summary, action: 'march', to: placeName(map, i.to), reason: i.reason, ...extra(i), ...(i.detail !== undefined ? { detail: i.detail } : {}) } };
  }
  return rest(first, 'blocked', refusal);
}

const extra = (i: Intent): Partial<PlanDecidedFact['data']> => ({
  ...(i.enemy !== undefined ? { enemy: i.enemy } : {}),
  ...(i.own !== undefined ? { own: i.own } : {}),
  ...(i.estimate !== undefined ? { estimate: i.estimate } : {}),
});

/** The key a decision is told under: the referee hears a plan's decision when it changes. */
const keyOf = (f: PlanDecidedFact['data']): string => [f.action, f.to ?? '', f.reason, f.enemy ?? ''].join(':');

/** One army's plan for the half period: its contact answered, or its order. */
function followPlan(state: CampaignState, map: MapModel, weather: WeatherEffects, given: ArmyPlan, army: Army): { state: CampaignState; fact?: PlanDecidedFact } {
  const plan = remember(state, given);
  const names = namesOf(state.armies);
  const summary = describePlanOrder(plan.order, map, names);
  const put = (s: CampaignState, p: ArmyPlan): CampaignState => ({ ...s, plans: { ...s.plans, [p.armyId]: p } });
  const tellIf = (s: CampaignState, p: ArmyPlan, data: PlanDecidedFact['data'], key: string): { state: CampaignState; fact?: PlanDecidedFact } => {
    if (p.last === key) return { state: put(s, p) };
    return { state: put(s, { ...p, last: key }), fact: { type: 'planDecided', audience: REFEREE, data } };
  };
  // 1. In contact: the contact policy answers; the army's order waits for the contact's end.
  const contact = contactOf(state, army.id);
  if (contact) {
    if (!owesAnswer(contact, army.id)) return { state: put(state, plan) };
    const answered = answerByPolicy(state, map, plan, army, contact, summary);
    return tellIf(answered.state, plan, answered.fact.data, answered.key);
  }
  // 2. Committed: aboard ship, or in the middle of a ferry or raft crossing.
  if (army.status.embarked || army.march.operation) {
    const data: PlanDecidedFact['data'] = { armyId: army.id, plan: summary, action: 'keep', reason: army.status.embarked ? 'aboard' : 'committed' };
    return tellIf(state, plan, data, keyOf(data));
  }
  // 3. The order of the half period.
  const d = decide(state, map, weather, army, intents(state, map, plan, army), summary);
  return tellIf({ ...state, orders: { ...state.orders, [army.id]: d.order } }, d.plan, d.fact, keyOf(d.fact));
}

/**
 * The plans of these armies for the coming half period (the armies that follow a plan: nobody
 * commands them, or they are under standing orders). Pure: what each plan decides depends only
 * on the state as its army knows it (its side's sightings, its own estimates), never on where an
 * unseen army truly is. Each decision is a referee-only event with its reason, told when it changes.
 * @see docs/rulings.md (Plans)
 */
export function followPlans(state: CampaignState, map: MapModel, weather: WeatherEffects, armyIds: Iterable<string>): { state: CampaignState; events: PlanEvent[] } {
  let s = state;
  const facts: PlanDecidedFact[] = [];
  for (const id of [...armyIds].sort()) {
    const plan = Object.hasOwn(s.plans, id) ? s.plans[id] : undefined;
    const army = Object.hasOwn(s.armies, id) ? s.armies[id] : undefined;
    if (!plan || !army || army.status.destroyed) continue;
    const out = followPlan(s, map, weather, plan, army);
    s = out.state;
    if (out.fact) facts.push(out.fact);
  }
  return { state: s, events: tell(facts, describePlan, namesOf(s.armies)) };
}
