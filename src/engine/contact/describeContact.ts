import { ordinal } from '../clock/index.js';
import { listNames, type Names, signedModifier } from '../events/index.js';
import type { PublicConditions } from './battleConditions.js';
import type { ContactFact } from './contactEvents.js';
import { type BriefingPart, deploymentDice, describeForceTableNote, describeTableNotes } from './describeTable.js';
import type { ContactStep, DisengageOperation, Estimate, ForceCondition } from '../state/index.js';

/** How each step of a contact reads to a commander or the referee. */
const STEP_TEXT: Readonly<Record<ContactStep, string>> = {
  step1: 'before the contact phase (proceed, delay, avoid or stay silent)',
  decision: 'after the contact phase (engage or evade)',
  battle: 'battle joined, waiting for the referee to record the result',
  closed: 'over',
};

/** The step a contact is at, in words. */
export function describeStep(step: ContactStep): string {
  return STEP_TEXT[step];
}

/** A one-paragraph text of an estimate, for its commander only. @see 001 Contact Table; Size Estimation */
export function describeEstimate(e: Estimate, targetName: string): string {
  if (e.awareness === 'unaware') return `${targetName}: you are unaware of this enemy (contact die ${e.modifiedDie}).`;
  if (e.awareness === 'aware') return `${targetName}: an enemy is near, but your scouts could estimate nothing (contact die ${e.modifiedDie}).`;
  // The accurate size row (a modified die of 6 or more) estimates exactly: no "about".
  const parts = [`${targetName}: engaging regiment ${e.sizeBand === 'accurate' ? '' : 'about '}${e.estimatedFigures} figures (${e.estimatedTroops} troops)`];
  const c = e.composition;
  if (c) {
    if (c.companies) parts.push(`companies: ${c.companies.map((x) => `${x.figures} ${x.troopType}`).join(', ')}`);
    else if (c.proportions) parts.push(`troops: ${Object.entries(c.proportions).map(([t, p]) => `${t} ${p}%`).join(', ')}`);
    else if (c.troopTypes) parts.push(`troop types: ${c.troopTypes.join(', ')}`);
    else parts.push(`basic type: ${c.basic.join(' and ')}`);
    if (c.otherRegiments !== undefined) parts.push(`${c.otherRegiments} other regiment(s)`);
    if (c.individuals && c.individuals.length > 0) parts.push(`with ${c.individuals.map((i) => `${i.name} (${i.kind})`).join(', ')}`);
  }
  return `${parts.join('; ')}.`;
}

const SKY_WORDS = { clear: 'clear', cloudy: 'cloudy', lightRain: 'light rain', hardRain: 'hard rain' } as const;
const DIRECTION_WORDS = { n: 'north', ne: 'north-east', se: 'south-east', s: 'south', sw: 'south-west', nw: 'north-west' } as const;

/**
 * The public conditions of a battle as labelled parts for the briefing: the hour (a night
 * battle), the weather (with the movement profile's missile penalties), fog's visibility, the
 * ground after rain, how three or more forces stand, and how the tactical profile reads the
 * table. @see 001 Contact Hour; 000 Whether Weather; 001 Deployment: Three or More Forces
 */
export function describeConditions(c: PublicConditions, names: Names): BriefingPart[] {
  const parts: BriefingPart[] = [];
  const when = c.hour !== undefined ? `Contact at the ${ordinal(c.hour)} hour` : c.night ? 'At night' : 'By day';
  parts.push({ label: 'Hour', text: `${when}${c.night ? ': a night battle' : ''}.` });
  const wind = c.highWinds ? ((c.windHits ?? -1) < 0 ? '; high winds: missile fire scores one hit fewer (catapults unaffected)' : '; high winds') : '';
  const missiles = c.missileAttack !== undefined ? `; missile units ${c.missileAttack} to their attack throws in this weather` : '';
  parts.push({ label: 'Weather', text: `${capitalFirst(SKY_WORDS[c.sky])}${wind}${missiles}.` });
  if (c.fog) parts.push({ label: 'Visibility', text: `Fog: ${c.fog.yards} yards (die ${c.fog.die} x 30); creatures hurt by bright light suffer nothing from the sun.` });
  if (c.rainLevel > 0) parts.push({ label: 'Ground', text: `Soft and muddy after the rain (rain level ${c.rainLevel}).` });
  if (c.arrangement) {
    const line = (a: NonNullable<PublicConditions['arrangement']>[number]): string =>
      `${names.army(a.armyId)} at ${a.hex}: ${a.next.map((n) => `${names.army(n.armyId)} (${n.enemy ? 'enemy' : 'ally'}) to the ${DIRECTION_WORDS[n.direction]}`).join(', ') || 'no force next to it'}`;
    parts.push({ label: 'Arrangement', text: `The forces deploy as they stand on the map. ${c.arrangement.map(line).join('; ')}.` });
  }
  return [...parts, ...describeTableNotes(c.table ?? [], names)];
}

const capitalFirst = (t: string): string => `${t.charAt(0).toUpperCase()}${t.slice(1)}`;

/** A force's own state at the table, for its commander and the referee. @see 000 Units, Formed and Unformed; 000 Major Rivers */
function describeForce(f: ForceCondition): string {
  const parts: string[] = [];
  if (f.fatigued) parts.push('fatigued from the march: it fights fatigued');
  if (f.asIfInRetreat) parts.push('unformed: its units begin the battle unrallied, as if in retreat, each rallying at the end of the first turn of mass combat unless attacked');
  else if (f.unformed) parts.push('unformed');
  if (f.raftsDefence) parts.push(`building rafts (${f.raftsDefence.phase === 'timber' ? 'collecting timber' : 'building'}): it defends with one third of its force`);
  if (f.debarking) parts.push(`still debarking: only ${listNames(f.debarking.present)} ${f.debarking.present.length === 1 ? 'is' : 'are'} ashore to fight; ${listNames(f.debarking.awaited)} still to come`);
  if (f.machinesUnavailable) parts.push(`its war machines (${f.machinesUnavailable.join(', ')}) are not assembled: they cannot be used in this battle`);
  parts.push(...(f.table ?? []).map(describeForceTableNote));
  return parts.length > 0 ? parts.join('; ') : 'formed, not fatigued, with all its force';
}

/** What a disengagement operation did, in the past tense. */
const OPERATION_DONE: Readonly<Record<DisengageOperation, string>> = {
  avoid: 'avoided contact',
  evade: 'evaded',
  delay: 'fought a delaying action',
  withdraw: 'withdrew',
};

type Of<T extends ContactFact['type']> = Extract<ContactFact, { type: T }>;

/** Terrain cards as the cards name them. */
const CARD_WORDS: Readonly<Record<string, string>> = { roughGround: 'rough ground', blank: 'blank (open ground)' };

/** A terrain card in words. */
const cardWord = (card: string): string => CARD_WORDS[card] ?? card;

/** Disengagement modifiers in words (the codes are the tables' keys). @see 001 Avoid, Evade, Delay, and Withdraw: Modifiers */
const DISENGAGE_WORDS: Readonly<Record<string, string>> = {
  formed: 'formed', retreat: 'in retreat', rout: 'in rout',
  maneuver: 'maneuver', aggressivePursuit: 'aggressive pursuit', rearguard: 'rearguard',
  cavalry: 'cavalry', freshCavalry: 'fresh cavalry',
  fatigued: 'fatigued',
  larger: 'larger force', supported: 'supported',
  halfOrLess: 'at half strength or less',
  favorable: 'favourable terrain', unfavorable: 'unfavourable terrain',
};

/** A disengagement modifier as the dice lines show it: " -1 (at half strength or less)". */
const disengageModifier = (m: { readonly value: number; readonly code: string }): string => signedModifier(m.value, DISENGAGE_WORDS[m.code] ?? m.code);

/** How a side left the field, in words. */
const CONDITION_WORDS: Readonly<Record<string, string>> = { formed: 'in good order', retreat: 'in retreat', rout: 'in rout' };

function contactMade(f: Of<'contactMade'>, names: Names): string {
  const d = f.data;
  switch (d.how) {
    case 'opened':
      return `Contact: ${d.armyIds.map((id, i) => `${names.army(id)} (${d.hexes[i] ?? '?'})`).join(', ')}.`;
    case 'exploitJoined':
      return `${names.army(d.armyId)} joins contact ${d.contactId}.`;
    case 'forcedJoined':
      return `Contact: ${d.newcomers.map((n) => `${names.army(n.armyId)} (${n.hex})`).join(', ')} ${d.newcomers.length === 1 ? 'joins' : 'join'} contact ${d.contactId}, forced by ${names.army(d.forcedBy)}'s maneuver.`;
  }
}

function forceDisengaged(f: Of<'forceDisengaged'>, names: Names): string {
  const d = f.data;
  if (!d.opposed) return `${names.army(d.armyId)} ${d.operation === 'avoid' ? 'avoided contact' : 'broke contact'}; nobody stayed to oppose it.`;
  return `${names.army(d.armyId)} ${OPERATION_DONE[d.operation]}${d.to ? ` and was pushed back to ${d.to}` : ''}.`;
}

function contactMoveNoted(f: Of<'contactMoveNoted'>, names: Names): string {
  const d = f.data;
  const parts: string[] = [];
  if (d.becameUnformed) parts.push(`${names.army(d.armyId)} moved unformed into ${d.to}: stragglers are counted at daybreak, and a day without movement reforms it`);
  if (d.stragglersLost > 0) parts.push(`${d.stragglersLost} straggling figure(s) left behind at ${d.rallyPoint} are lost`);
  return `${parts.join('; ')}.`;
}

function contactEstimated(f: Of<'contactEstimated'>, names: Names): string {
  const d = f.data.die;
  const mods = d.modifiers.map((m) => signedModifier(m.value, m.label)).join('');
  const lines = Object.values(f.data.estimates).map((e) => describeEstimate(e, names.army(e.targetId)));
  const unaware = d.modified <= 1 ? ' You are unaware of the enemy and cannot evade.' : '';
  return `Contact dice ${d.raw}${mods} = ${d.modified}. Contact at the ${ordinal(f.data.hour)} hour. ${lines.join(' ')}${unaware}`;
}

function contactTruth(f: Of<'contactTruth'>, names: Names): string {
  const d = f.data;
  const lines = d.armyIds.map((id) => `${names.army(id)} die ${d.contactDice[id]?.raw} -> ${d.contactDice[id]?.modified}, engaging ${d.truth[id]?.figures} figures`);
  return `Contact ${d.contactId}: ${lines.join('; ')}; hour ${d.hour}.`;
}

function disengagementRolled(f: Of<'disengagementRolled'>, names: Names): string {
  const o = f.data.outcome;
  const lines = o.against.map((a) => `against ${names.army(a.opponentId)}: ${o.modified} vs ${a.modified} (difference ${a.difference}) -> ${a.cell.destroyed ? 'destroyed' : `${a.cell.percent}%${a.cell.displaced ? ' D' : ''}`}`);
  const mods = o.modifiers.map(disengageModifier).join('');
  const displaced = f.data.displacedTo ? `, displaced to ${f.data.displacedTo}` : '';
  const reinforced = o.reinforcedBy ? `, displacement prevented by ${names.army(o.reinforcedBy)}` : '';
  return `${names.army(o.armyId)} ${OPERATION_DONE[o.operation]}: die ${o.die}${mods} = ${o.modified}; ${lines.join('; ')}. Losses ${o.percent}% of ${f.data.regimentName ?? 'the assault regiment'} (${o.figuresLost} figure${o.figuresLost === 1 ? '' : 's'})${o.destroyed ? ', regiment destroyed' : ''}${displaced}${reinforced}.`;
}

function battleFought(f: Of<'battleFought'>, names: Names): string {
  const pushed = f.data.pushedBack ?? {};
  const withdrew = f.data.withdrew.length > 0 ? `; ${f.data.withdrew.map((id) => `${names.army(id)} withdrew${pushed[id] ? ` and was pushed back to ${pushed[id]}` : ''}`).join(', ')}` : '';
  return `The battle between ${f.data.armyIds.map((id) => names.army(id)).join(' and ')} is over${withdrew}.`;
}

function battleRecorded(f: Of<'battleRecorded'>, names: Names): string {
  const losses = Object.entries(f.data.result.losses).map(([armyId, regiments]) => {
    const lost = Object.entries(regiments).map(([regiment, n]) => `${regiment} ${n} figure${n === 1 ? '' : 's'}`).join(', ');
    return `${names.army(armyId)} lost ${lost || 'nothing'}`;
  });
  const withdrawals = (f.data.result.withdrawals ?? []).map((w) => `${names.army(w.armyId)} withdrew ${CONDITION_WORDS[w.condition] ?? w.condition}`);
  // The losses are the table's, as entered; a withdrawal's own losses are told in its own line.
  return `Battle ${f.data.contactId} recorded: ${losses.join('; ') || 'no losses entered from the table'}; ${withdrawals.join('; ') || 'nobody withdrew'}.`;
}

const PROCEDURE = ['contactMade', 'forceDisengaged', 'armyAvoided', 'avoidForcedMarch', 'avoidBlocked', 'contactMoveNoted', 'contactDeferred', 'scoutsReturned', 'scoutCaptured', 'contactEstimated', 'terrainDealt', 'contactTruth', 'contactPhaseRun', 'contactEvaded', 'battleJoined', 'deploymentRolled', 'forceCondition', 'forceConditions'] as const;
/** Facts of the contact procedure from step 1 to the battle. */
type ProcedureFact = Extract<ContactFact, { type: (typeof PROCEDURE)[number] }>;
/** Facts of the battle's result, disengagements, and the support, reserve and maneuver operations. */
type OperationFact = Exclude<ContactFact, ProcedureFact>;

function isProcedure(f: ContactFact): f is ProcedureFact {
  return (PROCEDURE as readonly string[]).includes(f.type);
}

/** The contact procedure from step 1 to the battle. */
function describeProcedure(f: ProcedureFact, names: Names): string {
  const list = (ids: readonly string[], sep: string): string => ids.map((id) => names.army(id)).join(sep);
  switch (f.type) {
    case 'contactMade':
      return contactMade(f, names);
    case 'forceDisengaged':
      return forceDisengaged(f, names);
    case 'armyAvoided':
      return `${names.army(f.data.armyId)} moved away to ${f.data.to}.`;
    case 'avoidForcedMarch':
      return f.data.noRestOwed
        ? `${names.army(f.data.armyId)} avoided to ${f.data.to} by a forced march; tireless, it owes no rest for it.`
        : `${names.army(f.data.armyId)} avoided to ${f.data.to} by a forced march: rest all of tomorrow or be fatigued.`;
    case 'avoidBlocked':
      return `${names.army(f.data.armyId)} could not move to ${f.data.to} after avoiding: ${f.data.violation.message}`;
    case 'contactMoveNoted':
      return contactMoveNoted(f, names);
    case 'contactDeferred':
      return f.data.again
        ? `Still nobody pressed the contact (fight on the morrow): ${listNames(f.data.armyIds.map((id) => names.army(id)))} are out of contact for the rest of this half period again, and in contact at the start of the next if they still face each other.`
        : `No commander pressed the contact (fight on the morrow): ${listNames(f.data.armyIds.map((id) => names.army(id)))} are out of contact for the rest of this half period, and in contact again at the start of the next if they still face each other.`;
    case 'scoutsReturned':
      return `Your scouts: ${f.data.scouts.join(', ')}.`;
    case 'scoutCaptured':
      return `Your pickets captured a scout of ${names.army(f.data.from)}.`;
    case 'contactEstimated':
      return contactEstimated(f, names);
    case 'terrainDealt':
      return `Your terrain cards: ${f.data.cards.map(cardWord).join(', ') || 'none'}.`;
    case 'contactTruth':
      return contactTruth(f, names);
    case 'contactPhaseRun':
      return `Contact phase between ${list(f.data.armyIds, ', ')}: each commander now chooses to engage or evade.`;
    case 'contactEvaded':
      return `${list(f.data.armyIds, ' and ')} broke off: no battle.`;
    case 'battleJoined':
      return `Battle joined at ${f.data.hexes.join('/')} between ${list(f.data.armyIds, ' and ')}. The deployment briefing is posted; the referee records the result with /battle result.`;
    case 'deploymentRolled':
      return `Deployment for ${f.data.contactId}: ${f.data.deployment.entries.map((e) => `${names.army(e.armyId)} ${deploymentDice(e)}`).join('; ')}; initiative ${names.army(f.data.deployment.initiative)}.`;
    case 'forceCondition':
      return `Battle ${f.data.contactId}, your force at the table: ${describeForce(f.data.condition)}.`;
    case 'forceConditions':
      return `Battle ${f.data.contactId}, the forces at the table: ${f.data.conditions.map((c) => `${names.army(c.armyId)}: ${describeForce(c)}`).join('; ')}.`;
  }
}

/** The battle's result, disengagements, and the support, reserve and maneuver operations. */
function describeOperations(f: OperationFact, names: Names): string {
  switch (f.type) {
    case 'battleLossesApplied':
      return `After the battle: ${f.data.regiments.map((r) => `${r.name} ${r.figures} figures (${r.strength}%)`).join('; ')}.`;
    case 'battleRecorded':
      return battleRecorded(f, names);
    case 'battleFought':
      return battleFought(f, names);
    case 'contactSplit':
      return `The referee split the contact into ${f.data.groups.length} engagements: ${f.data.groups.map((g) => g.map((id) => names.army(id)).join(' vs ')).join('; ')}.`;
    case 'disengagementRolled':
      return disengagementRolled(f, names);
    case 'disengagementOpposed':
      return `${names.army(f.data.armyId)} ${OPERATION_DONE[f.data.operation]}; your die ${f.data.die}${f.data.modifiers.map(disengageModifier).join('')} = ${f.data.modified}.`;
    case 'forceDisplaced':
      return `${names.army(f.data.armyId)} was pushed back to ${f.data.to}.`;
    case 'armyDestroyed':
      return `${names.army(f.data.armyId)} has been destroyed.`;
    case 'roleAssumed':
      return f.data.role === 'support' ? `${names.army(f.data.armyId)} supports ${names.army(f.data.supportedId)}.` : `${names.army(f.data.armyId)} stands in reserve for ${names.army(f.data.supportedId)}.`;
    case 'reinforceDeclared':
      return f.data.on ? 'You will reinforce if the supported force is displaced.' : 'You will not reinforce.';
    case 'forceRelieved':
      return `${names.army(f.data.supporterId)} relieved ${names.army(f.data.supportedId)}.`;
    case 'supportSwitched':
      return `${names.army(f.data.reserveId)} moved up to support; ${names.army(f.data.supporterId)} fell back to reserve.`;
    case 'forceExploited':
      return `${names.army(f.data.reserveId)} exploited through ${names.army(f.data.through)} to ${f.data.to}.`;
    case 'armyManeuvered':
      return `${names.army(f.data.armyId)} maneuvers.`;
  }
}

/** The sentence of a contact fact for its audience. */
export function describeContact(f: ContactFact, names: Names): string {
  return isProcedure(f) ? describeProcedure(f, names) : describeOperations(f, names);
}
