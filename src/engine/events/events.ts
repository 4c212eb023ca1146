import type { Army } from '../forces/index.js';
import { capital } from './words.js';

/**
 * What the engine reports. Every event names its audience: public (the campaign channel and
 * chronicle), the referee, or one army's commander. Secret information (estimates, scout results,
 * strengths of an enemy, courier messages) only ever travels on events whose audience is an army
 * or the referee. @see RULINGS 6 Secrets
 */
export interface PublicAudience {
  readonly kind: 'public';
}
export interface RefereeAudience {
  readonly kind: 'referee';
}
export interface ArmyAudience {
  readonly kind: 'army';
  readonly armyId: string;
}
export type Audience = PublicAudience | RefereeAudience | ArmyAudience;

/**
 * One entry of the campaign's log, as the app routes and stores it: the engine's events (typed
 * facts with their sentence) and the use-cases' own.
 */
export interface EngineEvent {
  /** Past tense: 'armyMoved', 'weatherRolled', 'contactMade'. */
  readonly type: string;
  readonly audience: Audience;
  /** One line for the reader, already in the audience's terms. */
  readonly text: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * What a rule reports: a typed fact for one audience, before it is put in words. Its data holds
 * only what its audience may know (a public fact never carries a strength or a die).
 * Each module declares the union of its facts (contactEvents.ts, movementEvents.ts, ...); its
 * describer (describeContact.ts, describeMovement.ts, ...) writes their sentences, and its
 * transitions return them told. Data are type aliases, not interfaces (an interface has no
 * index signature, so it cannot be the log's data).
 */
export interface Fact<T extends string = string, D extends Readonly<Record<string, unknown>> = Readonly<Record<string, unknown>>, A extends Audience = Audience> {
  readonly type: T;
  readonly audience: A;
  readonly data: D;
}

/** A fact with the sentence its module's describer wrote for its audience: what leaves the engine. */
export type Told<F extends Fact> = F & { readonly text: string };

/** How the describers name armies. */
export interface Names {
  /** The army's own name ("The Host of Ingegerd"). */
  army(id: string): string;
  /** The name the chronicle uses: the army's commander ("Ingegerd"), else its name. */
  commander(id: string): string;
}

/** The names of the armies in a state; an id the state does not hold names itself. */
export function namesOf(armies: Readonly<Record<string, Army>>): Names {
  return {
    army: (id) => armies[id]?.name ?? id,
    commander: (id) => {
      const a = armies[id];
      return a ? a.commander || a.name : id;
    },
  };
}

/**
 * Puts facts in words with their module's describer. Each is a sentence of its own, begun with a
 * capital: a describer may open with a name that is written in lower case where it stands inside
 * a sentence (the commander "the Prince of Aeskrvald").
 */
export function tell<F extends Fact>(facts: readonly F[], describe: (fact: F, names: Names) => string, names: Names): Told<F>[] {
  return facts.map((f) => ({ ...f, text: capital(describe(f, names)) }));
}

/** Narrows a fact (of a type told to several audiences) to the one for this audience. */
export function isFor<F extends Fact, K extends Audience['kind']>(fact: F, kind: K): fact is Extract<F, { readonly audience: { readonly kind: K } }> {
  return fact.audience.kind === kind;
}

export const PUBLIC: PublicAudience = { kind: 'public' };
export const REFEREE: RefereeAudience = { kind: 'referee' };
export const toArmy = (armyId: string): ArmyAudience => ({ kind: 'army', armyId });

/** An event of the log written directly with its sentence (the use-cases' own events). */
export function event(type: string, audience: Audience, text: string, data?: Record<string, unknown>): EngineEvent {
  return data === undefined ? { type, audience, text } : { type, audience, text, data };
}
