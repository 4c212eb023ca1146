import { BrokenData } from '../../result.js';
import type { LegacyContactRecord } from './legacyState.js';
import type { ContactRecord, ContactStep } from '../../state/index.js';

const STEPS: readonly string[] = ['step1', 'decision', 'battle', 'closed'] satisfies readonly ContactStep[];

function isContactStep(step: string): step is ContactStep {
  return STEPS.includes(step);
}

/**
 * Upgrade step: contact records with an exact step and data. The step must be one the contact
 * rules know (any other is broken data); `data.joined`, written by the movement rules and read by
 * none, is dropped. The rest of the data already had the shape ContactData names.
 */
export function upgradeContacts(contacts: Readonly<Record<string, LegacyContactRecord | ContactRecord>>): Record<string, ContactRecord> {
  const out: Record<string, ContactRecord> = {};
  for (const [id, c] of Object.entries(contacts)) {
    if (!isContactStep(c.step)) throw new BrokenData(`contact ${id} is at an unknown step "${c.step}"`);
    const old: LegacyContactRecord['data'] = c.data;
    const { joined: _joined, ...data } = old;
    out[id] = { ...c, step: c.step, data };
  }
  return out;
}
