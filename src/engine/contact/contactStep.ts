import type { EngineEvent } from '../events/events.js';
import type { TickStep } from '../tick/step.js';
import { resolveDecision, resolveStep1 } from './procedure.js';

/**
 * The tick step of the contact rules, run first among the steps that close a half period: every
 * contact open when the tick starts is one tick nearer its deadline (a campaign setting; by
 * default the next tick, so every open contact has reached it). Step 1 resolves with missing answers as silence, the decision with missing answers as
 * engage. Each contact moves one step per tick: step 1 may run the contact phase, whose engage
 * or evade choice then waits for the next tick; a battle waits for the referee. Contacts opened
 * later in the same tick (movement, stationary forces) wait for their commanders.
 * @see RULINGS 5 (missing answers by the decision deadline)
 */
export const contactStep: TickStep = ({ state, map, dice }) => {
  let s = state;
  const events: EngineEvent[] = [];
  const ids = Object.keys(state.contacts).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const deadline = Math.max(1, s.settings.decisionDeadlineTicks ?? 1);
  for (const id of ids) {
    const c = s.contacts[id];
    if (!c) continue;
    if ((c.step === 'step1' || c.step === 'decision') && deadline > 1) {
      // The campaign gives commanders more than one tick to answer: count this one and wait.
      const waited = c.data.wait?.step === c.step ? c.data.wait?.ticks ?? 0 : 0;
      if (waited + 1 < deadline) {
        s = { ...s, contacts: { ...s.contacts, [id]: { ...c, data: { ...c.data, wait: { step: c.step, ticks: waited + 1 } } } } };
        continue;
      }
    }
    if (c.step === 'step1') {
      const r = resolveStep1(s, map, id, dice);
      if (r.ok) {
        s = r.value.state;
        events.push(...r.value.events);
      }
    } else if (c.step === 'decision') {
      const r = resolveDecision(s, map, id, dice);
      if (r.ok) {
        s = r.value.state;
        events.push(...r.value.events);
      }
    }
  }
  return { state: s, events };
};
