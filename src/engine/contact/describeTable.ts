import { isFor, type Names, signedModifier } from '../events/index.js';
import { type TableFormation, unitMark } from '../profiles/index.js';
import type { Arrival, TabletopFact } from './tabletopEvents.js';
import { DEPLOYMENT_SCHEDULE } from './tables.js';
import type { DeploymentBriefing, DeploymentEntry, ForceTableNote, TableNote } from '../state/index.js';

/**
 * The tabletop in words: the deployment briefing's baselines, dice and schedules in the table's
 * unit, how the tactical profile reads the table, and what each force brings to it.
 */

/** One labelled part of a battle briefing: what the table needs, in words. */
export interface BriefingPart {
  readonly label: string;
  readonly text: string;
}

const PLURAL: Readonly<Record<string, string>> = { company: 'companies', battalion: 'battalions', regiment: 'regiments' };
const unitName = (n: number, unit: string): string => `${n} ${n === 1 ? unit : (PLURAL[unit] ?? unit)}`;

/** How the initiative was decided, when not by the higher score alone. @see 001 Deployment: Deployment Initiative */
const INITIATIVE_BY: Readonly<Record<DeploymentBriefing['initiativeBy'], string>> = {
  score: '',
  unmodified: ' (tied on the score: the higher unmodified die)',
  rolloff: ' (tied on the score and the die: a roll-off)',
};

/**
 * One commander's deployment dice as worked out: the die, each modifier with its reason, the
 * score; a sum beyond 1-6 says it is held there (001: modifiers never take the score past them).
 * For the referee only: two of the modifiers are drawn from the secret contact dice, and a forced
 * march is an order (RULINGS 6); the briefing shows the die and the score.
 */
export function deploymentDice(e: DeploymentEntry): string {
  if (e.modifiers.length === 0) return `${e.die}, no modifier`;
  const sum = e.modifiers.reduce((n, m) => n + m.value, e.die);
  const mods = e.modifiers.map((m) => signedModifier(m.value, m.label)).join('');
  return `${e.die}${mods} = ${sum === e.score ? e.score : `${sum}, held at ${e.score}`}`;
}

/**
 * The deployment of a battle as labelled parts, in the table's unit: the table, the baselines,
 * each commander's dice, baseline and initial deployment, the initiative, the order of the
 * deployment rounds. No contact dice and no strengths.
 * @see 001 Deployment
 */
export function describeDeployment(contactId: string, b: DeploymentBriefing, names: Names): BriefingPart[] {
  const u = unitMark(b.layout.unit);
  const name = (id: string): string => names.army(id);
  return [
    { label: 'Battle', text: `Battle ${contactId}: deployment (table ${b.layout.tableWidth}${u}, short bow ${b.layout.shortBowRange}${u})` },
    { label: 'Baselines', text: [`Forward baselines ${b.layout.forward}${u} from each edge; interval ${b.layout.interval}${u}${b.layout.narrowException ? ' (32-35" table)' : ''}; baselines at ${b.layout.distances.join(`${u}, `)}${u} from the edge.`, ...b.layout.notes].join(' ') },
    ...b.entries.map((e) => ({ label: name(e.armyId), text: `deployment dice ${e.die} -> ${e.score}; baseline ${e.baseline} counted from the ${e.countFrom} (${e.distanceFromEdge}${u} from the edge); in ${DEPLOYMENT_SCHEDULE[e.formation].label} -> initial deployment ${unitName(e.initial.count, e.initial.unit)}${e.initial.wholeRegiment ? ' (the whole regiment)' : `, then ${unitName(e.turn.count, e.turn.unit)} a turn`}.` })),
    { label: 'Initiative', text: `${name(b.initiative)}${INITIATIVE_BY[b.initiativeBy]}.` },
    { label: 'Deployment order', text: `Initial deployment, first round: ${b.initialRounds[0].map(name).join(', ')}; second round: ${b.initialRounds[1].map(name).join(', ')}. Later rounds: ${b.subsequentOrder.map(name).join(', ')}.` },
  ];
}

const FORMATION_WORDS: Readonly<Record<TableFormation, string>> = { column: 'in column', line: 'in line', openOrder: 'in open order', mass: 'in mass' };
/** Each terrain card as the chapter's terrain table reads it, saying which row the bot takes where the card could be read more than one way. */
const CARD_WORDS = {
  impassableToFormed: (card: string) => `the ${card} are read as the chapter's dense trees, impenetrable to formed troops (the cards do not tell light woods from dense; treat a wood as brush if you agree it is light)`,
  bridgesAndFordsOnly: (card: string) => (card === 'stream' ? 'the stream is read as the chapter\'s river row: crossed only at a bridge or a ford' : `the ${card} may be crossed only at a bridge or a ford`),
  uphillDoubled: (card: string) => `on the ${card}, movement uphill costs double`,
} as const;

/** One public note of the tactical profile as a labelled part. */
function tablePart(n: TableNote, names: Names): BriefingPart {
  switch (n.kind) {
    case 'table':
      return { label: 'Table', text: `Fought under ${n.name}: distances in ${n.unit === 'cm' ? 'centimetres' : 'inches'}. The chapter's movement rates are not in the bot's copy of the text: the referee sets them.` };
    case 'startingFormations':
      return { label: 'Starting formations', text: `From the march formation: ${n.armies.map((a) => `${names.army(a.armyId)} ${FORMATION_WORDS[a.formation]}`).join('; ')}. Skirmishers may start in open order and levies stay in mass (each commander is told which of theirs).` };
    case 'roads':
      return { label: 'Roads', text: n.wet ? `Dirt roads count as muddy ground: the campaign's rain has left them wet (rain level ${n.rainLevel}).` : 'Dirt roads are dry: they halve movement costs.' };
    case 'terrainCards':
      return { label: 'Terrain cards', text: `${capitalFirst(n.cards.map((c) => CARD_WORDS[c.reading](c.card)).join('; '))}.` };
    case 'conventions':
      return {
        label: 'Rout and pursuit',
        text: 'A routing unit that leaves the table has fled the field: its force counts as withdrawing in rout (`/battle result withdraw:"army=rout"`). The tabletop\'s pursuit follows a rout in melee; on the campaign map a commander who stayed may still order the aggressive pursuit (`pursue:`). The tabletop\'s evade is a move away from a charge for open order units and characters; it is not the evade of the contact, which was settled before the battle.',
      };
  }
}

const capitalFirst = (t: string): string => `${t.charAt(0).toUpperCase()}${t.slice(1)}`;

/** The tactical profile's public notes as labelled parts of the briefing. */
export function describeTableNotes(notes: readonly TableNote[], names: Names): BriefingPart[] {
  return notes.map((n) => tablePart(n, names));
}

const BECAUSE: Readonly<Record<'forcedMarch' | 'fatigued', string>> = { forcedMarch: 'force-marched today', fatigued: 'fatigued' };

/** One of a force's own notes of the tactical profile, for its commander and the referee. */
export function describeForceTableNote(n: ForceTableNote): string {
  switch (n.kind) {
    case 'forcedMarchAttrition': {
      const attrition = n.attrition.map((a) => `${a.label} ${a.endurance}`).join(', ');
      const exhaustion = n.exhaustion.map((e) => `${e.from}-${n.exhaustionDie} with ${e.label}`).join(', ');
      return `${n.because.map((b) => BECAUSE[b]).join(' and ')}: it starts with the table's forced-march attrition (each stand loses endurance by its discipline: ${attrition}) and an exhaustion check for each unit (a d${n.exhaustionDie}: exhausted on ${exhaustion}; an exhausted unit may not move in the next turn except in response to morale results)`;
    }
    case 'companyFormations':
      return `starting out of the force's formation: ${n.groups.map((g) => `${FORMATION_WORDS[g.formation]} ${g.companies.join(', ')}`).join('; ')}`;
    case 'flying': {
      const u = unitMark(n.unit);
      return `flying: combat height ${n.combatHeight[0]}-${n.combatHeight[1]}${u} above the ground troops, flight height above it; taking off costs ${n.takeOff}; climbing to flight height takes ${n.climb}; diving takes ${n.dive}; landing takes ${n.land}`;
    }
  }
}

const companiesText = (companies: readonly Arrival[]): string => companies.map((c) => `${c.figures} ${c.troopType}`).join(', ');

/** The battle companion's turn, arrivals and casualties in words. @see 001 Deployment: Subsequent Deployment */
export function describeTabletop(f: TabletopFact, names: Names): string {
  switch (f.type) {
    case 'tabletopTurn': {
      const who = f.data.arriving.length > 0 ? `${f.data.turn === 1 ? 'Initial deployment' : 'Deployment round'}: ${f.data.arriving.map((id) => names.army(id)).join(', ')}, in this order.` : 'Every force is on the table.';
      return `Battle ${f.data.contactId}, turn ${f.data.turn}. ${who}`;
    }
    case 'companiesArrive': {
      const d = f.data;
      const u = unitMark(d.unit);
      const when = d.initial ? 'Before turn 1 (initial deployment)' : `Before turn ${d.turn}`;
      const rest = d.stillToCome > 0 ? ` ${d.stillToCome} more unit(s) to come in later rounds.` : ' The whole regiment is then on the table.';
      return `Battle ${d.contactId}. ${when}, ${d.regiment} brings on ${companiesText(d.companies)} at baseline ${d.baseline} (${d.distance}${u} from your table edge).${rest}`;
    }
    case 'turnCasualties': {
      const list = f.data.casualties.map((c) => `${isFor(f, 'referee') ? `${names.army(c.armyId)}/` : ''}${c.regimentId} ${c.figures}`).join(', ');
      return `Battle ${f.data.contactId}, turn ${f.data.turn}: figures lost ${list}.`;
    }
  }
}
