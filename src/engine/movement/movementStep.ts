import { halfPeriodName, type GameTime } from '../clock/gameTime.js';
import { event, PUBLIC, toArmy, type EngineEvent } from '../events/events.js';
import type { Army, HalfActivity, MarchState } from '../forces/army.js';
import { hexEquals } from '../hex/hex.js';
import type { MapModel } from '../map/mapModel.js';
import type { CampaignState, Order } from '../state/campaign.js';
import type { TickStep } from '../tick/step.js';
import { detectContacts, openContacts, who } from './contacts.js';
import { HALVES_PER_DAY } from './crossing.js';
import { ensureMarch } from './ensureMarch.js';
import { resolveHalf, type MoverOutcome } from './resolveHalf.js';
import { appendHalf, fatigueOnMoving } from './restAndFatigue.js';
import { stragglerCount } from './stragglers.js';
import type { MoveOrder } from './types.js';
import { isFirstHalfOfPeriod, periodActive } from './timing.js';

/**
 * The movement step of a tick: resolves the current half period's moves simultaneously
 * (resolveHalf), applies them (positions, banks, points, formation, operations begun, orders
 * used up or cancelled, saved points lost), keeps the rest and fatigue books for every army,
 * and opens contacts for forces that came into map contact.
 * @see RULINGS 2, 3, 4; 000 Strategic Movement; 000 Overland Travel
 */
export const movementStep: TickStep = ({ state: input, map, dice, weather }) => {
  const state = ensureMarch(input);
  const res = resolveHalf(state, map, dice, weather);
  const events: EngineEvent[] = [...res.events];
  const armies: Record<string, Army> = { ...state.armies };
  const orders: Record<string, Order> = { ...state.orders };
  const clock = state.clock;
  const moved = new Set<string>();

  for (const o of res.outcomes.values()) {
    const before = state.armies[o.armyId] as Army;
    const applied = applyOutcome(before, o, clock, map, events);
    armies[o.armyId] = applied.army;
    if (applied.order) orders[o.armyId] = applied.order;
    else delete orders[o.armyId];
    if (o.made.length > 0) moved.add(o.armyId);
  }

  // Rest and fatigue books for every army.
  for (const id of Object.keys(armies).sort()) {
    const a = armies[id] as Army;
    if (a.status.destroyed) continue;
    const order = orders[id] ?? state.orders[id];
    let activity: HalfActivity = 'rested';
    if (moved.has(id)) activity = 'moved';
    else if (a.march.operation) activity = periodActive(order?.kind === 'move' ? order.period : 'day', clock) ? 'worked' : 'rested';
    else if (a.status.inBattle) activity = 'battle';
    const busy = activity === 'moved' || activity === 'worked';
    let status = a.status;
    let march: MarchState = a.march;
    if (busy && !a.status.fatigued) {
      // Judge by the books as they stood before this half (a forced march today is not yesterday's).
      const reason = fatigueOnMoving(state.armies[id] ?? a, clock);
      if (reason) {
        status = { ...status, fatigued: true };
        march = { ...march, fatigueReason: reason };
        events.push(event('armyFatigued', toArmy(id), `${a.name} is fatigued: ${reason}. A full day of rest recovers it.`, { reason }));
      }
    }
    march = { ...march, recentHalves: appendHalf(a.march.recentHalves, activity), movedToday: a.march.movedToday || busy };
    armies[id] = { ...a, status, march };
  }

  const s1: CampaignState = { ...state, armies, orders };
  const contacts = openContacts(s1, detectContacts(s1), (h) => map.format(h));
  return { state: contacts.state, events: [...events, ...contacts.events] };
};

/** Applies one army's half-period outcome; returns the army and its order (undefined = finished or cancelled). */
function applyOutcome(a: Army, o: MoverOutcome, clock: GameTime, map: MapModel, events: EngineEvent[]): { army: Army; order: MoveOrder | undefined } {
  const order = o.order;
  const half = halfPeriodName(clock);
  // Fatigue that sets in during the day cuts what is left, never what was already spent.
  let march: MarchState = { ...a.march, allowanceToday: Math.max(o.plan.allowance, a.march.spentToday), ...(order.save ? { saveRequested: true } : {}) };
  let formation = a.formation;
  let keep = true;
  const notes: string[] = [];
  const entered = o.made.filter((e) => e.step.kind === 'enter');
  const crossings = o.made.filter((e) => e.step.kind === 'cross' || e.step.crossing);

  if (o.made.length > 0) {
    march = { ...march, spentToday: march.spentToday + o.spent, spentPeriod: march.spentPeriod + o.spent };
    if (order.forced) march = { ...march, forcedMarchDay: clock.day };
    if (order.unformed || a.formation === 'unformed') {
      formation = 'unformed';
      march = { ...march, unformedToday: true };
    }
    // Leaving the rally point: stragglers still behind are lost.
    if (march.rallyPoint && hexEquals(march.rallyPoint, a.hex) && !hexEquals(o.hex, a.hex)) {
      const lost = stragglerCount(a);
      if (lost > 0) notes.push(`${lost} straggling figure(s) left behind at ${map.format(a.hex)} are lost`);
      const { rallyPoint: _r, ...rest } = march;
      march = { ...rest, stragglers: [] };
    }
  }
  if (o.plan.operation) {
    const op = o.plan.operation;
    march = { ...march, operation: op };
    if (op.kind === 'ferry') formation = 'unformed';
    const days = op.totalHalves / HALVES_PER_DAY;
    events.push(event('crossingStarted', PUBLIC, `${who(a)} begins ${op.kind === 'ferry' ? 'a ferry crossing' : 'collecting timber for rafts'} at ${map.format(op.hex)}.`, { armyId: a.id, hex: map.format(op.hex), kind: op.kind }));
    notes.push(`${op.kind === 'ferry' ? 'ferry crossing' : 'rafts (timber, build, cross)'} at ${map.format(op.hex)} begun: ${days} day(s)`);
  }

  // The order: what is left of it.
  const remaining = order.path.slice(entered.length);
  const last = o.made[o.made.length - 1];
  const crossedAtEnd = order.crossAtEnd === true && remaining.length === 0 && last?.step.kind === 'cross' && o.plan.stop.kind === 'done' && o.made.length === o.plan.entries.length;
  const finished = remaining.length === 0 && (!order.crossAtEnd || crossedAtEnd);
  if (finished && !o.plan.operation) keep = false;
  const stop = o.plan.stop;
  if (stop.kind === 'illegal' && o.made.length === o.plan.entries.length && !o.halt) {
    keep = false;
    notes.push(`order cancelled: ${stop.violation.message}`);
  }
  if (stop.kind === 'crossingChanged' && o.made.length === o.plan.entries.length && !o.halt) {
    notes.push(`waiting: the crossing here would now be by ${stop.method}; give the order again to accept it`);
  }
  const halt = o.halt;
  if (halt) {
    march = { ...march, saveLost: true };
    if (halt.kind === 'contact') {
      march = { ...march, savedPoints: 0 };
      if (!isFirstHalfOfPeriod(clock)) keep = false;
      notes.push(`halted by map contact${isFirstHalfOfPeriod(clock) ? '; the march may go on next half period once the contact is resolved' : '; movement ends for this period'}`);
    } else if (halt.kind === 'occupied') {
      const holder = halt.by;
      if (!halt.byMover) keep = false;
      events.push(event('armyBlocked', PUBLIC, `${who(a)} halted at ${map.format(o.hex)}: ${map.format(halt.hex)} is held by another commander.`, { armyId: a.id, hex: map.format(o.hex), blockedAt: map.format(halt.hex), by: holder }));
      notes.push(`halted at ${map.format(o.hex)}: ${map.format(halt.hex)} is held by another commander${keep ? '' : ' (order cancelled: route around it)'}`);
    } else {
      events.push(event('armyBlocked', PUBLIC, `${who(a)} halted at ${map.format(o.hex)}, short of the contested hex ${map.format(halt.hex)}.`, { armyId: a.id, hex: map.format(o.hex), blockedAt: map.format(halt.hex) }));
      notes.push(`lost the contest for ${map.format(halt.hex)}; halted at ${map.format(o.hex)}`);
    }
  }

  if (entered.length > 0 || crossings.length > 0) {
    const via = entered.map((e) => map.format(e.step.hex));
    const rivers = crossings.map((e) => `${e.step.crossing?.method} at ${map.format(e.step.crossing?.hex ?? e.step.hex)}`);
    const text = entered.length > 0
      ? `${who(a)} marched from ${map.format(a.hex)} to ${map.format(o.hex)}${via.length > 1 ? ` (by ${via.slice(0, -1).join(', ')})` : ''}${rivers.length > 0 ? `, crossing the river (${rivers.join('; ')})` : ''}.`
      : `${who(a)} crossed the river at ${map.format(o.hex)} (${rivers.join('; ')}).`;
    events.push(event('armyMoved', PUBLIC, text, { armyId: a.id, from: map.format(a.hex), to: map.format(o.hex), path: via }));
  }
  const left = Math.max(0, o.plan.allowance - march.spentToday);
  march = { ...march, pointsLeft: left };
  if (o.made.length > 0 || notes.length > 0) {
    const moveText = entered.length > 0 ? `marched to ${map.format(o.hex)}` : o.made.length > 0 ? `crossed the river at ${map.format(o.hex)}` : `stayed at ${map.format(o.hex)}`;
    events.push(event('movementOutcome', toArmy(a.id), `${capital(half)}: ${a.name} ${moveText}; ${left} of ${o.plan.allowance} points left today.${notes.length > 0 ? ` ${capital(notes.join('; '))}.` : ''}`, { armyId: a.id, hex: map.format(o.hex), pointsLeft: left }));
  }
  const army: Army = { ...a, hex: o.hex, ...(o.bank ? { bank: o.bank } : {}), formation, march };
  if (!o.bank && 'bank' in army) delete (army as { bank?: string }).bank;
  return { army, order: keep ? { ...order, path: remaining } : undefined };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
