import { capital, listNames, isFor, type Names } from '../events/index.js';
import type { FatigueReason } from '../forces/index.js';
import type { TieBreak } from './contest.js';
import type { MarchNote, MovementFact, RiverCrossing } from './movementEvents.js';

/** Why an army is fatigued, in words. @see 000 Overland Travel: Daily Rest, Weekly Rest, Forced March */
export function describeFatigue(reason: FatigueReason | undefined): string {
  switch (reason) {
    case 'forcedMarch':
      return 'forced march yesterday and no rest today';
    case 'seventhDay':
      return 'marched a seventh day in a row without a full day of rest';
    case 'noLongRest':
      return 'moved in half periods for more than two periods without two consecutive half periods of rest';
    case 'marchWindow':
      return 'marched more days in a week than the rest rule allows, until the rest owed is caught up';
    case 'referee':
      return 'set by the referee';
    case undefined:
      return 'no reason recorded';
  }
}

/** What decided a contested hex, for the referee: no numbers. */
const TIE_BREAK_WORDS: Readonly<Record<TieBreak, string>> = {
  fewerTroops: 'fewer troops',
  morePointsLeft: 'more marching time left',
  moreDailyPoints: 'the faster march',
  dice: 'the luck of the dice',
};

const rivers = (crossings: readonly RiverCrossing[]): string => crossings.map((c) => `${c.method} at ${c.hex}`).join('; ');

function describeNote(note: MarchNote): string {
  switch (note.kind) {
    case 'stragglersLeft':
      return `${note.figures} straggling figure(s) left behind at ${note.at} are lost`;
    case 'crossingBegun':
      return `${note.method === 'ferry' ? 'ferry crossing' : 'rafts (timber, build, cross)'} at ${note.at} begun: ${note.days} day(s)`;
    case 'orderCancelled':
      return `order cancelled: ${note.violation.message}`;
    case 'crossingChanged':
      return `waiting: the crossing here would now be by ${note.method}; give the order again to accept it`;
    case 'haltedByContact':
      return `halted by map contact${note.mayGoOn ? '; the march may go on next half period once the contact is resolved' : '; movement ends for this period'}`;
    case 'haltedOccupied':
      return `halted at ${note.at}: ${note.blockedAt} is held by another commander${note.cancelled ? ' (order cancelled: route around it)' : ''}`;
    case 'lostContest':
      return `lost the contest for ${note.contested}; halted at ${note.at}`;
    case 'waitingToPass':
      return `waiting at ${note.at}: the allied force in ${note.through} can be passed through only in and out in the same half period; the march goes on when it can`;
  }
}

type Data<T extends MovementFact['type']> = Extract<MovementFact, { type: T }>['data'];

function armyMoved(d: Data<'armyMoved'>, names: Names): string {
  const who = names.commander(d.armyId);
  if (d.path.length === 0) return `${who} crossed the river at ${d.to} (${rivers(d.crossings)}).`;
  const by = d.path.length > 1 ? ` (by ${d.path.slice(0, -1).join(', ')})` : '';
  const crossing = d.crossings.length > 0 ? `, crossing the river (${rivers(d.crossings)})` : '';
  return `${who} marched from ${d.from} to ${d.to}${by}${crossing}.`;
}

/**
 * What a march's public line tells beyond its commander's own account (movementOutcome: from,
 * to, points left): the hexes passed on the way and the rivers crossed, as a sentence ("By 1221,
 * 1321; across the river by ford at 1321."), or '' when it tells nothing more. A report that
 * gives the commander both keeps the account and adds this (fog of war sends the public line to
 * the commander: src/app/deliveries/cards.ts).
 */
export function describeRoute(d: { readonly path: readonly string[]; readonly crossings: readonly RiverCrossing[] }): string {
  const by = d.path.length > 1 ? `by ${d.path.slice(0, -1).join(', ')}` : '';
  const crossing = d.crossings.length > 0 ? `across the river by ${rivers(d.crossings)}` : '';
  const parts = [by, crossing].filter((p) => p !== '');
  return parts.length > 0 ? `${capital(parts.join('; '))}.` : '';
}

function movementOutcome(d: Data<'movementOutcome'>, names: Names): string {
  const moved = d.moved === 'marched' ? `marched ${d.from} -> ${d.hex}` : d.moved === 'crossed' ? `crossed the river at ${d.hex}` : `stayed at ${d.hex}`;
  const notes = d.notes.length > 0 ? ` ${capital(d.notes.map(describeNote).join('; ')).replace(/\.$/, '')}.` : '';
  return `${capital(d.half)}: ${names.army(d.armyId)} ${moved}; ${d.pointsLeft} of ${d.allowance} points left today.${notes}`;
}

function armyBlocked(d: Data<'armyBlocked'>, names: Names): string {
  return d.reason === 'occupied'
    ? `${names.commander(d.armyId)} halted at ${d.hex}: ${d.blockedAt} is held by another commander.`
    : `${names.commander(d.armyId)} halted at ${d.hex}, short of the contested hex ${d.blockedAt}.`;
}

function hexContested(f: Extract<MovementFact, { type: 'hexContested' }>, names: Names): string {
  if (isFor(f, 'public')) {
    const winner = f.data.ranking[0] ?? '';
    return `${listNames(f.data.ranking.map((id) => names.commander(id)))} marched for ${f.data.hex} in the ${f.data.half}: ${names.commander(winner)} took it.`;
  }
  const list = f.data.contenders.map((c) => `${names.army(c.armyId)} ${c.figures} figures, ${c.pointsLeft} points left, ${c.dailyPoints} daily`).join('; ');
  const rolled = Object.entries(f.data.rolls).map(([id, dice]) => `${names.army(id)} ${dice.join(', ')}`);
  const dice = rolled.length > 0 ? `; dice: ${rolled.join('; ')}` : '';
  return `Contest for ${f.data.hex}: ${list}${dice}.`;
}

const DIVISION_FACTS = ['machinesOrdered', 'armySplit', 'armiesMerged', 'machinesReady'] as const;
type DivisionFact = Extract<MovementFact, { type: (typeof DIVISION_FACTS)[number] }>;
const isDivisionFact = (f: MovementFact): f is DivisionFact => (DIVISION_FACTS as readonly string[]).includes(f.type);

/** Divisions and war machines (ACKS). @see 004 Movement of Large Armies; Movement of War Machines */
function describeDivisions(f: DivisionFact, names: Names): string {
  switch (f.type) {
    case 'machinesOrdered':
      return `${names.army(f.data.armyId)}'s war machines are being ${f.data.to}: ready at daybreak of day ${f.data.readyDay}. The army does not march meanwhile, and machines at work cannot be used in a battle.`;
    case 'armySplit':
      return `${names.commander(f.data.armyId)} splits: a division, ${names.army(f.data.divisionId)}, marches off to ${f.data.hex}. It acts as an army of its own until it joins again.`;
    case 'armiesMerged':
      return `${names.army(f.data.armyId)} joins ${names.army(f.data.intoId)} at ${f.data.hex}.`;
    case 'machinesReady':
      return `${names.army(f.data.armyId)}'s war machines are ${f.data.state}${f.data.state === 'disassembled' ? ': they march faster but cannot be used in a battle until assembled again' : ': ready for battle, and slow on the march'}.`;
  }
}

const MAP_CONTACT_FACTS = ['contactMade', 'contactParted'] as const;
type MapContactFact = Extract<MovementFact, { type: (typeof MAP_CONTACT_FACTS)[number] }>;
const isMapContactFact = (f: MovementFact): f is MapContactFact => (MAP_CONTACT_FACTS as readonly string[]).includes(f.type);

/** Forces in map contact: a contact made, a standoff's next round, or a standoff over (its forces no longer face each other). */
function describeMapContact(f: MapContactFact, names: Names): string {
  const forces = listNames(f.data.armyIds.map((id) => names.commander(id)));
  if (f.type === 'contactParted') return `${forces} no longer face each other: the contact is over.`;
  return f.data.standing === 'same' ? `${forces} still face each other near ${f.data.near}.` : `${forces} are in contact near ${f.data.near}.`;
}

/** Fatigue set in, and what recovers it. */
function armyFatigued(d: { readonly armyId: string; readonly reason: FatigueReason; readonly recovery?: string }, names: Names): string {
  // Facts logged before the recovery travelled with them: the old reading by the reason.
  const recovery = d.recovery ?? (d.reason === 'marchWindow' ? 'It recovers after a day of rest once the rest it owes is caught up.' : 'A full day of rest recovers it.');
  return `${names.army(d.armyId)} is fatigued: ${describeFatigue(d.reason)}. ${recovery}`;
}

/** The sentence of a movement fact for its audience. */
export function describeMovement(f: MovementFact, names: Names): string {
  if (isDivisionFact(f)) return describeDivisions(f, names);
  if (isMapContactFact(f)) return describeMapContact(f, names);
  switch (f.type) {
    case 'armyMoved':
      return armyMoved(f.data, names);
    case 'movementOutcome':
      return movementOutcome(f.data, names);
    case 'armyBlocked':
      return armyBlocked(f.data, names);
    case 'passageDisordered':
      return `Enemy contact caught ${names.commander(f.data.armyId)} passing through the lines of ${listNames(f.data.allyIds.map((id) => names.commander(id)))}: ${f.data.allyIds.length > 1 ? 'all' : 'both'} are unformed; it halts at ${f.data.hex}.`;
    case 'crossingStarted':
      return `${names.commander(f.data.armyId)} begins ${f.data.kind === 'ferry' ? 'a ferry crossing' : 'collecting timber for rafts'} at ${f.data.hex}.`;
    case 'armyFatigued':
      return armyFatigued(f.data, names);
    case 'hexContested':
      return hexContested(f, names);
    case 'hexContestDecided':
      return `${f.data.hex} went to ${names.commander(f.data.ranking[0] ?? '')} (${TIE_BREAK_WORDS[f.data.decidedBy]}).`;
    case 'stragglersLost':
      return `A day unformed: ${f.data.percent} % of each regiment straggles, ${f.data.figures} figure(s) in all. They may catch up while the army waits at its rally point.`;
    case 'armyReformed':
      return `${names.commander(f.data.armyId)} has reformed at ${f.data.hex}.`;
    case 'stragglersRejoined':
      return `A day at the rally point ${f.data.hex}: ${f.data.figures} straggling figure(s) rejoin (${f.data.percent} %); ${f.data.stillOut} still out. Leaving loses them.`;
    case 'fatigueRecovered':
      return `${names.army(f.data.armyId)} rested a full day and is no longer fatigued.`;
    case 'raftsFailed':
      return isFor(f, 'army')
        ? `Timber die ${f.data.roll}: not enough timber at ${f.data.hex}. The day is lost and rafts cannot be built in this hex; your order is cancelled. Try another hex.`
        : `${names.commander(f.data.armyId)} found too little timber for rafts at ${f.data.hex}.`;
    case 'timberFound':
      return `Timber die ${f.data.roll}: enough timber at ${f.data.hex}; building rafts.`;
    case 'riverCrossed':
      return isFor(f, 'public')
        ? `${names.commander(f.data.armyId)} crossed the river at ${f.data.hex} by ${f.data.method === 'ferry' ? 'ferry' : 'rafts'}.`
        : `${names.army(f.data.armyId)} is across the river at ${f.data.hex} and formed again.`;
  }
}
