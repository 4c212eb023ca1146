import { PUBLIC, REFEREE, type EngineEvent } from '../../engine/events/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { commandersOf } from '../members.js';

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
  const acted = mine.filter((id) => after.armies[id] !== undefined && touched(id) && after.armies[id]?.seat?.acted !== true);
  if (acted.length === 0) return after;
  const armies = { ...after.armies };
  for (const id of acted) {
    const a = armies[id] as Army;
    armies[id] = { ...a, seat: { missed: a.seat?.missed ?? 0, acted: true } };
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
  const after = state.settings.absentAfterHalves;
  const armies = { ...state.armies };
  const events: EngineEvent[] = [];
  let changed = false;
  for (const army of Object.values(state.armies)) {
    const commanders = commandersOf(tx, army.id);
    if (army.status.destroyed || commanders.length === 0) continue;
    const present = army.seat?.acted === true || commanders.some((u) => tx.meta.ready.includes(u));
    const missed = present ? 0 : (army.seat?.missed ?? 0) + 1;
    const standing = !present && (army.seat?.standing === true || (after > 0 && missed >= after));
    const seat = { missed, ...(standing ? { standing: true } : {}) };
    if (JSON.stringify(seat) !== JSON.stringify({ missed: army.seat?.missed ?? 0, ...(army.seat?.standing ? { standing: true } : {}) }) || army.seat?.acted) {
      armies[army.id] = { ...army, seat };
      changed = true;
    }
    const who = commanders.map((u) => tx.members.find((m) => m.userId === u)?.displayName || u).join(' and ');
    if (standing && army.seat?.standing !== true) {
      const followsPlan = Object.hasOwn(state.plans, army.id);
      const follows = followsPlan ? 'it follows its plan (`/army plan show`)' : DEFAULT_TEXT[state.settings.defaultOrder];
      // One line in the chronicle; the referee's digest says what it follows and how to fill the seat.
      events.push({ type: 'armyStanding', audience: PUBLIC, text: `${who}'s army **${army.name}** is under standing orders.`, data: { armyId: army.id } });
      events.push({ type: 'armyStandingReferee', audience: REFEREE, text: `${who} gave no orders or answers for ${missed} half periods in a row (\`absent-after\`): **${army.name}** is under standing orders, ${follows}. Their next order takes it back; \`/campaign assign army:${army.id} user:\` gives the seat to a substitute.`, data: { armyId: army.id, missed } });
    } else if (!standing && army.seat?.standing === true) {
      events.push({ type: 'armyResumed', audience: REFEREE, text: `${who} is back: **${army.name}** takes its own orders again.`, data: { armyId: army.id } });
    }
  }
  return { state: changed ? { ...state, armies } : state, events };
}
