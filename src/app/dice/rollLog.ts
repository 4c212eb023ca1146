import type { LoggedRoll } from '../../engine/dice/index.js';
import { REFEREE, type EngineEvent } from '../../engine/events/index.js';

/** What a logged roll says of where its value came from. */
function sourceNote(r: LoggedRoll, nameOf: (userId: string) => string): string {
  if (r.source === 'manual') return ` (manual, entered by ${r.enteredBy ? nameOf(r.enteredBy) : 'someone'})`;
  const late = r.notEntered ? ', a manual roll nobody entered: ' : '';
  if (r.source === 'scripted') return ` (${late ? `${late.slice(2)}` : ''}scripted)`;
  return late ? ` (${late.slice(2)}seeded die)` : '';
}

/**
 * The log line of one die (referee audience): its sides, purpose and value, where the value came
 * from (seeded, scripted, entered by a person), its dice period and draw. `/dice verify` reads
 * these back.
 */
export function rollEvent(r: LoggedRoll, nameOf: (userId: string) => string): EngineEvent {
  return { type: 'diceRolled', audience: REFEREE, text: `d${r.sides} for ${r.purpose}: ${r.value}${sourceNote(r, nameOf)}`, data: { ...r } };
}
