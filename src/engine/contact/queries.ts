import { fromIndex, timeIndex, type GameTime } from '../clock/index.js';
import { isHostile, type Army } from '../forces/index.js';
import { isAdjacent } from '../hex/index.js';
import { type CampaignState, contactHistory, type ContactRecord, isOpen } from '../state/index.js';

export { isOpen };

export function hostile(state: CampaignState, a: Army, b: Army): boolean {
  return isHostile(state.sides, a.side, b.side);
}

export function liveArmies(state: CampaignState, ids: readonly string[]): Army[] {
  return ids.map((id) => state.armies[id]).filter((a): a is Army => a !== undefined && !a.status.destroyed);
}

/** The armies of the contact hostile to `armyId`. */
export function opponentsIn(state: CampaignState, ids: readonly string[], armyId: string): Army[] {
  const self = state.armies[armyId];
  if (!self) return [];
  return liveArmies(state, ids).filter((o) => o.id !== armyId && hostile(state, self, o));
}

/** True when at least two of the armies are hostile to each other. */
export function hasHostilePair(state: CampaignState, ids: readonly string[]): boolean {
  const live = liveArmies(state, ids);
  return live.some((a) => live.some((b) => hostile(state, a, b)));
}

/** Every armies' ids taking part in a record, including those that left it by disengaging. */
export function everyoneIn(record: ContactRecord): string[] {
  return [...record.armyIds, ...(record.data.departed ?? [])];
}

/**
 * True while two armies must not be put in contact again: a fight on the morrow or a
 * disengagement between them keeps them apart until the next half period.
 * The movement rules call this before opening a contact. @see 001 Map Contact: Fight on the Morrow
 */
export function isQuietPair(state: CampaignState, a: string, b: string, at: GameTime = state.clock): boolean {
  const now = timeIndex(at);
  return contactHistory(state).some((c) => {
    const q = c.data.quietUntil;
    return q !== undefined && q > now && c.everyone.includes(a) && c.everyone.includes(b);
  });
}

/** The open contact an army takes part in, if any. */
export function openContactOf(state: CampaignState, armyId: string): ContactRecord | undefined {
  return Object.values(state.contacts).find((c) => isOpen(c) && c.armyIds.includes(armyId));
}

/** True when the army's half period was used up by a contact (a delay or a battle). */
export function halfPeriodSpent(state: CampaignState, armyId: string, at: GameTime = state.clock): boolean {
  const now = timeIndex(at);
  return contactHistory(state).some((c) => c.data.halfSpent?.[armyId] === now);
}

/** Armies that used the maneuver action in the given half period. */
export function maneuveringAt(state: CampaignState, at: GameTime = state.clock): Set<string> {
  const now = timeIndex(at);
  const out = new Set<string>();
  for (const c of contactHistory(state)) {
    for (const [id, t] of Object.entries(c.data.maneuver ?? {})) if (t === now) out.add(id);
  }
  return out;
}

/** Armies that fought a battle on the given day (their cavalry is not fresh). */
export function meleeOnDay(state: CampaignState, day: number): Set<string> {
  const out = new Set<string>();
  for (const c of contactHistory(state)) {
    const d = c.data;
    if (c.step !== 'battle' && d.outcome !== 'battle') continue;
    // The battle's day is that of the half period it took (a contact made at night may be fought next morning).
    for (const id of d.combatants ?? c.everyone) {
      const at = d.halfSpent?.[id];
      if ((at !== undefined ? fromIndex(at).day : c.openedAt.day) === day) out.add(id);
    }
  }
  return out;
}

/** Hostile armies adjacent to an army. */
export function adjacentEnemies(state: CampaignState, armyId: string): Army[] {
  const self = state.armies[armyId];
  if (!self) return [];
  return Object.values(state.armies).filter((o) => !o.status.destroyed && o.id !== self.id && hostile(state, self, o) && isAdjacent(self.hex, o.hex));
}

/** Commanders of an open contact who have not answered the current step yet. */
export function awaitingAnswers(record: ContactRecord): string[] {
  const d = record.data;
  if (record.step === 'step1') return record.armyIds.filter((id) => d.step1?.[id] === undefined);
  if (record.step === 'decision') return record.armyIds.filter((id) => d.decisions?.[id] === undefined);
  return [];
}

/**
 * True once no rule can need a closed contact any more, so it may leave the live state (its
 * record stays in the contacts table for /intel, the chronicle and export). The rules read a
 * closed contact only while its "fight on the morrow" quiet lasts (until the half period after
 * it closed) and, for the reserve's exploit and the support switches, in the half period it
 * opened or the next. @see 001 Map Contact: Fight on the Morrow; 001 Reserve: Exploit
 */
export function isForgettable(record: ContactRecord, now: number): boolean {
  if (isOpen(record)) return false;
  const quietUntil = record.data.quietUntil ?? -Infinity;
  return quietUntil < now && timeIndex(record.openedAt) < now - 1;
}
