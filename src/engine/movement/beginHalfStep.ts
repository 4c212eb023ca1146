import type { MovementEvent, MovementFact } from './movementEvents.js';
import type { Dice } from '../dice/index.js';
import { namesOf, PUBLIC, tell, toArmy } from '../events/index.js';
import { isHostile, type Army, type MarchState } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import { movementProfile, type MovementProfile } from '../profiles/index.js';
import { compareIds, type CampaignState, type Order, type TickStep, type WeatherEffects } from '../state/index.js';
import { timeIndex } from '../clock/index.js';
import { detectContacts, openContacts } from './contacts.js';
import { progressOperation } from './crossingOperations.js';
import { todaysPoints } from './dailyPoints.js';
import { describeMovement } from './describeMovement.js';
import { appendDay, recovers, restFactorFromDay } from './restAndFatigue.js';
import { loseStragglers, recoverStragglers, stragglerCount } from './stragglers.js';

/**
 * Runs right after the clock has moved to a new half period:
 * 1. at daybreak, closes the books of the day that ended for every army (dailyRollover), and
 *    war machines whose assembling or disassembling is done are ready;
 * 2. at the opening of a period, resets the points spent in the period;
 * 3. advances multi-day crossings by one half period;
 * 4. opens contacts between forces that stand adjacent (stationary forces included).
 * @see RULINGS 2, 3, 4
 */
export const beginHalfStep: TickStep<MovementEvent> = ({ state, map, dice, weather }) => {
  const facts: MovementFact[] = [];
  const armies: Record<string, Army> = { ...state.armies };
  const orders: Record<string, Order> = { ...state.orders };
  const profile = movementProfile(state.settings);
  for (const [id, army] of Object.entries(state.armies).sort(([x], [y]) => (x < y ? -1 : 1))) {
    if (army.status.destroyed) continue;
    let a = army;
    if (state.clock.half === 0) {
      const r = dailyRollover(a, { map, dice, weather, profile, day: state.clock.day, marching: orders[id]?.kind === 'move' });
      a = r.army;
      facts.push(...r.facts);
    }
    if (state.clock.half === 0 || state.clock.half === 2) a = { ...a, march: { ...a.march, spentPeriod: 0 } };
    if (a.march.operation) {
      const p = progressOperation(a, orders[id], map, dice);
      a = p.army;
      if (p.order) orders[id] = p.order;
      else delete orders[id];
      facts.push(...p.facts);
    }
    armies[id] = a;
  }
  const s1: CampaignState = { ...state, armies, orders };
  const contacts = openContacts(s1, detectContacts(s1), (h) => map.format(h));
  const parted = partedStandoffs(contacts.state);
  return { state: contacts.state, events: tell([...facts, ...contacts.facts, ...parted], describeMovement, namesOf(contacts.state.armies)) };
};

/**
 * The standoffs that end as the half period begins: contacts nobody pressed in the half period
 * just over (fight on the morrow, "in contact again at the start of the next if they still face
 * each other") that did not stand again (openContacts took every one whose forces still face each
 * other). Said to their forces, so the deferral told in the same tick is not their last word.
 * @see 001 Map Contact: Fight on the Morrow
 */
function partedStandoffs(state: CampaignState): MovementFact[] {
  const now = timeIndex(state.clock);
  const open = Object.values(state.contacts).filter((c) => c.step !== 'closed');
  const hostile = (x: string, y: string): boolean => {
    const a = state.armies[x];
    const b = state.armies[y];
    return a !== undefined && b !== undefined && isHostile(state.sides, a.side, b.side);
  };
  // Forces of the standoff that face each other again in another contact opened now (a third force
  // joined them, so the contact is a new one) have not parted.
  const stillFacing = (armyIds: readonly string[]): boolean => open.some((o) => {
    const both = armyIds.filter((id) => o.armyIds.includes(id));
    return both.some((x) => both.some((y) => hostile(x, y)));
  });
  return Object.values(state.contacts)
    .filter((c) => c.step === 'closed' && c.data.outcome === 'fightOnMorrow' && c.data.quietUntil === now && !stillFacing(c.armyIds))
    .sort((a, b) => compareIds(a.id, b.id))
    .map((c) => ({ type: 'contactParted', audience: PUBLIC, data: { contactId: c.id, armyIds: c.armyIds.filter((id) => state.armies[id] !== undefined) } }));
}

/** What the books at daybreak are kept with. */
interface Daybreak {
  readonly map: MapModel;
  readonly dice: Dice;
  readonly weather: WeatherEffects;
  readonly profile: MovementProfile;
  /** The day that begins. */
  readonly day: number;
  /** The army still has a march to go on with (points carried over are for it only). */
  readonly marching: boolean;
}

/**
 * The books at daybreak for the day that just ended, under the campaign's movement profile:
 * 1. stragglers for a day of unformed movement, or the army reforming at its rally point and its
 *    stragglers rejoining after a day without movement;
 * 2. the day logged as marched or not; fatigue clears after a full day of rest (from a
 *    marching-days window, once the owed rest is caught up);
 * 3. consecutive days marched (weekly rest), consecutive rest days, points saved by an explicit
 *    save order (if the army moved and was not halted or in contact) or carried by the profile
 *    (a march short of the points for its next hex, not halted), the share of today's points
 *    recovered by yesterday's rest;
 * 4. war machines ready when their work is done.
 * @see 000 Overland Travel: Daily Rest, Weekly Rest, Forced March, Fatigued; 000 Terrain Effects:
 *   Units, Formed and Unformed; 000 Terrain Effects: Saving Move Points; 004 Rest and
 *   Recuperation; 004 Movement of War Machines
 */
function dailyRollover(army: Army, at: Daybreak): { army: Army; facts: MovementFact[] } {
  const stragglers = straggleOrRally(army, at.map, at.dice);
  const books = daybreakBooks(army, stragglers.army, at);
  return { army: books.army, facts: [...stragglers.facts, ...books.facts] };
}

/**
 * Steps 2 to 4 of the books at daybreak, without dice (the /move preview keeps them as the tick
 * does): `army` as the day ended, `kept` the same after its stragglers (step 1); the day's points.
 */
export function daybreakBooks(army: Army, kept: Army, at: Omit<Daybreak, 'map' | 'dice'>): { army: Army; facts: MovementFact[] } {
  const books = closeDayBooks(army, kept, at.profile, at.marching);
  const machines = machinesReady(books.army, at.day);
  const a: Army = machines.army;
  const today = todaysPoints(a, at.profile, false, at.weather);
  return { army: { ...a, march: { ...a.march, pointsLeft: today, allowanceToday: today } }, facts: [...books.facts, ...machines.facts] };
}

/**
 * Steps 2 and 3 of the books at daybreak, without dice (the /move preview keeps them as the tick
 * does): `army` as the day ended, `kept` the same after its stragglers (step 1), `marching` whether
 * a march order goes on.
 */
function closeDayBooks(army: Army, kept: Army, profile: MovementProfile, marching: boolean): { army: Army; facts: MovementFact[] } {
  const m = army.march;
  const yesterday = m.recentHalves.slice(-4);
  const fullRest = !m.movedToday && !yesterday.includes('battle') && !yesterday.includes('worked') && !army.status.inBattle;
  const logged: Army = { ...kept, march: { ...kept.march, recentDays: appendDay(m.recentDays, m.movedToday) } };
  const rested = recoverFromFatigue(logged, recovers(logged, fullRest, profile));
  const keep = (m.saveRequested && m.movedToday) || (profile.carryUnspent && m.shortOfPoints === true && marching);
  const saved = keep && !m.saveLost ? Math.max(0, m.allowanceToday - m.spentToday) : 0;
  const { shortOfPoints: _short, ...books } = rested.army.march;
  const march: MarchState = {
    ...books,
    spentToday: 0,
    spentPeriod: 0,
    savedPoints: saved,
    restFactor: restFactorFromDay(yesterday, profile),
    daysMarched: m.movedToday ? m.daysMarched + 1 : fullRest ? 0 : m.daysMarched,
    restDays: fullRest ? m.restDays + 1 : 0,
    movedToday: false,
    unformedToday: false,
    saveRequested: false,
    saveLost: false,
  };
  return { army: { ...rested.army, march }, facts: rested.facts };
}

/** Step 4: assembling or disassembling war machines is done at daybreak of its day. @see 004 Movement of War Machines */
function machinesReady(army: Army, day: number): { army: Army; facts: MovementFact[] } {
  const changing = army.warMachines?.changing;
  if (!changing || changing.readyDay > day) return { army, facts: [] };
  return {
    army: { ...army, warMachines: { state: changing.to } },
    facts: [{ type: 'machinesReady', audience: toArmy(army.id), data: { armyId: army.id, state: changing.to } }],
  };
}

/**
 * Step 1: a day of unformed movement loses a half-dice x 5 % of each regiment to stragglers; a
 * day without movement after it reforms the army at its rally point, where stragglers rejoin (a
 * half-dice x 5 % a day).
 */
function straggleOrRally(army: Army, map: MapModel, dice: Dice): { army: Army; facts: MovementFact[] } {
  if (army.march.unformedToday) {
    const out = loseStragglers(army, dice);
    return { army: out.army, facts: out.lost > 0 ? [{ type: 'stragglersLost', audience: toArmy(army.id), data: { armyId: army.id, percent: out.percent, figures: out.lost } }] : [] };
  }
  if (!rallies(army)) return { army, facts: [] };
  const facts: MovementFact[] = [];
  const hex = map.format(army.hex);
  if (army.formation === 'unformed') facts.push({ type: 'armyReformed', audience: PUBLIC, data: { armyId: army.id, hex } });
  let a = reformed(army);
  if (stragglerCount(a) > 0) {
    const out = recoverStragglers(a, dice);
    a = out.army;
    facts.push({ type: 'stragglersRejoined', audience: toArmy(a.id), data: { armyId: a.id, hex, percent: out.percent, figures: out.recovered, stillOut: stragglerCount(a) } });
  }
  return { army: a, facts };
}

/** Whether the army rallies at daybreak (step 1): a day without movement, unformed or with stragglers out. */
function rallies(army: Army): boolean {
  return !army.march.unformedToday && !army.march.movedToday && !army.march.operation && (army.formation === 'unformed' || stragglerCount(army) > 0);
}

/**
 * Step 1 without dice: an army that rallies at daybreak is formed again, its rally point where it
 * stands (the stragglers who rejoin are rolled by the tick). The /move preview keeps it so.
 */
export function reformed(army: Army): Army {
  if (!rallies(army)) return army;
  return { ...army, formation: 'formed', march: { ...army.march, rallyPoint: army.hex } };
}

/** Step 2: a full day of rest (no movement, no battle, no work at a crossing) ends fatigue, when the profile's rest is caught up. */
function recoverFromFatigue(army: Army, recovered: boolean): { army: Army; facts: MovementFact[] } {
  if (!recovered || !army.status.fatigued) return { army, facts: [] };
  const { fatigueReason: _f, ...march } = army.march;
  return { army: { ...army, status: { ...army.status, fatigued: false }, march }, facts: [{ type: 'fatigueRecovered', audience: toArmy(army.id), data: { armyId: army.id } }] };
}
