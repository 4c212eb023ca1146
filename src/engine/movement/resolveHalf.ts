import { halfPeriodName, type GameTime } from '../clock/index.js';
import type { Dice } from '../dice/index.js';
import { PUBLIC, REFEREE } from '../events/index.js';
import { isHostile, troopFigures, type Army } from '../forces/index.js';
import { type Hex, hexKey, isAdjacent, neighbours } from '../hex/index.js';
import type { Bank, MapModel } from '../map/index.js';
import { movementProfile, type MovementProfile } from '../profiles/index.js';
import { BrokenData } from '../result.js';
import { type CampaignState, getArmy, type MoveOrder, type WeatherEffects } from '../state/index.js';
import { rankContenders } from './contest.js';
import { halvesTaken, hexHolders } from './contacts.js';
import type { MovementFact } from './movementEvents.js';
import { planHalf, type HalfEntry, type HalfPlan } from './planHalf.js';
import { fatigueOnMoving } from './restAndFatigue.js';

/** Why an army stopped moving in this half period. */
export type HaltReason =
  | { readonly kind: 'contact'; readonly with: readonly string[] }
  | { readonly kind: 'occupied'; readonly hex: Hex; readonly by: string; readonly byMover: boolean }
  | { readonly kind: 'contested'; readonly hex: Hex; readonly winner: string }
  /** Passage of lines: it could not pass through the ally's hex and out of it in this half period. */
  | { readonly kind: 'passage'; readonly hex: Hex; readonly by: string };

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
  /** Passage of lines: the allies whose hexes it passed through when an enemy came into contact. */
  readonly passageContact?: readonly string[];
}

export interface HalfResult {
  readonly outcomes: ReadonlyMap<string, MoverOutcome>;
  readonly facts: readonly MovementFact[];
}

/** An army with an active order while its half period is played. */
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
  passageContact?: string[];
}

/** What the half period is played on: the movers, who holds each hex, and the ranking of contested hexes. */
interface Board {
  readonly state: CampaignState;
  readonly movers: ReadonlyMap<string, Mover>;
  /** Hex key -> army id of the commander standing there. */
  readonly positions: Map<string, string>;
  /** Hex key -> contenders for the hex, winner first. */
  readonly ranking: ReadonlyMap<string, readonly string[]>;
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
 *    a moving opponent it touched;
 * 5. with passage of lines (a setting), a force may pass through, never stop on, a hex held by an
 *    ally standing still: it goes in and out in the same half period, or waits before it.
 * Multi-day crossings that start now are reported in the plan (no entries).
 * @see 000 Strategic Movement: Simultaneous Moves and Contested Hexes; RULINGS 3
 */
export function resolveHalf(state: CampaignState, map: MapModel, dice: Dice, weather: WeatherEffects): HalfResult {
  const positions = new Map<string, string>();
  for (const a of hexHolders(state)) positions.set(hexKey(a.hex), a.id);
  const movers = planMovers(state, map, weather);
  const contests = rankContestedHexes(state, map, movers, positions, dice);
  const board: Board = { state, movers, positions, ranking: contests.ranking };
  playEntries(board);
  haltTheWaiting(board);
  const outcomes = new Map<string, MoverOutcome>();
  for (const m of movers.values()) outcomes.set(m.army.id, outcomeOf(m));
  return { outcomes, facts: contests.facts };
}

/** Armies that can carry out a move order now: not in a contact, not at work on their war machines, and their half period not taken by a delay or a battle. */
function mayMove(a: Army, taken: ReadonlySet<string>): boolean {
  return !a.status.destroyed && !a.status.embarked && !a.status.inBattle && !a.status.inContact && !a.march.operation && !a.warMachines?.changing && !taken.has(a.id);
}

/** Step 1: every army with an active move order plans its entries for this half. */
function planMovers(state: CampaignState, map: MapModel, weather: WeatherEffects): Map<string, Mover> {
  const movers = new Map<string, Mover>();
  const taken = halvesTaken(state);
  const profile = movementProfile(state.settings);
  for (const id of Object.keys(state.orders).sort()) {
    const order = state.orders[id];
    const army = state.armies[id];
    if (order?.kind !== 'move' || !army || !mayMove(army, taken)) continue;
    const plan = planHalf(map, moverAsPlanned(army, state.clock, profile), order, state.clock, weather, profile);
    movers.set(id, { army, order, plan, next: 0, pos: army.hex, bank: army.bank, spent: 0, entered: [] });
  }
  return movers;
}

/**
 * The army as its half period is planned: one that moving now fatigues (a forced march yesterday,
 * the seventh day, a march window used up) is fatigued from its first step, so the whole day,
 * first half included, is paid from the fatigued allowance, as `/army status` shows it.
 * @see 000 Overland Travel: Fatigued; docs/rulings.md Movement: Points and time (fatigue bites at once)
 */
export function moverAsPlanned(army: Army, clock: GameTime, profile: MovementProfile): Army {
  if (army.status.fatigued || !fatigueOnMoving(army, clock, profile)) return army;
  return { ...army, status: { ...army.status, fatigued: true } };
}

/** Whether an army has entries to make in this half (others stand still). */
function movesNow(movers: ReadonlyMap<string, Mover>, id: string): boolean {
  return (movers.get(id)?.plan.entries.length ?? 0) > 0;
}

function moverOf(movers: ReadonlyMap<string, Mover>, id: string): Mover {
  const m = movers.get(id);
  if (!m) throw new BrokenData(`no mover ${id} in this half period`);
  return m;
}

/** The entry the mover makes next (it has one). */
function nextEntry(m: Mover): HalfEntry {
  const e = m.plan.entries[m.next];
  if (!e) throw new BrokenData(`mover ${m.army.id} has no entry ${m.next}`);
  return e;
}

/**
 * Step 2: hexes that two or more movers enter in this half (and that nobody holds who stays put)
 * are ranked. Who won is public; why (fewer troops, more points left) would tell about strengths,
 * so only the referee reads the reason.
 */
function rankContestedHexes(state: CampaignState, map: MapModel, movers: ReadonlyMap<string, Mover>, positions: ReadonlyMap<string, string>, dice: Dice): { ranking: Map<string, readonly string[]>; facts: MovementFact[] } {
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
  const facts: MovementFact[] = [];
  for (const [k, list] of [...wanting.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const first = list[0];
    if (!first || list.length < 2) continue;
    const holder = positions.get(k);
    if (holder !== undefined && !movesNow(movers, holder)) continue;
    const hex = map.format(first.entry.step.hex);
    const contenders = list.map(({ armyId, entry }) => {
      const m = moverOf(movers, armyId);
      return { armyId, figures: troopFigures(m.army), remainingAfter: entry.remainingAfter, dailyPoints: m.plan.allowance };
    });
    const result = rankContenders(contenders, dice, hex);
    ranking.set(k, result.ranking);
    facts.push(
      { type: 'hexContested', audience: PUBLIC, data: { hex, half: halfPeriodName(state.clock), ranking: result.ranking } },
      { type: 'hexContestDecided', audience: REFEREE, data: { hex, ranking: result.ranking, decidedBy: result.decidedBy } },
      { type: 'hexContested', audience: REFEREE, data: { hex, contenders: contenders.map((c) => ({ armyId: c.armyId, figures: c.figures, pointsLeft: c.remainingAfter, dailyPoints: c.dailyPoints })), rolls: result.rolls } },
    );
  }
  return { ranking, facts };
}

/**
 * Step 3: the entries, played in order of their moment until nobody can go on: each time, the
 * first pending mover (in the order of `pending`) that may enter makes its next entry.
 * The queue is kept in that order as it goes: only the mover that entered changes its key (its
 * next entry), so it alone is put back in its place; a mover halted meanwhile (by contact) is
 * dropped when the scan meets it. No re-sort of every mover before each entry.
 */
function playEntries(board: Board): void {
  const queue = pending(board.movers);
  for (;;) {
    let i = 0;
    while (i < queue.length) {
      const m = queue[i] as Mover;
      if (!isPending(m)) queue.splice(i, 1);
      else if (mayEnter(board, m)) break;
      else i++;
    }
    const next = queue[i];
    if (!next) return;
    queue.splice(i, 1);
    enterNext(board, next);
    if (isPending(next)) queue.splice(insertionPoint(queue, next), 0, next);
  }
}

/** Whether a mover still has entries to make (it has not halted). */
function isPending(m: Mover): boolean {
  return !m.halt && m.next < m.plan.entries.length;
}

/** The order of pending movers: the moment of their next entry, then army id. */
function byNextMoment(a: Mover, b: Mover): number {
  return nextEntry(a).moment - nextEntry(b).moment || (a.army.id < b.army.id ? -1 : 1);
}

/** Where a mover goes in a queue sorted by `byNextMoment` (binary search). */
function insertionPoint(queue: readonly Mover[], m: Mover): number {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byNextMoment(queue[mid] as Mover, m) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Movers with entries still to make, in order of the moment of their next entry. */
function pending(movers: ReadonlyMap<string, Mover>): Mover[] {
  return [...movers.values()].filter(isPending).sort(byNextMoment);
}

/** Whether a mover has entered the hex, or will not (halted, or its path no longer leads there). */
function passedOrOut(w: Mover, k: string): boolean {
  if (w.entered.includes(k)) return true;
  return w.halt !== undefined || !w.plan.entries.slice(w.next).some((e) => e.step.kind === 'enter' && hexKey(e.step.hex) === k);
}

/** Whether no better-ranked contender for the hex still has to pass. */
function rankAllows(board: Board, m: Mover, k: string): boolean {
  const order = board.ranking.get(k);
  if (!order) return true;
  const better = order.slice(0, Math.max(0, order.indexOf(m.army.id)));
  return better.every((w) => passedOrOut(moverOf(board.movers, w), k));
}

/**
 * A mover waits while its next hex holds a commander or a better-ranked contender still has to
 * pass; a hex held by an ally it may pass through, only if it can pass out of it now.
 */
function mayEnter(board: Board, m: Mover): boolean {
  const e = nextEntry(m);
  if (e.step.kind !== 'enter') return true;
  const k = hexKey(e.step.hex);
  const holder = board.positions.get(k);
  if (holder !== undefined && holder !== m.army.id) return passable(board, m, holder) && passageEnd(board, m) !== undefined;
  return rankAllows(board, m, k);
}

/**
 * Passage of lines (advanced, a campaign setting): a commander a mover may pass through, never
 * stop on: an ally standing still this half period, not aboard ship.
 * @see 000 Advanced: Passage of Lines
 */
function passable(board: Board, m: Mover, holder: string): boolean {
  if (!board.state.settings.passageOfLines || movesNow(board.movers, holder)) return false;
  const h = getArmy(board.state, holder);
  const last = m.order.path.at(-1); // the order's last hex is a stop, not a passage: the ordinary rule holds there
  return !h.status.embarked && !isHostile(board.state.sides, m.army.side, h.side) && !(last && hexKey(last) === hexKey(h.hex));
}

/**
 * The index of the entry that takes a passing mover out of the allied hexes it passes through
 * into a hex it may enter now; undefined when this half period's entries end before that, or the
 * way out is held or contested.
 */
function passageEnd(board: Board, m: Mover): number | undefined {
  for (let i = m.next; i < m.plan.entries.length; i++) {
    const step = m.plan.entries[i]?.step;
    if (step?.kind !== 'enter') continue;
    const k = hexKey(step.hex);
    const holder = board.positions.get(k);
    if (holder === undefined) return rankAllows(board, m, k) ? i : undefined;
    if (!passable(board, m, holder)) return undefined;
  }
  return undefined;
}

/** The mover makes its next entry (a hex, or a crossing in place) and pays for it; through an ally's hex, out of it as well. */
function enterNext(board: Board, m: Mover): void {
  const e = nextEntry(m);
  if (e.step.kind === 'enter') {
    const k = hexKey(e.step.hex);
    const holder = board.positions.get(k);
    if (holder !== undefined && holder !== m.army.id) {
      passThrough(board, m);
      return;
    }
    const prev = m.pos;
    board.positions.delete(hexKey(prev));
    board.positions.set(k, m.army.id);
    m.pos = e.step.hex;
    m.entered.push(k);
    haltOnContact(board, m, touchedAt(board, m, prev));
  }
  m.bank = e.step.bank;
  m.spent += e.step.points;
  m.next++;
}

/**
 * Passage of lines: the mover goes through the allied hexes and out of them at once (the allies
 * keep their hexes). An enemy it comes into contact with on the way leaves it and the allies it
 * was passing unformed, and it stops in the hex it comes out into.
 * @see 000 Advanced: Passage of Lines ("both forces are considered unformed")
 */
function passThrough(board: Board, m: Mover): void {
  const end = passageEnd(board, m);
  if (end === undefined) throw new BrokenData(`mover ${m.army.id} passes through without a way out`);
  board.positions.delete(hexKey(m.pos));
  const touched = new Set<string>();
  const allies: string[] = [];
  let prev = m.pos;
  for (; m.next <= end; m.next++) {
    const e = nextEntry(m);
    if (e.step.kind === 'enter') {
      const k = hexKey(e.step.hex);
      const ally = board.positions.get(k);
      prev = m.pos;
      m.pos = e.step.hex;
      m.entered.push(k);
      if (ally !== undefined) {
        const found = touchedAt(board, m, prev);
        if (found.length > 0) allies.push(ally);
        for (const t of found) touched.add(t);
      }
    }
    m.bank = e.step.bank;
    m.spent += e.step.points;
  }
  board.positions.set(hexKey(m.pos), m.army.id);
  if (allies.length > 0) m.passageContact = allies;
  haltOnContact(board, m, [...new Set([...touched, ...touchedAt(board, m, prev)])]);
}

/** Step 4: hostile commanders the mover, now in its hex, is newly adjacent to (it was not next to them in `prev`). */
function touchedAt(board: Board, m: Mover, prev: Hex): string[] {
  const { state, positions } = board;
  const touched: string[] = [];
  for (const n of neighbours(m.pos)) {
    const other = positions.get(hexKey(n));
    if (other === undefined || other === m.army.id || !isHostile(state.sides, m.army.side, getArmy(state, other).side)) continue;
    // A fleet holds its hex but makes no map contact (detectContacts skips the embarked).
    if (getArmy(state, other).status.embarked) continue;
    if (isAdjacent(prev, n)) continue;
    touched.push(other);
  }
  return touched;
}

/** Step 4: map contact with hostile commanders newly adjacent halts the mover, and any opponent still moving it touched. */
function haltOnContact(board: Board, m: Mover, touched: readonly string[]): void {
  if (touched.length === 0) return;
  m.halt = { kind: 'contact', with: touched };
  for (const t of touched) {
    const tm = board.movers.get(t);
    if (tm && !tm.halt && tm.next < tm.plan.entries.length) tm.halt = { kind: 'contact', with: [m.army.id] };
  }
}

/** Forces still waiting halt in the hex before: it is held, they lost its contest, or they could not pass through an ally's hex and out of it. */
function haltTheWaiting(board: Board): void {
  for (const m of pending(board.movers)) {
    const e = nextEntry(m);
    const k = hexKey(e.step.hex);
    const holder = board.positions.get(k);
    if (holder !== undefined && holder !== m.army.id && passable(board, m, holder)) m.halt = { kind: 'passage', hex: e.step.hex, by: holder };
    else if (holder !== undefined && holder !== m.army.id) m.halt = { kind: 'occupied', hex: e.step.hex, by: holder, byMover: movesNow(board.movers, holder) };
    else m.halt = { kind: 'contested', hex: e.step.hex, winner: board.ranking.get(k)?.[0] ?? '' };
  }
}

function outcomeOf(m: Mover): MoverOutcome {
  return {
    armyId: m.army.id,
    order: m.order,
    plan: m.plan,
    made: m.plan.entries.slice(0, m.next),
    hex: m.pos,
    bank: m.bank,
    spent: m.spent,
    ...(m.halt ? { halt: m.halt } : {}),
    ...(m.passageContact ? { passageContact: m.passageContact } : {}),
  };
}
