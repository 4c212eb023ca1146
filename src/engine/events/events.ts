/**
 * What the engine reports. Every event names its audience: public (the campaign channel and
 * chronicle), the referee, or one army's commander. Secret information (estimates, scout results,
 * strengths of an enemy, courier messages) only ever travels on events whose audience is an army
 * or the referee. @see RULINGS 6 Secrets
 */
export type Audience =
  | { readonly kind: 'public' }
  | { readonly kind: 'referee' }
  | { readonly kind: 'army'; readonly armyId: string };

export interface EngineEvent {
  /** Past tense: 'armyMoved', 'weatherRolled', 'contactMade'. */
  readonly type: string;
  readonly audience: Audience;
  /** One line for the reader, already in the audience's terms. */
  readonly text: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

export const PUBLIC: Audience = { kind: 'public' };
export const REFEREE: Audience = { kind: 'referee' };
export const toArmy = (armyId: string): Audience => ({ kind: 'army', armyId });

export function event(type: string, audience: Audience, text: string, data?: Record<string, unknown>): EngineEvent {
  return data === undefined ? { type, audience, text } : { type, audience, text, data };
}
