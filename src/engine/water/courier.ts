import { fromIndex, isPeriodStart, timeIndex } from '../clock/index.js';
import type { Dice } from '../dice/index.js';
import { echo, namesOf, REFEREE, tell, toArmy } from '../events/index.js';
import { isHostile, loneForce, MOVE_POINTS, type Army } from '../forces/index.js';
import { hexEquals, type Hex, hexKey, isAdjacent } from '../hex/index.js';
import { isWater, type MapModel } from '../map/index.js';
import { findRoute, walkPath } from '../movement/index.js';
import { movementProfile } from '../profiles/index.js';
import { fail, ok, type Result } from '../result.js';
import { isFog, knownDestroyed, stateAsKnown } from '../knowledge/index.js';
import { type CampaignState, type CourierData, type CourierRecord, getArmy, newCourierId, type TickStep, type WeatherEffects } from '../state/index.js';
import { describeWater } from './describeWater.js';
import { fleetOf } from './fleet.js';
import type { CourierFact, WaterEvent } from './waterEvents.js';

/**
 * Couriers: lone riders any commander may send, at no cost, 48 points a day, tracked on the map
 * but shown only to their sender. They ride by the cheapest overland route to the recipient's
 * current hex, re-routing as it moves; friendly hexes are free to cross and stop in; passing an
 * enemy-occupied hex escapes on 4+, stopping in one needs a 6. A captured courier's message goes
 * to the captor. A courier may ride a vessel; on a river boat it has no horse (on foot, 12 a day).
 * @see 000 Overland Travel: Courier
 */
export const COURIER_MESSAGE_LIMIT = 1500;
const PASS_ESCAPE = 4;
const STOP_ESCAPE = 6;
const ON_FOOT = MOVE_POINTS.infantry;

const withData = (c: CourierRecord, data: CourierData): CourierRecord => ({ ...c, data });

/** Daily points of a courier: 48 riding, 12 on foot. */
function courierDailyPoints(d: Pick<CourierData, 'horse'>): number {
  return d.horse ? MOVE_POINTS.courier : ON_FOOT;
}

function riderOf(c: { id: string; side: string; hex: Hex }, d: Pick<CourierData, 'horse' | 'bank'>): Army {
  return loneForce({
    id: `courier:${c.id}`,
    name: 'courier',
    side: c.side,
    hex: c.hex,
    ...(d.bank ? { bank: d.bank } : {}),
    movementClass: 'courier',
    baseMovePoints: courierDailyPoints(d),
  });
}

const DAY_OPTS = { period: 'day', night: false, unformed: true } as const;

/** Hexes held by commanders hostile to `side` (in `state`: the world, or the sender's knowledge of it). */
function enemyHexes(state: CampaignState, side: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of Object.values(state.armies)) {
    if (!a.status.destroyed && !a.status.embarked && isHostile(state.sides, side, a.side)) m.set(hexKey(a.hex), a.id);
  }
  return m;
}

/** The cheapest overland route for the rider, around enemy-held hexes the sender knows of (all, with positions public) when there is a way. */
function courierRoute(state: CampaignState, map: MapModel, rider: Army, to: Hex, weather: WeatherEffects, sender: string): { path: readonly Hex[]; cost: number } | undefined {
  const enemies = enemyHexes(stateAsKnown(state, [sender]), rider.side);
  enemies.delete(hexKey(to));
  const base = { map, army: rider, from: rider.hex, fromBank: rider.bank, to, opts: DAY_OPTS, weather, profile: movementProfile(state.settings) };
  return findRoute({ ...base, blocked: new Set(enemies.keys()) }) ?? findRoute({ ...base, blocked: new Set() });
}

export interface SendCourierInput {
  readonly fromArmy: string;
  readonly toArmy: string;
  readonly message: string;
}

/**
 * A commander sends a courier: the message (up to 1,500 characters) rides from the sender's hex
 * toward the recipient. From an embarked army the courier rides the fleet until it touches land.
 */
export function sendCourier(state: CampaignState, map: MapModel, input: SendCourierInput, weather: WeatherEffects): Result<{ state: CampaignState; courier: CourierRecord; events: WaterEvent[] }> {
  const from = state.armies[input.fromArmy];
  const to = state.armies[input.toArmy];
  const message = input.message.trim();
  if (!from || from.status.destroyed) return fail('courier.noSender', `There is no army ${echo(input.fromArmy)} to send a courier.`);
  if (!to || knownDestroyed(state, [from.id], to.id)) return fail('courier.noRecipient', `There is no army ${echo(input.toArmy)} to receive a courier.`);
  if (from.id === to.id) return fail('courier.toSelf', 'A courier goes to another army.');
  if (isHostile(state.sides, from.side, to.side)) return fail('courier.hostile', `${to.name} is an enemy; couriers carry messages to friends and allies.`);
  if (message.length === 0) return fail('courier.empty', 'The message is empty.');
  if (message.length > COURIER_MESSAGE_LIMIT) return fail('courier.tooLong', `The message has ${message.length} characters; a courier carries at most ${COURIER_MESSAGE_LIMIT}.`, { length: message.length });
  const fleet = from.status.embarked ? fleetOf(state, from.id) : undefined;
  const aboard = fleet !== undefined && isWater(map.terrainAt(from.hex));
  const horse = !(fleet && (fleet.vessels.riverBoat ?? 0) > 0);
  const { id, numbered } = newCourierId(state, from.id, to.id);
  const known = stateAsKnown(state, [from.id]).armies[to.id];
  if (!known) return fail('courier.recipientUnknown', `You do not know where ${to.name} is: a courier needs a place to ride to. Send it once your scouts or an ally's courier have placed it.`);
  const seek = isFog(state) && to.side !== from.side ? { seek: { q: known.hex.q, r: known.hex.r } } : {};
  const due = expectedBy(state, map, { id, from, to: known, aboard, horse }, weather);
  if (!due.ok) return due;
  const data: CourierData = { horse, night: from.nocturnal, carry: 0, ...(from.bank ? { bank: from.bank } : {}), ...(aboard ? { aboard: from.id } : {}), expectedBy: due.value, trail: [map.format(from.hex)], ...seek };
  const courier: CourierRecord = { id, fromArmy: from.id, toArmy: to.id, side: from.side, hex: from.hex, message, sentAt: state.clock, status: 'travelling', data };
  const next: CampaignState = { ...state, couriers: { ...state.couriers, [id]: courier }, ...(numbered ? { nextCourierId: state.nextCourierId + 1 } : {}) };
  const facts: CourierFact[] = [
    { type: 'courierSent', audience: toArmy(from.id), data: { courierId: id, to: to.id, from: map.format(from.hex), goes: aboard ? 'fleet' : horse ? 'horse' : 'foot' } },
    { type: 'courierSent', audience: REFEREE, data: { courierId: id, fromArmy: from.id, toArmy: to.id, from: map.format(from.hex), message } },
  ];
  return ok({ state: next, courier, events: tell(facts, describeWater, namesOf(state.armies)) });
}

/**
 * The half period (time index) by which the courier should have arrived: by the cheapest route
 * at its pace, plus one half period; two days out when it sails with a fleet or the recipient lies
 * aboard next to the sender. Refused when there is no overland route. `to` is the recipient where
 * the sender knows it to be (in fog), so the promise says nothing the sender does not know.
 */
function expectedBy(state: CampaignState, map: MapModel, c: { id: string; from: Army; to: Army; aboard: boolean; horse: boolean }, weather: WeatherEffects): Result<number> {
  const { from, to } = c;
  const now = timeIndex(state.clock);
  if (c.aboard || (to.status.embarked && isAdjacent(from.hex, to.hex)) || hexEquals(from.hex, to.hex)) return ok(now + 8);
  const atSea = isWater(map.terrainAt(to.hex));
  const rider = riderOf({ id: c.id, side: from.side, hex: from.hex }, { horse: c.horse, ...(from.bank ? { bank: from.bank } : {}) });
  const route = atSea ? undefined : courierRoute(state, map, rider, to.hex, weather, from.id);
  if (!route) return fail('courier.noRoute', `No overland route from ${map.format(from.hex)} to ${to.name} at ${map.format(to.hex)}${atSea ? ' (it is at sea; send the courier when it lands or lies next to you)' : ''}.`);
  const perHalf = courierDailyPoints({ horse: c.horse }) / 2;
  return ok(now + 2 * Math.ceil(route.cost / perHalf) + 1);
}

/** Couriers an army sent that are still on the road: for that army's own view only. */
export function courierView(state: CampaignState, armyId: string, format: (h: Hex) => string): { id: string; hex: string; to: string; trail: readonly string[] }[] {
  return Object.values(state.couriers)
    .filter((c) => c.fromArmy === armyId && c.status === 'travelling')
    .map((c) => ({ id: c.id, hex: format(c.hex), to: c.toArmy, trail: c.data.trail }));
}

/** A courier after its half period, and what was told of it. */
interface Ridden {
  readonly courier: CourierRecord;
  readonly facts: readonly CourierFact[];
}

function delivered(state: CampaignState, c: CourierRecord, d: CourierData, hex: Hex, map: MapModel): Ridden {
  const recipient = getArmy(state, c.toArmy);
  return {
    courier: withData({ ...c, hex, status: 'delivered' }, { ...d, receivedAt: state.clock }),
    facts: [
      { type: 'courierDelivered', audience: toArmy(c.toArmy), data: { courierId: c.id, from: c.fromArmy, at: map.format(recipient.hex), sentAt: c.sentAt, receivedAt: state.clock, message: c.message } },
      { type: 'courierDelivered', audience: REFEREE, data: { courierId: c.id, toArmy: c.toArmy, hex: map.format(hex) } },
    ],
  };
}

function captured(c: CourierRecord, d: CourierData, hex: Hex, captor: string, map: MapModel, caught: { when: 'passing' | 'stopping'; roll: number }): Ridden {
  return {
    courier: withData({ ...c, hex, status: 'captured' }, { ...d, capturedBy: captor }),
    facts: [
      { type: 'courierCaptured', audience: toArmy(captor), data: { courierId: c.id, from: c.fromArmy, to: c.toArmy, hex: map.format(hex), sentAt: c.sentAt, message: c.message } },
      { type: 'courierCaptured', audience: REFEREE, data: { courierId: c.id, fromArmy: c.fromArmy, toArmy: c.toArmy, by: captor, hex: map.format(hex), ...caught } },
    ],
  };
}

/**
 * The couriers' step of a tick (closeHalf, after movement and ships): each courier on the road
 * rides its half period's points (24 riding, 6 on foot; by day, or by night for nocturnal folk;
 * fractions carry within the period) along the cheapest route to where its recipient is now
 * (rideHalf). A captured courier's sender learns only that it has not arrived, once it is overdue.
 * Couriers never appear in public events.
 * @see 000 Overland Travel: Courier
 */
export const courierStep: TickStep<WaterEvent> = ({ state, map, dice, weather }) => {
  const facts: CourierFact[] = [];
  const couriers: Record<string, CourierRecord> = { ...state.couriers };
  const now = timeIndex(state.clock);
  for (const [cid, c] of Object.entries(state.couriers).sort(([a], [b]) => byNumber(a, b))) {
    if (c.status === 'captured' && !c.data.senderTold && now >= c.data.expectedBy) {
      facts.push({ type: 'courierOverdue', audience: toArmy(c.fromArmy), data: { courierId: c.id, to: c.toArmy, sentAt: c.sentAt, dueBy: fromIndex(c.data.expectedBy) } });
      couriers[cid] = withData(c, { ...c.data, senderTold: true });
      continue;
    }
    if (c.status !== 'travelling') continue;
    const out = rideHalf({ state, map, dice, weather, c });
    couriers[cid] = out.courier;
    facts.push(...out.facts);
  }
  return { state: { ...state, couriers }, events: tell(facts, describeWater, namesOf(state.armies)) };
};

function byNumber(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1)) || (a < b ? -1 : 1);
}

/** What one courier's half period is played on. */
interface Ride {
  readonly state: CampaignState;
  readonly map: MapModel;
  readonly dice: Dice;
  readonly weather: WeatherEffects;
  readonly c: CourierRecord;
}

/** Where the courier stands as its half period goes on. */
interface OnTheRoad {
  readonly d: CourierData;
  readonly hex: Hex;
  readonly facts: readonly CourierFact[];
}

/** Either the courier's half period is over (delivered, captured, waiting) or it goes on from here. */
type Leg = { readonly done: Ridden } | { readonly road: OnTheRoad };

/**
 * One courier's half period:
 * 1. aboard a fleet it moves with the fleet and lands where the fleet touches land;
 * 2. it is delivered on reaching the recipient's hex (or the recipient's fleet next to it);
 * 3. at a ferry (or where only rafts cross) it waits the whole days of the crossing, then rides
 *    on from the far bank;
 * 4. it rides the half period's points: it stops short of an enemy-held hex it could not ride
 *    clear through; passing through one it escapes on 4+, else it is captured;
 * 5. ending the half in a hex an enemy holds (the enemy came to it) needs a 6.
 */
function rideHalf(r: Ride): Ridden {
  const { state, c } = r;
  const recipient = state.armies[c.toArmy];
  if (!recipient || recipient.status.destroyed) {
    // In fog the sender did not know: the rider finds nobody and is lost; the sender hears only that it has not arrived, once overdue.
    if (recipient && isFog(state)) return { courier: withData({ ...c, status: 'captured' }, c.data), facts: [] };
    return { courier: withData({ ...c, status: 'delivered' }, { ...c.data, receivedAt: state.clock }), facts: [{ type: 'courierReturned', audience: toArmy(c.fromArmy), data: { courierId: c.id, to: c.toArmy } }] };
  }
  const legs = [rideTheFleet, reachRecipient, waitAtCrossing, rideThePoints];
  let road: OnTheRoad = { d: c.data, hex: c.hex, facts: [] };
  for (const leg of legs) {
    const next = leg(r, recipient, road);
    if ('done' in next) return next.done;
    road = next.road;
  }
  return stopAmongEnemies(r, road);
}

/** Step 1: aboard a fleet, the courier goes where the fleet goes, until it touches land. */
function rideTheFleet(r: Ride, recipient: Army, road: OnTheRoad): Leg {
  const { state, map, c } = r;
  if (!road.d.aboard) return { road };
  const carrier = state.armies[road.d.aboard];
  const hex = carrier?.hex ?? road.hex;
  const reached = recipient.status.embarked ? isAdjacent(hex, recipient.hex) || hexEquals(hex, recipient.hex) : hexEquals(hex, recipient.hex) || (isAdjacent(hex, recipient.hex) && isWater(map.terrainAt(hex)));
  if (reached) return { done: delivered(state, c, road.d, hex, map) };
  if (carrier && carrier.status.embarked && isWater(map.terrainAt(hex))) return { done: { courier: withData({ ...c, hex }, road.d), facts: [] } };
  const { aboard: _a, ...ashore } = road.d;
  return { road: { ...road, d: { ...ashore, trail: [...road.d.trail, map.format(hex)] }, hex } };
}

/** Step 2: in the recipient's hex, or next to the recipient's fleet. */
function reachRecipient(r: Ride, recipient: Army, road: OnTheRoad): Leg {
  if (hexEquals(road.hex, recipient.hex) || (recipient.status.embarked && isAdjacent(road.hex, recipient.hex))) return { done: delivered(r.state, r.c, road.d, road.hex, r.map) };
  return { road };
}

/** Step 3: a ferry or rafts take whole days (RULINGS 4): the courier waits, then rides on from the far bank. */
function waitAtCrossing(r: Ride, _recipient: Army, road: OnTheRoad): Leg {
  const crossing = road.d.crossing;
  if (!crossing || timeIndex(r.state.clock) < crossing.until) return { road };
  const { crossing: done, bank: _b, ...rest } = road.d;
  return { road: { ...road, d: { ...rest, ...(done?.bank ? { bank: done.bank } : {}) } } };
}

/** Step 4: the half period's points along the cheapest route to where the recipient is now (in fog, first to `seek`). */
function rideThePoints(r: Ride, recipient: Army, road: OnTheRoad): Leg {
  const { state, map, c } = r;
  const { seek: sought, ...rest } = road.d;
  // At the place it was sent to, the courier learns where the recipient went and rides on there.
  const d: CourierData = sought && hexEquals(sought, road.hex) ? rest : road.d;
  const crossingNow = d.crossing !== undefined && timeIndex(state.clock) < d.crossing.until;
  const riding = !crossingNow && (d.night ? state.clock.half >= 2 : state.clock.half < 2);
  if (!riding) return { road: { ...road, d } };
  const target = d.seek ?? recipient.hex;
  const rider = riderOf({ id: c.id, side: c.side, hex: road.hex }, d);
  const route = isWater(map.terrainAt(target)) ? undefined : courierRoute(state, map, rider, target, r.weather, c.fromArmy);
  if (!route) {
    const toHex = d.seek || !isFog(state) ? { toHex: map.format(target) } : {};
    const facts: CourierFact[] = d.waiting ? [] : [{ type: 'courierWaiting', audience: toArmy(c.fromArmy), data: { courierId: c.id, to: c.toArmy, ...toHex, at: map.format(road.hex) } }];
    return { done: { courier: withData({ ...c, hex: road.hex }, { ...d, carry: 0, waiting: true }), facts } };
  }
  return followRoute(r, recipient, { ...road, d }, rider, route.path);
}

/** Step 4, hex by hex: points, enemies passed, a multi-day crossing reached, the recipient reached. */
function followRoute(r: Ride, recipient: Army, road: OnTheRoad, rider: Army, path: readonly Hex[]): Leg {
  const { state, map, dice, c } = r;
  const d = road.d;
  const perHalf = courierDailyPoints(d) / 2;
  const enemies = enemyHexes(state, c.side);
  const steps = walkPath({ map, army: rider, from: road.hex, fromBank: d.bank, path, crossAtEnd: false, opts: DAY_OPTS, weather: r.weather, profile: movementProfile(state.settings) }).steps;
  const cost = (i: number): number => {
    const s = steps[i];
    return s ? s.points + (s.crossing?.halves ?? 0) * perHalf : Infinity;
  };
  let budget = (isPeriodStart(state.clock) ? 0 : d.carry) + perHalf;
  let hex = road.hex;
  let bank = d.bank;
  const trail = [...d.trail];
  const facts = [...road.facts];
  let crossing: CourierData['crossing'];
  for (const [i, s] of steps.entries()) {
    const halves = s.crossing?.halves ?? 0;
    if (halves > 0) {
      crossing = { hex: map.format(s.hex), until: timeIndex(state.clock) + halves, ...(s.bank ? { bank: s.bank } : {}) };
      break;
    }
    const k = cost(i);
    if (k > budget) break;
    const enemy = s.kind === 'enter' ? enemies.get(hexKey(s.hex)) : undefined;
    if (enemy !== undefined && !hexEquals(s.hex, recipient.hex)) {
      // Only ride into an enemy-held hex when the points carry the courier out again.
      if (budget < k + cost(i + 1)) break;
      const roll = dice.d6(`courier ${c.id} passing ${map.format(s.hex)} (escapes on ${PASS_ESCAPE}+)`);
      if (roll < PASS_ESCAPE) {
        const out = captured(c, d, s.hex, enemy, map, { when: 'passing', roll });
        return { done: { courier: out.courier, facts: [...facts, ...out.facts] } };
      }
      facts.push({ type: 'courierEscaped', audience: REFEREE, data: { courierId: c.id, hex: map.format(s.hex), roll } });
    }
    budget -= k;
    hex = s.hex;
    bank = s.bank;
    if (s.kind === 'enter') trail.push(map.format(hex));
    if (hexEquals(hex, recipient.hex)) {
      const out = delivered(state, c, { ...d, trail: trail.slice(-40) }, hex, map);
      return { done: { courier: out.courier, facts: [...facts, ...out.facts] } };
    }
  }
  const { bank: _b, waiting: _w, ...rest } = d;
  const next: CourierData = { ...rest, ...(bank ? { bank } : {}), carry: crossing ? 0 : budget, trail: trail.slice(-40), ...(crossing ? { crossing } : {}) };
  if (recipient.status.embarked && isAdjacent(hex, recipient.hex)) {
    const out = delivered(state, c, next, hex, map);
    return { done: { courier: out.courier, facts: [...facts, ...out.facts] } };
  }
  return { road: { d: next, hex, facts } };
}

/** Step 5: a courier that ends the half where an enemy stands (the enemy came to it) escapes only on a 6, once per meeting. */
function stopAmongEnemies(r: Ride, road: OnTheRoad): Ridden {
  const { state, map, dice, c } = r;
  const enemy = enemyHexes(state, c.side).get(hexKey(road.hex));
  let d = road.d;
  if (enemy !== undefined && d.safeAt !== `${hexKey(road.hex)}@${enemy}`) {
    const roll = dice.d6(`courier ${c.id} stopping among enemies at ${map.format(road.hex)} (escapes on ${STOP_ESCAPE})`);
    if (roll < STOP_ESCAPE) {
      const out = captured(c, d, road.hex, enemy, map, { when: 'stopping', roll });
      return { courier: out.courier, facts: [...road.facts, ...out.facts] };
    }
    d = { ...d, safeAt: `${hexKey(road.hex)}@${enemy}` };
  }
  return { courier: withData({ ...c, hex: road.hex }, d), facts: road.facts };
}

/**
 * True once a courier has nothing left to do: delivered, or captured and its sender told it has
 * not arrived. It may then leave the live state (its record stays in the couriers table).
 */
export function courierFinished(c: CourierRecord): boolean {
  return c.status === 'delivered' || (c.status === 'captured' && c.data.senderTold === true);
}
