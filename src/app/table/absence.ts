import { PUBLIC, REFEREE, type EngineEvent } from '../../engine/events/index.js';
import type { Army, ArmySeat } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { commandersOf, shownName } from '../members.js';

const DEFAULT_TEXT = { rest: 'it rests where it stands', hold: 'it holds its position' } as const;

/**
 * A commander acted (a command of theirs changed their army's standing order or one of its
 * contacts): the army's seat is marked for this half period, and an army under standing orders
 * takes its own orders again. The session applies it to every change.
 */
export function markPresence(tx: Pick<CampaignTx, 'actor' | 'members'>, before: CampaignState, after: CampaignState): CampaignState {
  const userId = tx.actor?.userId;
  if (userId === undefined || (before.orders === after.orders && before.contacts === after.contacts)) return after;
  const mine = tx.members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId);
  const touched = (id: string): boolean => before.orders[id] !== after.orders[id]
    || Object.values(after.contacts).some((c) => before.contacts[c.id] !== c && JSON.stringify(c).includes(`"${id}"`));
  const acted = mine.filter((id) => after.armies[id] !== undefined && touched(id) && (after.armies[id]?.seat?.acted !== true || after.armies[id]?.seat?.awayUntil !== undefined));
  if (acted.length === 0) return after;
  const armies = { ...after.armies };
  for (const id of acted) {
    const a = armies[id] as Army;
    // An order ends an announced absence (`/away`) at once; the rest of the seat (standing orders,
    // a substitute) is kept for the tick to settle.
    const { awayUntil: _away, ...seat } = a.seat ?? { missed: 0 };
    armies[id] = { ...a, seat: { ...seat, missed: a.seat?.missed ?? 0, acted: true } };
  }
  return { ...after, armies };
}

/**
 * At each tick, before the half period is resolved: every army with a commander counts the half
 * periods in a row in which its commander neither gave orders nor answered (nor said `/ready`).
 * With `absent-after` set, reaching it puts the army under standing orders (its plan if it has
 * one, else the missed-orders default), said once in the channel and to the referee.
 */
export function countAbsence(tx: CampaignTx, state: CampaignState): { state: CampaignState; events: EngineEvent[] } {
  const armies = { ...state.armies };
  const events: EngineEvent[] = [];
  let changed = false;
  for (const army of Object.values(state.armies)) {
    const commanders = commandersOf(tx, army.id);
    if (army.status.destroyed || commanders.length === 0) continue;
    const before: ArmySeat = army.seat ?? { missed: 0 };
    const next = nextSeat(tx, before, commanders, state.settings.absentAfterHalves);
    const who = commanders.map((u) => shownName(tx, u)).join(' and ');
    if (next.awayEnded) {
      events.push({ type: 'awayEnded', audience: REFEREE, text: `${who}'s time away ended: **${army.name}** counts their orders and absences again.`, data: { armyId: army.id } });
    }
    if (!seatUnchanged(before, next.seat)) {
      armies[army.id] = { ...army, seat: next.seat };
      changed = true;
    }
    events.push(...standingEvents(state, army, who, next));
  }
  return { state: changed ? { ...state, armies } : state, events };
}

/** An army's seat after this half period's count, and what changed about its standing orders. */
interface NextSeat {
  readonly seat: ArmySeat;
  /** Away (`/away`) and its time not yet come: standing orders without counting a miss. */
  readonly away: boolean;
  /** An announced absence whose time has come (the referee is told). */
  readonly awayEnded: boolean;
  readonly missed: number;
  readonly wasStanding: boolean;
  readonly standing: boolean;
}

/** Step 1: the seat counted: present (acted, ready or away) resets the misses, `absent-after` misses put it under standing orders. */
function nextSeat(tx: CampaignTx, before: ArmySeat, commanders: readonly string[], absentAfter: number): NextSeat {
  const { acted: _acted, standing: _standing, awayUntil, ...rest } = before;
  // An announced absence: standing orders without counting a miss, until its time has come.
  const away = awayUntil !== undefined && Date.parse(awayUntil) > tx.now.getTime() && before.acted !== true;
  const awayEnded = awayUntil !== undefined && !away && before.acted !== true;
  const present = away || before.acted === true || commanders.some((u) => tx.meta.ready.includes(u));
  const missed = present ? 0 : before.missed + 1;
  // Standing orders that came with the time away end with it.
  const wasStanding = before.standing === true && awayUntil === undefined;
  const standing = away || (!present && (wasStanding || (absentAfter > 0 && missed >= absentAfter)));
  const seat: ArmySeat = { ...rest, missed, ...(standing ? { standing: true } : {}), ...(away ? { awayUntil } : {}) };
  return { seat, away, awayEnded, missed, wasStanding, standing };
}

/** Step 2: whether the counted seat is the stored one (an acted mark is always cleared). */
function seatUnchanged(before: ArmySeat, seat: ArmySeat): boolean {
  const { acted: _acted, standing: _standing, awayUntil, ...rest } = before;
  return before.acted !== true && JSON.stringify(seat) === JSON.stringify({ ...rest, missed: before.missed, ...(before.standing ? { standing: true } : {}), ...(awayUntil !== undefined ? { awayUntil } : {}) });
}

/** Step 3: standing orders taken up (said in the chronicle and to the referee) or given back (to the referee); none while away. */
function standingEvents(state: CampaignState, army: Army, who: string, next: NextSeat): EngineEvent[] {
  if (next.away) return [];
  if (next.standing && !next.wasStanding) {
    const follows = Object.hasOwn(state.plans, army.id) ? 'it follows its plan (`/army plan show`)' : DEFAULT_TEXT[state.settings.defaultOrder];
    // One line in the chronicle; the referee's digest says what it follows and how to fill the seat.
    return [
      { type: 'armyStanding', audience: PUBLIC, text: `${who}'s army **${army.name}** is under standing orders.`, data: { armyId: army.id } },
      { type: 'armyStandingReferee', audience: REFEREE, text: `${who} gave no orders or answers for ${next.missed} half periods in a row (\`absent-after\`): **${army.name}** is under standing orders, ${follows}. Their next order takes it back; \`/seat offer army:${army.id}\` offers the seat to a substitute (or names one with \`user:\`).`, data: { armyId: army.id, missed: next.missed } },
    ];
  }
  if (!next.standing && next.wasStanding) {
    return [{ type: 'armyResumed', audience: REFEREE, text: `${who} gives orders: **${army.name}** takes its own orders again.`, data: { armyId: army.id } }];
  }
  return [];
}
