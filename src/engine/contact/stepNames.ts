/** How each step of a contact reads to a commander or the referee. */
export const STEP_TEXT: Readonly<Record<string, string>> = {
  step1: 'before the contact phase (proceed, delay, avoid or stay silent)',
  decision: 'after the contact phase (engage or evade)',
  battle: 'battle joined, waiting for the referee to record the result',
  closed: 'over',
};

export function describeStep(step: string): string {
  return STEP_TEXT[step] ?? step;
}
