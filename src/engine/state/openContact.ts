/** The steps of a contact before it closes. @see RULINGS 5 Contact and battle */
const OPEN_STEPS: readonly string[] = ['step1', 'decision', 'battle'];

/**
 * Whether a stored contact is still open (at step 1, a decision or a battle): a fact of the
 * record itself, kept here so that the modules below the contact rules (knowledge) read it.
 */
export function isOpen(record: { readonly step: string }): boolean {
  return OPEN_STEPS.includes(record.step);
}
