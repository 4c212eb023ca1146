import type { ContactRecord, ContactStep } from '../contact/index.js';

const OPEN_STEPS: readonly ContactStep[] = ['step1', 'decision', 'battle'];

/**
 * Whether a stored contact is still open (at step 1, a decision or a battle): a fact of the
 * record itself, kept here so that the modules below the contact rules (knowledge) read it.
 */
export function isOpen(record: ContactRecord): boolean {
  return (OPEN_STEPS as readonly string[]).includes(record.step);
}
