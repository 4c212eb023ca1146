import type { Dice } from '../dice/dice.js';
import { event, PUBLIC, toArmy, type EngineEvent } from '../events/events.js';
import type { Army, MarchState } from '../forces/army.js';
import type { MapModel } from '../map/mapModel.js';
import type { CampaignState, Order } from '../state/campaign.js';
import type { TickStep } from '../tick/step.js';
import type { WeatherEffects } from '../weather/types.js';
import { detectContacts, openContacts, who } from './contacts.js';
import { todaysPoints } from './dailyPoints.js';
import { ensureMarch } from './ensureMarch.js';
import { progressOperation } from './crossingOperations.js';
import { restFactorFromDay } from './restAndFatigue.js';
import { loseStragglers, recoverStragglers, stragglerCount } from './stragglers.js';

/**
 * Runs right after the clock has moved to a new half period:
 * 1. at daybreak, closes the books of the day that ended for every army (dailyRollover);
 * 2. at the opening of a period, resets the points spent in the period;
 * 3. advances multi-day crossings by one half period;
 * 4. opens contacts between forces that stand adjacent (stationary forces included).
 * @see RULINGS 2, 3, 4
 */
export const beginHalfStep: TickStep = ({ state: input, map, dice, weather }) => {
  const state = ensureMarch(input);
  const events: EngineEvent[] = [];
  const armies: Record<string, Army> = { ...state.armies };
  const orders: Record<string, Order> = { ...state.orders };
  const ids = Object.keys(armies).sort();
  for (const id of ids) {
    let a = armies[id] as Army;
    if (a.status.destroyed) continue;
    if (state.clock.half === 0) {
      const r = dailyRollover(a, map, dice, weather);
      a = r.army;
      events.push(...r.events);
    }
    if (state.clock.half === 0 || state.clock.half === 2) a = { ...a, march: { ...a.march, spentPeriod: 0 } };
    if (a.march.operation) {
      const p = progressOperation(a, orders[id], map, dice);
      a = p.army;
      if (p.order) orders[id] = p.order;
      else delete orders[id];
      events.push(...p.events);
    }
    armies[id] = a;
  }
  const s1: CampaignState = { ...state, armies, orders };
  const contacts = openContacts(s1, detectContacts(s1), (h) => map.format(h));
  return { state: contacts.state, events: [...events, ...contacts.events] };
};

/**
 * The books at daybreak for the day that just ended:
 * - stragglers for a day of unformed movement (a half-dice x 5 % of each regiment);
 * - a day without movement after an unformed march reforms the army at its rally point, and
 *   stragglers rejoin (a half-dice x 5 % a day); fatigue clears after a full day of rest;
 * - consecutive days marched (weekly rest), consecutive rest days;
 * - points saved by an explicit save order, if the army moved and was not halted or in contact;
 * - the share of today's points recovered by yesterday's rest.
 * @see 000 Overland Travel: Daily Rest, Weekly Rest, Forced March, Fatigued; 000 Terrain Effects:
 *   Units, Formed and Unformed; 000 Terrain Effects: Saving Move Points
 */
export function dailyRollover(army: Army, map: MapModel, dice: Dice, weather: WeatherEffects): { army: Army; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  let a = army;
  const m = a.march;
  const yesterday = m.recentHalves.slice(-4);
  const moved = m.movedToday;
  const fullRest = !moved && !yesterday.includes('battle') && !yesterday.includes('worked') && !a.status.inBattle;

  if (m.unformedToday) {
    const out = loseStragglers(a, dice);
    a = out.army;
    if (out.lost > 0) events.push(event('stragglersLost', toArmy(a.id), `A day unformed: ${out.percent} % of each regiment straggles, ${out.lost} figure(s) in all. They may catch up while the army waits at its rally point.`, { percent: out.percent, figures: out.lost }));
  } else if (!moved && !a.march.operation && (a.formation === 'unformed' || stragglerCount(a) > 0)) {
    if (a.formation === 'unformed') {
      a = { ...a, formation: 'formed' };
      events.push(event('armyReformed', PUBLIC, `${who(a)} has reformed at ${map.format(a.hex)}.`, { armyId: a.id, hex: map.format(a.hex) }));
    }
    a = { ...a, march: { ...a.march, rallyPoint: a.hex } };
    if (stragglerCount(a) > 0) {
      const out = recoverStragglers(a, dice);
      a = out.army;
      events.push(event('stragglersRejoined', toArmy(a.id), `A day at the rally point ${map.format(a.hex)}: ${out.recovered} straggling figure(s) rejoin (${out.percent} %); ${stragglerCount(a)} still out. Leaving loses them.`, { percent: out.percent, figures: out.recovered }));
    }
  }
  let status = a.status;
  let fatigueReason = a.march.fatigueReason;
  if (fullRest && status.fatigued) {
    status = { ...status, fatigued: false };
    fatigueReason = undefined;
    events.push(event('fatigueRecovered', toArmy(a.id), `${a.name} rested a full day and is no longer fatigued.`));
  }
  const saved = m.saveRequested && !m.saveLost && moved ? Math.max(0, m.allowanceToday - m.spentToday) : 0;
  const { fatigueReason: _f, ...rest } = a.march;
  const march: MarchState = {
    ...rest,
    ...(fatigueReason ? { fatigueReason } : {}),
    spentToday: 0,
    spentPeriod: 0,
    savedPoints: saved,
    restFactor: restFactorFromDay(yesterday),
    daysMarched: moved ? m.daysMarched + 1 : fullRest ? 0 : m.daysMarched,
    restDays: fullRest ? m.restDays + 1 : 0,
    movedToday: false,
    unformedToday: false,
    saveRequested: false,
    saveLost: false,
  };
  a = { ...a, status, march };
  const today = todaysPoints(a, false, weather);
  a = { ...a, march: { ...a.march, pointsLeft: today, allowanceToday: today } };
  return { army: a, events };
}
