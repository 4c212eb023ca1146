import { formatGameTime, fromIndex, isPeriodStart, timeIndex, type GameTime } from '../clock/gameTime.js';
import type { Dice } from '../dice/dice.js';
import { event, REFEREE, toArmy, type EngineEvent } from '../events/events.js';
import { isHostile, loneForce, MOVE_POINTS, type Army } from '../forces/army.js';
import { hexEquals, type Hex } from '../hex/hex.js';
import { hexKey } from '../hex/hexId.js';
import { isAdjacent } from '../hex/neighbours.js';
import { isWater, type Bank, type MapModel } from '../map/mapModel.js';
import { findRoute } from '../movement/findRoute.js';
import { walkPath } from '../movement/walkPath.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState } from '../state/campaign.js';
import type { TickStep } from '../tick/step.js';
import type { WeatherEffects } from '../weather/types.js';
import { fleetOf } from './fleet.js';

/**
 * Couriers: lone riders any commander may send, at no cost, 48 points a day, tracked on the map
 * but shown only to their sender. They ride by the cheapest overland route to the recipient's
 * current hex, re-routing as it moves; friendly hexes are free to cross and stop in; passing an
 * enemy-occupied hex escapes on 4+, stopping in one needs a 6. A captured courier's message goes
 * to the captor. A courier may ride a vessel; on a river boat it has no horse (on foot, 12 a day).
 * @see 000 Overland Travel: Courier
 */
export const COURIER_MESSAGE_LIMIT = 1500;
export const PASS_ESCAPE = 4;
export const STOP_ESCAPE = 6;
const ON_FOOT = MOVE_POINTS.infantry;

/** What this module keeps in CourierRecord.data. */
export interface CourierData {
  readonly horse: boolean;
  /** Rides in the night period (the sender's folk are nocturnal), else by day. */
  readonly night: boolean;
  /** Points carried over within the riding period. */
  readonly carry: number;
  readonly bank?: Bank;
  /** Army whose fleet carries the courier. */
  readonly aboard?: string;
  /** timeIndex by which the courier should have arrived (for the sender's "not arrived" notice). */
  readonly expectedBy: number;
  readonly senderTold?: boolean;
  readonly capturedBy?: string;
  readonly receivedAt?: GameTime;
  /** Hex key where the courier already survived a stop among enemies. */
  readonly safeAt?: string;
  /** Hexes ridden through, for the sender's own view. */
  readonly trail: readonly string[];
  readonly waiting?: boolean;
  /** A ferry or raft crossing under way: the half period (timeIndex) it is done, and the far bank. */
  readonly crossing?: { readonly hex: string; readonly until: number; readonly bank?: Bank };
}

/** A courier on the map (or delivered, or captured), with its message. Only its sender sees it. */
export interface CourierRecord {
  readonly id: string;
  readonly fromArmy: string;
  readonly toArmy: string;
  readonly side: string;
  readonly hex: Hex;
  readonly message: string;
  readonly sentAt: GameTime;
  readonly status: 'travelling' | 'delivered' | 'captured';
  readonly data: CourierData;
}

const withData = (c: CourierRecord, data: CourierData): CourierRecord => ({ ...c, data });
const who = (a: Army): string => a.commander || a.name;

/** Daily points of a courier: 48 riding, 12 on foot. */
export function courierDailyPoints(d: Pick<CourierData, 'horse'>): number {
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

/** Hexes held by commanders hostile to `side`. */
function enemyHexes(state: CampaignState, side: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of Object.values(state.armies)) {
    if (!a.status.destroyed && !a.status.embarked && isHostile(state.sides, side, a.side)) m.set(hexKey(a.hex), a.id);
  }
  return m;
}

/** The cheapest overland route for the rider, around enemy-held hexes when there is a way. */
function courierRoute(state: CampaignState, map: MapModel, rider: Army, to: Hex, weather: WeatherEffects): { path: readonly Hex[]; cost: number } | undefined {
  const enemies = enemyHexes(state, rider.side);
  enemies.delete(hexKey(to));
  const base = { map, army: rider, from: rider.hex, fromBank: rider.bank, to, opts: DAY_OPTS, weather, flyingIgnoresTerrain: false };
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
export function sendCourier(state: CampaignState, map: MapModel, input: SendCourierInput, weather: WeatherEffects): Result<{ state: CampaignState; courier: CourierRecord; events: EngineEvent[] }> {
  const from = state.armies[input.fromArmy];
  const to = state.armies[input.toArmy];
  const message = input.message.trim();
  if (!from || from.status.destroyed) return fail('courier.noSender', `There is no army ${input.fromArmy} to send a courier.`);
  if (!to || to.status.destroyed) return fail('courier.noRecipient', `There is no army ${input.toArmy} to receive a courier.`);
  if (from.id === to.id) return fail('courier.toSelf', 'A courier goes to another army.');
  if (isHostile(state.sides, from.side, to.side)) return fail('courier.hostile', `${to.name} is an enemy; couriers carry messages to friends and allies.`);
  if (message.length === 0) return fail('courier.empty', 'The message is empty.');
  if (message.length > COURIER_MESSAGE_LIMIT) return fail('courier.tooLong', `The message has ${message.length} characters; a courier carries at most ${COURIER_MESSAGE_LIMIT}.`, { length: message.length });
  const fleet = from.status.embarked ? fleetOf(state, from.id) : undefined;
  const aboard = fleet !== undefined && isWater(map.terrainAt(from.hex));
  const horse = !(fleet && (fleet.vessels.riverBoat ?? 0) > 0);
  const night = from.nocturnal;
  const id = `k${state.nextId}`;
  const now = timeIndex(state.clock);
  let expectedBy = now + 8;
  if (!aboard && !(to.status.embarked && isAdjacent(from.hex, to.hex)) && !hexEquals(from.hex, to.hex)) {
    const rider = riderOf({ id, side: from.side, hex: from.hex }, { horse, ...(from.bank ? { bank: from.bank } : {}) });
    const route = isWater(map.terrainAt(to.hex)) ? undefined : courierRoute(state, map, rider, to.hex, weather);
    if (!route) return fail('courier.noRoute', `No overland route from ${map.format(from.hex)} to ${to.name} at ${map.format(to.hex)}${isWater(map.terrainAt(to.hex)) ? ' (it is at sea; send the courier when it lands or lies next to you)' : ''}.`);
    const perHalf = courierDailyPoints({ horse }) / 2;
    expectedBy = now + 2 * Math.ceil(route.cost / perHalf) + 1;
  }
  const data: CourierData = { horse, night, carry: 0, ...(from.bank ? { bank: from.bank } : {}), ...(aboard ? { aboard: from.id } : {}), expectedBy, trail: [map.format(from.hex)] };
  const courier: CourierRecord = { id, fromArmy: from.id, toArmy: to.id, side: from.side, hex: from.hex, message, sentAt: state.clock, status: 'travelling', data };
  const next: CampaignState = { ...state, couriers: { ...state.couriers, [id]: courier }, nextId: state.nextId + 1 };
  const events: EngineEvent[] = [
    event('courierSent', toArmy(from.id), `Courier ${id} ${aboard ? 'sails with the fleet' : horse ? 'rides' : 'sets out on foot'} from ${map.format(from.hex)} to ${who(to)}.`, { courierId: id, to: to.id }),
    event('courierSent', REFEREE, `Courier ${id}: ${from.name} to ${to.name} from ${map.format(from.hex)}: "${message}"`, { courierId: id }),
  ];
  return ok({ state: next, courier, events });
}

/** Couriers an army sent that are still on the road: for that army's own view only. */
export function courierView(state: CampaignState, armyId: string, format: (h: Hex) => string): { id: string; hex: string; to: string; trail: readonly string[] }[] {
  return Object.values(state.couriers)
    .filter((c) => c.fromArmy === armyId && c.status === 'travelling')
    .map((c) => ({ id: c.id, hex: format(c.hex), to: c.toArmy, trail: c.data.trail }));
}

function delivered(state: CampaignState, c: CourierRecord, d: CourierData, hex: Hex, map: MapModel): { courier: CourierRecord; events: EngineEvent[] } {
  const sender = state.armies[c.fromArmy];
  const recipient = state.armies[c.toArmy] as Army;
  const text = `A courier from ${sender ? who(sender) : c.fromArmy} reaches you at ${map.format(recipient.hex)} (sent ${formatGameTime(c.sentAt)}, received ${formatGameTime(state.clock)}): "${c.message}"`;
  return {
    courier: withData({ ...c, hex, status: 'delivered' }, { ...d, receivedAt: state.clock }),
    events: [
      event('courierDelivered', toArmy(c.toArmy), text, { courierId: c.id, from: c.fromArmy, sentAt: c.sentAt, receivedAt: state.clock, message: c.message }),
      event('courierDelivered', REFEREE, `Courier ${c.id} delivered to ${recipient.name} at ${map.format(hex)}.`, { courierId: c.id }),
    ],
  };
}

function captured(state: CampaignState, c: CourierRecord, d: CourierData, hex: Hex, captor: Army, map: MapModel, how: string): { courier: CourierRecord; events: EngineEvent[] } {
  const sender = state.armies[c.fromArmy];
  const recipient = state.armies[c.toArmy];
  return {
    courier: withData({ ...c, hex, status: 'captured' }, { ...d, capturedBy: captor.id }),
    events: [
      event('courierCaptured', toArmy(captor.id), `Your men caught a courier of ${sender ? who(sender) : c.fromArmy} riding to ${recipient ? who(recipient) : c.toArmy} at ${map.format(hex)} (sent ${formatGameTime(c.sentAt)}). The message reads: "${c.message}"`, { courierId: c.id, from: c.fromArmy, to: c.toArmy, message: c.message }),
      event('courierCaptured', REFEREE, `Courier ${c.id} (${c.fromArmy} to ${c.toArmy}) captured by ${captor.name} at ${map.format(hex)} ${how}.`, { courierId: c.id }),
    ],
  };
}

/**
 * The couriers' step of a tick (closeHalf, after movement and ships): each courier on the road
 * rides its half period's points (24 riding, 6 on foot; by day, or by night for nocturnal folk;
 * fractions carry within the period) along the cheapest route to where its recipient is now.
 * 1. aboard a fleet it moves with the fleet and lands where the fleet touches land;
 * 2. it stops short of an enemy-held hex it could not ride clear through; passing through one it
 *    escapes on 4+, else it is captured; at a ferry (or where only rafts cross) it waits the whole
 *    days of the crossing, then rides on from the far bank;
 * 3. it is delivered on reaching the recipient's hex (or the recipient's fleet next to it);
 * 4. ending the half in a hex an enemy holds (the enemy came to it) needs a 6;
 * 5. a captured courier's sender learns only that it has not arrived, once it is overdue.
 * Couriers never appear in public events.
 * @see 000 Overland Travel: Courier
 */
export const courierStep: TickStep = ({ state, map, dice, weather }) => {
  const events: EngineEvent[] = [];
  const couriers: Record<string, CourierRecord> = { ...state.couriers };
  const now = timeIndex(state.clock);
  for (const cid of Object.keys(couriers).sort(byNumber)) {
    const c = couriers[cid] as CourierRecord;
    const d = c.data;
    if (c.status === 'captured' && !d.senderTold && now >= d.expectedBy) {
      const to = state.armies[c.toArmy];
      events.push(event('courierOverdue', toArmy(c.fromArmy), `Your courier ${c.id} to ${to ? who(to) : c.toArmy} (sent ${formatGameTime(c.sentAt)}) has not arrived; it was due by ${formatGameTime(fromIndex(d.expectedBy))}.`, { courierId: c.id }));
      couriers[cid] = withData(c, { ...d, senderTold: true });
      continue;
    }
    if (c.status !== 'travelling') continue;
    const out = rideHalf(state, map, dice, weather, c, d);
    couriers[cid] = out.courier;
    events.push(...out.events);
  }
  return { state: { ...state, couriers }, events };
};

function byNumber(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1)) || (a < b ? -1 : 1);
}

function rideHalf(state: CampaignState, map: MapModel, dice: Dice, weather: WeatherEffects, c: CourierRecord, d0: CourierData): { courier: CourierRecord; events: EngineEvent[] } {
  const recipient = state.armies[c.toArmy];
  if (!recipient || recipient.status.destroyed) {
    return { courier: withData({ ...c, status: 'delivered' }, { ...d0, receivedAt: state.clock }), events: [event('courierReturned', toArmy(c.fromArmy), `Your courier ${c.id} found no one to deliver to: ${recipient?.name ?? c.toArmy} is gone.`, { courierId: c.id })] };
  }
  let d = d0;
  let hex = c.hex;
  // 1. Aboard a fleet.
  if (d.aboard) {
    const carrier = state.armies[d.aboard];
    hex = carrier?.hex ?? hex;
    if (recipient.status.embarked ? isAdjacent(hex, recipient.hex) || hexEquals(hex, recipient.hex) : hexEquals(hex, recipient.hex) || (isAdjacent(hex, recipient.hex) && isWater(map.terrainAt(hex)))) {
      return delivered(state, c, d, hex, map);
    }
    if (carrier && carrier.status.embarked && isWater(map.terrainAt(hex))) return { courier: withData({ ...c, hex }, d), events: [] };
    const { aboard: _a, ...rest } = d;
    d = { ...rest, trail: [...d.trail, map.format(hex)] };
  }
  if (hexEquals(hex, recipient.hex) || (recipient.status.embarked && isAdjacent(hex, recipient.hex))) return delivered(state, c, d, hex, map);

  const enemies = enemyHexes(state, c.side);
  const now = timeIndex(state.clock);
  // A ferry or rafts take whole days (RULINGS 4): the courier waits at the crossing, then rides on
  // from the far bank.
  const crossingNow = d.crossing !== undefined && now < d.crossing.until;
  if (d.crossing && !crossingNow) {
    const { crossing: done, bank: _b, ...rest } = d;
    d = { ...rest, ...(done.bank ? { bank: done.bank } : {}) };
  }
  const riding = !crossingNow && (d.night ? state.clock.half >= 2 : state.clock.half < 2);
  const events: EngineEvent[] = [];
  if (riding) {
    const perHalf = courierDailyPoints(d) / 2;
    let budget = (isPeriodStart(state.clock) ? 0 : d.carry) + perHalf;
    const rider = riderOf({ id: c.id, side: c.side, hex }, d);
    const route = isWater(map.terrainAt(recipient.hex)) ? undefined : courierRoute(state, map, rider, recipient.hex, weather);
    if (!route) {
      if (!d.waiting) events.push(event('courierWaiting', toArmy(c.fromArmy), `Your courier ${c.id} has no way to ${who(recipient)} at ${map.format(recipient.hex)} for now; it waits at ${map.format(hex)}.`, { courierId: c.id }));
      return { courier: withData({ ...c, hex }, { ...d, carry: 0, waiting: true }), events };
    }
    const walk = walkPath({ map, army: rider, from: hex, fromBank: d.bank, path: route.path, crossAtEnd: false, opts: DAY_OPTS, weather, flyingIgnoresTerrain: false });
    const steps = walk.steps;
    const cost = (i: number): number => {
      const s = steps[i];
      return s ? s.points + (s.crossing?.halves ?? 0) * perHalf : Infinity;
    };
    const trail = [...d.trail];
    let bank = d.bank;
    let crossing: CourierData['crossing'];
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i] as (typeof steps)[number];
      const halves = s.crossing?.halves ?? 0;
      if (halves > 0) {
        crossing = { hex: map.format(s.hex), until: now + halves, ...(s.bank ? { bank: s.bank } : {}) };
        break;
      }
      const k = cost(i);
      if (k > budget) break;
      const enemy = s.kind === 'enter' ? enemies.get(hexKey(s.hex)) : undefined;
      if (enemy !== undefined && !hexEquals(s.hex, recipient.hex)) {
        // 2. Only ride into an enemy-held hex when the points carry the courier out again.
        if (budget < k + cost(i + 1)) break;
        const roll = dice.d6(`courier ${c.id} passing ${map.format(s.hex)} (escapes on ${PASS_ESCAPE}+)`);
        if (roll < PASS_ESCAPE) {
          const out = captured(state, c, d, s.hex, state.armies[enemy] as Army, map, `passing through (rolled ${roll})`);
          return { courier: out.courier, events: [...events, ...out.events] };
        }
        events.push(event('courierEscaped', REFEREE, `Courier ${c.id} slipped through ${map.format(s.hex)} (rolled ${roll}).`, { courierId: c.id }));
      }
      budget -= k;
      hex = s.hex;
      bank = s.bank;
      if (s.kind === 'enter') trail.push(map.format(hex));
      if (hexEquals(hex, recipient.hex)) return delivered(state, c, { ...d, trail: trail.slice(-40) }, hex, map);
    }
    const { bank: _b, waiting: _w, ...rest } = d;
    d = { ...rest, ...(bank ? { bank } : {}), carry: crossing ? 0 : budget, trail: trail.slice(-40), ...(crossing ? { crossing } : {}) };
    if (recipient.status.embarked && isAdjacent(hex, recipient.hex)) return delivered(state, c, d, hex, map);
  }
  // 4. Stopping where an enemy stands.
  const enemy = enemies.get(hexKey(hex));
  if (enemy !== undefined && d.safeAt !== `${hexKey(hex)}@${enemy}`) {
    const roll = dice.d6(`courier ${c.id} stopping among enemies at ${map.format(hex)} (escapes on ${STOP_ESCAPE})`);
    if (roll < STOP_ESCAPE) {
      const out = captured(state, c, d, hex, state.armies[enemy] as Army, map, `stopping there (rolled ${roll})`);
      return { courier: out.courier, events: [...events, ...out.events] };
    }
    d = { ...d, safeAt: `${hexKey(hex)}@${enemy}` };
  }
  return { courier: withData({ ...c, hex }, d), events };
}
