import type { GameTime } from '../clock/gameTime.js';
import { halfPeriodName } from '../clock/gameTime.js';
import type { Dice } from '../dice/dice.js';
import { event, PUBLIC, REFEREE, type EngineEvent } from '../events/events.js';
import { isHostile, troopFigures, type Army } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import { hexKey } from '../hex/hexId.js';
import { isAdjacent, neighbours } from '../hex/neighbours.js';
import type { Bank, MapModel } from '../map/mapModel.js';
import type { CampaignState } from '../state/campaign.js';
import type { WeatherEffects } from '../weather/types.js';
import { rankContenders, TIE_BREAK_WORDS } from './contest.js';
import { hexHolders, listNames, who } from './contacts.js';
import { planHalf, type HalfEntry, type HalfPlan } from './planHalf.js';
import type { MoveOrder } from './types.js';

/** Why an army stopped moving in this half period. */
export type HaltReason =
  | { readonly kind: 'contact'; readonly with: readonly string[] }
  | { readonly kind: 'occupied'; readonly hex: Hex; readonly by: string; readonly byMover: boolean }
  | { readonly kind: 'contested'; readonly hex: Hex; readonly winner: string };

/** What happened to one army with an active order in this half period. */
export interface MoverOutcome {
  readonly armyId: string;
  readonly order: MoveOrder;
  readonly plan: HalfPlan;
  /** Entries actually made, in order. */
  readonly made: readonly HalfEntry[];
  readonly hex: Hex;
  readonly bank: Bank | undefined;
  readonly spent: number;
  readonly halt?: HaltReason;
}

export interface HalfResult {
  readonly outcomes: ReadonlyMap<string, MoverOutcome>;
  readonly events: readonly EngineEvent[];
}

interface Mover {
  readonly army: Army;
  readonly order: MoveOrder;
  readonly plan: HalfPlan;
  next: number;
  pos: Hex;
  bank: Bank | undefined;
  spent: number;
  readonly entered: string[];
  halt?: HaltReason;
}

/**
 * Resolves the moves of the current half period simultaneously (RULINGS 3):
 * 1. every army with an active move order plans its entries for this half;
 * 2. hexes two or more forces enter are contested and ranked (fewer troops, more points left,
 *    more daily points, dice);
 * 3. entries are played in order of their moment; a force waits while its next hex holds a
 *    commander or a better-ranked contender still has to pass, and follows on if the hex frees
 *    up in this half; otherwise it halts in the hex before;
 * 4. a force that comes adjacent to a hostile commander it was not adjacent to stops, and so does
 *    a moving opponent it touched.
 * Multi-day crossings that start now are reported in the plan (no entries).
 * @see 000 Strategic Movement: Simultaneous Moves and Contested Hexes; RULINGS 3
 */
export function resolveHalf(state: CampaignState, map: MapModel, dice: Dice, weather: WeatherEffects): HalfResult {
  const clock: GameTime = state.clock;
  const events: EngineEvent[] = [];
  const positions = new Map<string, string>();
  for (const a of hexHolders(state)) positions.set(hexKey(a.hex), a.id);

  // 1. Plans.
  const movers = new Map<string, Mover>();
  const ids = Object.keys(state.orders).sort();
  for (const id of ids) {
    const order = state.orders[id];
    const army = state.armies[id];
    if (order?.kind !== 'move' || !army || !mayMove(army)) continue;
    const plan = planHalf(map, army, order, clock, weather, state.settings.flyingIgnoresTerrain);
    movers.set(id, { army, order, plan, next: 0, pos: army.hex, bank: army.bank, spent: 0, entered: [] });
  }

  /** Whether an army has entries to make in this half (others stand still). */
  const movesNow = (id: string): boolean => (movers.get(id)?.plan.entries.length ?? 0) > 0;

  // 2. Contested hexes.
  const wanting = new Map<string, { armyId: string; entry: HalfEntry }[]>();
  for (const m of movers.values()) {
    for (const e of m.plan.entries) {
      if (e.step.kind !== 'enter') continue;
      const k = hexKey(e.step.hex);
      const list = wanting.get(k) ?? [];
      if (!list.some((x) => x.armyId === m.army.id)) list.push({ armyId: m.army.id, entry: e });
      wanting.set(k, list);
    }
  }
  const ranking = new Map<string, readonly string[]>();
  for (const [k, list] of [...wanting.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (list.length < 2) continue;
    const holder = positions.get(k);
    if (holder !== undefined && !movesNow(holder)) continue;
    const hex = (list[0] as { entry: HalfEntry }).entry.step.hex;
    const name = map.format(hex);
    const result = rankContenders(
      list.map(({ armyId, entry }) => {
        const m = movers.get(armyId) as Mover;
        return { armyId, figures: troopFigures(m.army), remainingAfter: entry.remainingAfter, dailyPoints: m.plan.allowance };
      }),
      dice,
      name,
    );
    ranking.set(k, result.ranking);
    const winner = state.armies[result.ranking[0] as string] as Army;
    const names = listNames(result.ranking.map((id) => who(state.armies[id] as Army)));
    // Who won is public; why (fewer troops, more points left) would tell about strengths, so
    // only the referee reads the reason.
    events.push(event('hexContested', PUBLIC, `${names} marched for ${name} in the ${halfPeriodName(clock)}: ${who(winner)} took it.`, { hex: name }));
    events.push(event('hexContestDecided', REFEREE, `${name} went to ${who(winner)} (${TIE_BREAK_WORDS[result.decidedBy]}).`, { hex: name, ranking: result.ranking, decidedBy: result.decidedBy }));
    events.push(event('hexContested', REFEREE, `Contest for ${name}: ${list.map(({ armyId, entry }) => `${armyId} ${troopFigures((movers.get(armyId) as Mover).army)} figures, ${entry.remainingAfter} points left, ${(movers.get(armyId) as Mover).plan.allowance} daily`).join('; ')}${Object.keys(result.rolls).length > 0 ? `; dice ${JSON.stringify(result.rolls)}` : ''}.`, { hex: name, rolls: result.rolls }));
  }

  // 3. Play the entries in order of their moment.
  const hostile = (a: string, b: string): boolean => isHostile(state.sides, (state.armies[a] as Army).side, (state.armies[b] as Army).side);
  const pending = (): Mover[] =>
    [...movers.values()]
      .filter((m) => !m.halt && m.next < m.plan.entries.length)
      .sort((a, b) => (a.plan.entries[a.next] as HalfEntry).moment - (b.plan.entries[b.next] as HalfEntry).moment || (a.army.id < b.army.id ? -1 : 1));
  const passedOrOut = (w: Mover, k: string): boolean => {
    if (w.entered.includes(k)) return true;
    return w.halt !== undefined || !w.plan.entries.slice(w.next).some((e) => e.step.kind === 'enter' && hexKey(e.step.hex) === k);
  };
  for (;;) {
    let progressed = false;
    for (const m of pending()) {
      const e = m.plan.entries[m.next] as HalfEntry;
      if (e.step.kind === 'enter') {
        const k = hexKey(e.step.hex);
        const holder = positions.get(k);
        if (holder !== undefined && holder !== m.army.id) continue;
        const order = ranking.get(k);
        if (order) {
          const better = order.slice(0, Math.max(0, order.indexOf(m.army.id)));
          if (better.some((w) => !passedOrOut(movers.get(w) as Mover, k))) continue;
        }
        const prev = m.pos;
        positions.delete(hexKey(prev));
        positions.set(k, m.army.id);
        m.pos = e.step.hex;
        m.entered.push(k);
        // 4. Map contact with hostile commanders newly adjacent.
        const touched: string[] = [];
        for (const n of neighbours(m.pos)) {
          const other = positions.get(hexKey(n));
          if (other === undefined || other === m.army.id || !hostile(m.army.id, other)) continue;
          // A fleet holds its hex but makes no map contact (detectContacts skips the embarked).
          if ((state.armies[other] as Army).status.embarked) continue;
          if (isAdjacent(prev, n)) continue;
          touched.push(other);
        }
        if (touched.length > 0) {
          m.halt = { kind: 'contact', with: touched };
          for (const t of touched) {
            const tm = movers.get(t);
            if (tm && !tm.halt && tm.next < tm.plan.entries.length) tm.halt = { kind: 'contact', with: [m.army.id] };
          }
        }
      }
      m.bank = e.step.bank;
      m.spent += e.step.points;
      m.next++;
      progressed = true;
      break;
    }
    if (!progressed) break;
  }

  // Forces still waiting halt in the hex before.
  for (const m of pending()) {
    const e = m.plan.entries[m.next] as HalfEntry;
    const k = hexKey(e.step.hex);
    const holder = positions.get(k);
    const order = ranking.get(k);
    if (holder !== undefined && holder !== m.army.id) m.halt = { kind: 'occupied', hex: e.step.hex, by: holder, byMover: movesNow(holder) };
    else m.halt = { kind: 'contested', hex: e.step.hex, winner: order?.[0] ?? '' };
  }

  const outcomes = new Map<string, MoverOutcome>();
  for (const m of movers.values()) {
    outcomes.set(m.army.id, {
      armyId: m.army.id,
      order: m.order,
      plan: m.plan,
      made: m.plan.entries.slice(0, m.next),
      hex: m.pos,
      bank: m.bank,
      spent: m.spent,
      ...(m.halt ? { halt: m.halt } : {}),
    });
  }
  return { outcomes, events };
}

/** Armies that can carry out a move order now. */
export function mayMove(a: Army): boolean {
  return !a.status.destroyed && !a.status.embarked && !a.status.inBattle && !a.status.inContact && !a.march.operation;
}
