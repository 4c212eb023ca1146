import { type ContactEvent, contactStep, resolveDecision, resolveStep1 } from '../contact/index.js';
import { timeIndex } from '../clock/index.js';
import { classifyRoll, enteredByArmy, holdForDice, neededWhateverTheyShow, releaseHold, SeededDice, type NeededRoll, type WhoRolls } from '../dice/index.js';
import type { MapModel } from '../map/index.js';
import type { CampaignState, ContactRecord, TickStep } from '../state/index.js';

/** Who enters each manual roll of this campaign. */
export function whoRollsIn(state: CampaignState): WhoRolls {
  const armies = Object.values(state.armies);
  return (purpose) => enteredByArmy(classifyRoll(purpose, armies));
}

/**
 * The manual dice a contact's resolution needs next that nobody has entered, whatever those dice
 * show (a roll-off after a tie of dice not entered yet is asked once the dice are in and do tie).
 * Empty when no roll of it is manual.
 */
export function diceNeededToResolve(state: CampaignState, map: MapModel, contact: ContactRecord, dice: SeededDice): readonly NeededRoll[] {
  return neededWhateverTheyShow(dice, (probe) => (contact.step === 'step1' ? resolveStep1(state, map, contact.id, probe) : resolveDecision(state, map, contact.id, probe)).ok);
}

/** Whether the contact step would resolve this contact in this tick (its answers' deadline has come). */
function dueNow(state: CampaignState, c: ContactRecord): boolean {
  if (c.step !== 'step1' && c.step !== 'decision') return false;
  const waited = c.data.wait?.step === c.step ? c.data.wait.ticks : 0;
  return waited + 1 >= Math.max(1, state.settings.decisionDeadlineTicks);
}

/**
 * The contact step, with manual dice (RULINGS 7). The rules never wait, so a contact that needs a
 * person's die waits at its step, outside the rules, until the die is in:
 * 1. a contact already waiting for its dice resolves at this tick (its dice deadline): with the
 *    dice entered, the seeded die for the rest;
 * 2. a contact the contact step would resolve now (its answers' deadline) whose resolution needs
 *    manual dice nobody has entered waits instead: its answers are final (missing ones take their
 *    defaults then), the dice are asked for, and it resolves when they are in or at the next tick;
 * 3. the contact step runs on every other contact, as without manual dice.
 * With dice that cannot be probed (scripted test dice) or no manual rolls, this is the contact step.
 * @see docs/rulings.md (Manual dice)
 */
export const manualDiceContactStep: TickStep<ContactEvent> = (input) => {
  const { state, map, dice } = input;
  if (state.settings.manualDice === 'none' || !(dice instanceof SeededDice)) return contactStep(input);
  const now = timeIndex(state.clock);
  let manual = state.manualDice;
  // 1. Contacts whose dice deadline is this tick stop waiting (and resolve below).
  const released = new Set<string>();
  for (const [id, hold] of Object.entries(manual.holds)) {
    if (hold.until > now && state.contacts[id]) continue;
    manual = releaseHold(manual, id);
    released.add(id);
  }
  // 2. Contacts due now that need dice nobody has entered start waiting.
  const waiting: Record<string, ContactRecord> = {};
  for (const c of Object.values(state.contacts)) {
    if (c.id in manual.holds) {
      waiting[c.id] = c;
      continue;
    }
    if (released.has(c.id) || !dueNow(state, c)) continue;
    const needed = diceNeededToResolve(state, map, c, dice);
    if (needed.length === 0) continue;
    manual = holdForDice(manual, c.id, { step: c.step as 'step1' | 'decision', until: now + 1 }, needed, whoRollsIn(state), state.clock);
    waiting[c.id] = c;
  }
  // 3. The contact step on the others; the waiting contacts stay as they are.
  const others = Object.fromEntries(Object.entries(state.contacts).filter(([id]) => !(id in waiting)));
  const out = contactStep({ ...input, state: { ...state, contacts: others, manualDice: manual } });
  return { state: { ...out.state, contacts: { ...out.state.contacts, ...waiting } }, events: out.events };
};
