import type { ContactEvent, ContactFact } from './contactEvents.js';
import { compareIds, type TickStep } from '../state/index.js';
import { resolveStep1On } from './step1.js';
import { resolveDecisionOn } from './engageOrEvade.js';
import { inDraft, putContact, told } from './records.js';

/**
 * The tick step of the contact rules, run first among the steps that close a half period: every
 * contact open when the tick starts is one tick nearer its deadline (a campaign setting; by
 * default the next tick, so every open contact has reached it).
 * 1. A contact waiting for answers counts the tick while the deadline is further off.
 * 2. Step 1 resolves with missing answers as silence, the decision with missing answers as
 *    engage. Each contact moves one step per tick: step 1 may run the contact phase, whose engage
 *    or evade choice then waits for the next tick; a battle waits for the referee.
 * Contacts opened later in the same tick (movement, stationary forces) wait for their commanders.
 * The step resolves each contact at the step it is at, so nothing it does can be refused; a
 * contact it cannot read is broken data and throws. It works on drafts of the armies and contacts
 * (records.ts `inDraft`), so resolving a contact does not copy every army and contact.
 * @see RULINGS 5 (missing answers by the decision deadline)
 */
export const contactStep: TickStep<ContactEvent> = ({ state, map, dice }) => inDraft(state, (draft) => {
  let s = draft;
  const facts: ContactFact[] = [];
  const deadline = Math.max(1, s.settings.decisionDeadlineTicks ?? 1);
  for (const id of Object.keys(state.contacts).sort(compareIds)) {
    const c = s.contacts[id];
    if (!c || (c.step !== 'step1' && c.step !== 'decision')) continue;
    // 1. The campaign gives commanders more than one tick to answer: count this one and wait.
    const waited = c.data.wait?.step === c.step ? c.data.wait.ticks : 0;
    if (waited + 1 < deadline) {
      s = putContact(s, { ...c, data: { ...c.data, wait: { step: c.step, ticks: waited + 1 } } });
      continue;
    }
    // 2. The step resolves with the answers given.
    const out = c.step === 'step1' ? resolveStep1On(s, map, c, dice) : resolveDecisionOn(s, map, c, dice);
    s = out.state;
    facts.push(...out.facts);
  }
  return told({ state: s, facts });
});
