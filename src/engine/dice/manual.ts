import { echo } from '../events/index.js';
import type { GameTime } from '../clock/index.js';
import { fail, ok, type Result } from '../result.js';
import { derivedId } from './derivedId.js';
import type { EnteredDie, NeededRoll } from './dice.js';

/**
 * Manual dice: rolls the referee's setting hands to people. The bot asks for a roll when a step
 * comes to need it (the commander who rolls it, or the referee), keeps what they enter here, and
 * the step that rolls it uses the entered die; a roll nobody entered by the step's deadline takes
 * the seeded die. Requests are named by their key (the purpose, numbered from its second time in
 * one resolution) so a probe and the real resolution name the same die alike.
 * @see RULINGS 7 Dice; docs/rulings.md (Manual dice)
 */
export interface ManualRollRequest {
  /** Short id for `/dice enter roll:` and the buttons, e.g. "rkqxbmt" (older campaigns: "r12"). */
  readonly id: string;
  readonly key: string;
  readonly purpose: string;
  readonly sides: number;
  /** The army whose commander enters it; absent: the referee. */
  readonly army?: string;
  /** The contact that waits for it at its step, if one does. */
  readonly contactId?: string;
  readonly askedAt: GameTime;
  readonly value?: number;
  /** Who entered the value (a user id). */
  readonly enteredBy?: string;
}

/** A contact waiting at its step for manual dice, and the tick (time index) by which it stops waiting. */
export interface DiceHold {
  readonly step: 'step1' | 'decision';
  readonly until: number;
}

export interface ManualDiceState {
  /** The old request counter (ids were `r<n>`): kept in the stored shape, no longer moved. */
  readonly nextId: number;
  readonly requests: readonly ManualRollRequest[];
  /** Contacts waiting for their dice, by contact id. */
  readonly holds: Readonly<Record<string, DiceHold>>;
}

export const NO_MANUAL_DICE: ManualDiceState = { nextId: 1, requests: [], holds: {} };

/** Who enters a roll: the army whose commander rolls it, or undefined for the referee. */
export type WhoRolls = (purpose: string) => string | undefined;

/**
 * A request's id: `r` and six letters from what the one who enters it knows of the roll itself
 * (its key, who rolls it, the contact waiting for it, when it was asked), never a count across
 * the campaign, which would tell a reader how many rolls others were asked for (in fog of war,
 * of contacts they never saw; in any mode, of the secret dice a tie brought). Requests asked
 * before this (numbered `r<n>`) keep their ids.
 */
function rollId(key: string, army: string | undefined, contactId: string | undefined, at: GameTime, taken: readonly ManualRollRequest[]): string {
  return derivedId('r', `roll|${at.day}.${at.half}|${key}|${army ?? ''}|${contactId ?? ''}`, (id) => taken.some((r) => r.id === id));
}

/** Requests for the needed rolls not asked for yet (for `contactId` when a contact waits for them). */
export function askForDice(state: ManualDiceState, needed: readonly NeededRoll[], whoRolls: WhoRolls, at: GameTime, contactId?: string): ManualDiceState {
  const known = new Set(state.requests.map((r) => r.key));
  const asked: ManualRollRequest[] = [];
  for (const n of needed) {
    if (known.has(n.key)) continue;
    known.add(n.key);
    const army = whoRolls(n.purpose);
    asked.push({ id: rollId(n.key, army, contactId, at, [...state.requests, ...asked]), key: n.key, purpose: n.purpose, sides: n.sides, ...(army !== undefined ? { army } : {}), ...(contactId !== undefined ? { contactId } : {}), askedAt: at });
  }
  return asked.length === 0 ? state : { ...state, requests: [...state.requests, ...asked] };
}

/** A contact waits at its step for the dice it needs (asked now) until the tick `until`. */
export function holdForDice(state: ManualDiceState, contactId: string, hold: DiceHold, needed: readonly NeededRoll[], whoRolls: WhoRolls, at: GameTime): ManualDiceState {
  const asked = askForDice(state, needed, whoRolls, at, contactId);
  return { ...asked, holds: { ...asked.holds, [contactId]: hold } };
}

/** A contact stops waiting (resolved): its hold and its requests go. */
export function releaseHold(state: ManualDiceState, contactId: string): ManualDiceState {
  if (!(contactId in state.holds) && !state.requests.some((r) => r.contactId === contactId)) return state;
  const { [contactId]: _gone, ...holds } = state.holds;
  return { ...state, holds, requests: state.requests.filter((r) => r.contactId !== contactId) };
}

/** Records a die entered for a request. Refuses an unknown request, one already entered, or a value that is no face of the die. */
export function enterDie(state: ManualDiceState, id: string, value: number, by: string): Result<{ state: ManualDiceState; request: ManualRollRequest }> {
  const request = state.requests.find((r) => r.id === id);
  if (!request) return fail('dice.unknownRoll', `There is no manual roll ${echo(id)} waiting (it was used, or never asked for).`, { id });
  if (request.value !== undefined) return fail('dice.alreadyEntered', `Roll ${id} (${request.purpose}) was already entered: ${request.value}.`, { id });
  if (!Number.isInteger(value) || value < 1 || value > request.sides) return fail('dice.badValue', `Roll ${id} is a d${request.sides}: enter a whole number from 1 to ${request.sides}.`, { id, sides: request.sides });
  const entered: ManualRollRequest = { ...request, value, enteredBy: by };
  return ok({ state: { ...state, requests: state.requests.map((r) => (r.id === id ? entered : r)) }, request: entered });
}

/** The entered dice, for the dice service. */
export function enteredDice(state: ManualDiceState): EnteredDie[] {
  return state.requests.flatMap((r) => (r.value !== undefined && r.enteredBy !== undefined ? [{ key: r.key, value: r.value, enteredBy: r.enteredBy }] : []));
}

/** Drops the requests whose dice were used (by key), among those of `asked` (the requests there were before the dice rolled). */
export function consumeDice(state: ManualDiceState, keys: readonly string[], asked: ManualDiceState): ManualDiceState {
  if (keys.length === 0) return state;
  const used = new Set(keys);
  const before = new Set(asked.requests.map((r) => r.id));
  const requests = state.requests.filter((r) => !(used.has(r.key) && before.has(r.id)));
  return requests.length === state.requests.length ? state : { ...state, requests };
}

/** After a tick: the requests no waiting contact holds are dropped (the tick was their deadline). */
export function clearDice(state: ManualDiceState): ManualDiceState {
  const kept = state.requests.filter((r) => r.contactId !== undefined && r.contactId in state.holds);
  return kept.length === state.requests.length ? state : { ...state, requests: kept };
}
