import { describeEstimate, type ContactEvent } from '../../engine/contact/index.js';
import { signedModifier, type EngineEvent } from '../../engine/events/index.js';
import { ordinal } from '../../engine/clock/index.js';
import { describeRoute } from '../../engine/movement/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { Card, CardField } from '../messages.js';

/**
 * Cards built from the log's events: the tick chronicle in the channel, each commander's DM, the
 * referee's digest. Known facts become labelled fields (dice, estimates, cards, the answer
 * asked for); any other event stays a line of the card's text, in order, so new facts are shown
 * without a change here.
 */

/** The colour of an army's side (`#rrggbb`), for its cards. */
export function sideColour(state: Pick<CampaignState, 'armies' | 'sides'>, armyId: string): string | undefined {
  const side = state.armies[armyId]?.side;
  return side ? state.sides[side]?.colour : undefined;
}

/** The chronicle's sections: public events by what they are about. */
const SECTION_OF: Readonly<Record<string, string>> = {
  armyMoved: 'Movement', armyBlocked: 'Movement', riverCrossed: 'Movement', crossingStarted: 'Movement', armyFatigued: 'Movement',
  fatigueRecovered: 'Movement', stragglersLost: 'Movement', stragglersRejoined: 'Movement', armyReformed: 'Movement', armyAssembled: 'Movement',
  hexContested: 'Movement', hexContestDecided: 'Movement', raftsFailed: 'Movement', timberFound: 'Movement', armyPlaced: 'Movement',
  contactMade: 'Contacts and battles', contactPhaseRun: 'Contacts and battles', contactEvaded: 'Contacts and battles', contactDeferred: 'Contacts and battles',
  contactParted: 'Contacts and battles',
  battleJoined: 'Contacts and battles', forceDisengaged: 'Contacts and battles', battleFought: 'Contacts and battles', contactSplit: 'Contacts and battles',
  armyAvoided: 'Contacts and battles', forceDisplaced: 'Contacts and battles', armyDestroyed: 'Contacts and battles', roleAssumed: 'Contacts and battles',
  forceRelieved: 'Contacts and battles', supportSwitched: 'Contacts and battles', forceExploited: 'Contacts and battles', armyManeuvered: 'Contacts and battles',
  fleetSailed: 'Ships and couriers', fleetSighted: 'Ships and couriers', fleetStopped: 'Ships and couriers', fleetOutcome: 'Ships and couriers',
  armyEmbarked: 'Ships and couriers', armyDebarked: 'Ships and couriers', regimentsLanded: 'Ships and couriers',
  courierSent: 'Ships and couriers', courierDelivered: 'Ships and couriers', courierCaptured: 'Ships and couriers',
  weatherRolled: 'Weather', rainLevelChanged: 'Weather', droughtChanged: 'Weather', droughtTookToll: 'Weather', droughtCasualtiesSummary: 'Weather',
};

/** Events the card says otherwise (the clock's move is its title; the briefing has a card of its own; the dice its footer). */
const NOT_IN_CHRONICLE = new Set(['clockAdvanced', 'deploymentBriefed', 'diceSeedRevealed', 'diceSeedCommitted']);

/**
 * Lines the chronicle leaves out because it said them already: a standoff going on with the same
 * forces (its new round and its new deferral). It is said when it starts and when it changes;
 * the commanders' own DMs and the log keep every round (the campaign book folds them too).
 */
export function saidBefore(e: { readonly type: string; readonly data?: unknown }): boolean {
  const data = typeof e.data === 'object' && e.data !== null ? e.data as Readonly<Record<string, unknown>> : {};
  return (e.type === 'contactMade' && data['standing'] === 'same') || (e.type === 'contactDeferred' && data['again'] === true);
}

/** A string field of an event's data, if it has one. */
const textOf = (e: EngineEvent, key: string): string | undefined => (typeof e.data?.[key] === 'string' ? e.data[key] : undefined);

/**
 * A tick's dice lines folded into the card's footer, one line: the seed of the period just over
 * (for anyone to check its dice) and the SHA-256 of the seeds of the period after next, published
 * in the channel before it is played (Discord's timestamp is what makes the commitment worth
 * something). The chronicle's body holds no hex string; `/dice log tick:N` has the lines in full.
 * @see docs/dice.md
 */
function diceFooter(events: readonly EngineEvent[]): string | undefined {
  const parts: string[] = [];
  let check: number | undefined;
  for (const e of events) {
    const period = typeof e.data?.period === 'number' ? e.data.period : undefined;
    if (period === undefined) continue;
    if (e.type === 'diceSeedRevealed') {
      parts.push(`period ${period} seed \`${textOf(e, 'seed') ?? '?'}\``);
      check = period;
    } else if (e.type === 'diceSeedCommitted' && e.data?.late !== true) {
      const hashes = [textOf(e, 'commitment'), textOf(e, 'secretCommitment')].flatMap((h) => (h ? [`\`${h}\``] : []));
      parts.push(`period ${period} SHA-256 ${hashes.join(' / ')}`);
    }
  }
  if (parts.length === 0) return undefined;
  return `Dice · ${parts.join(' · ')}${check !== undefined ? ` · \`/dice verify tick:${check}\`` : ''}`;
}

/** Fields in a fixed order, one per section that has lines. */
function sections(events: readonly EngineEvent[], sectionOf: (e: EngineEvent) => string | undefined): { fields: CardField[]; rest: string[] } {
  const bySection = new Map<string, string[]>();
  const rest: string[] = [];
  for (const e of events) {
    const name = sectionOf(e);
    if (name) bySection.set(name, [...(bySection.get(name) ?? []), e.text]);
    else rest.push(e.text);
  }
  return { fields: [...bySection].map(([name, lines]) => ({ name, value: lines.join('\n') })), rest };
}

/**
 * The tick chronicle as a card: what happened this half period, by section (movement, contacts
 * and battles, ships and couriers, weather), then `extra` (the next deadline). The deployment
 * briefings of battles joined follow as cards of their own.
 */
export function chronicleCard(title: string, events: readonly EngineEvent[], extra: readonly CardField[] = []): Card {
  // The one-time notice that an upgraded campaign's dice turn secret is a line of its own, not the footer's.
  const shown = events.filter((e) => (!NOT_IN_CHRONICLE.has(e.type) || e.data?.late === true) && !saidBefore(e));
  const { fields, rest } = sections(shown, (e) => SECTION_OF[e.type]);
  // With nothing else to tell, the clock's own line (in fog of war, news may be private).
  const clock = events.find((e) => e.type === 'clockAdvanced')?.text;
  const description = rest.length > 0 ? rest.join('\n') : fields.length === 0 ? clock ?? 'No news this half period.' : undefined;
  const footer = diceFooter(events);
  return { title, ...(description ? { description } : {}), fields: [...fields, ...extra], ...(footer ? { footer } : {}) };
}

/** A contact's dice line: "3 +1 (all opponents in clear terrain) = 4". */
function diceLine(die: { readonly raw: number; readonly modifiers: readonly { readonly value: number; readonly label: string }[]; readonly modified: number }): string {
  return `${die.raw}${die.modifiers.map((m) => signedModifier(m.value, m.label)).join('')} = ${die.modified}`;
}

/** The fields a commander's event gives their card, or undefined when it is a plain line. */
function armyFields(e: EngineEvent, name: (id: string) => string): CardField[] | undefined {
  const fact = e as ContactEvent;
  switch (fact.type) {
    case 'contactEstimated': {
      const d = fact.data;
      const fields: CardField[] = [
        { name: `Contact dice (${d.contactId})`, value: `${diceLine(d.die)}${d.die.modified <= 1 ? ': you are unaware of the enemy and cannot evade' : ''}`, inline: true },
        { name: 'Contact hour', value: `${ordinal(d.hour)} hour`, inline: true },
      ];
      for (const est of Object.values(d.estimates)) fields.push({ name: `Estimate: ${name(est.targetId)}`, value: describeEstimate(est, name(est.targetId)).replace(`${name(est.targetId)}: `, '') });
      return fields;
    }
    case 'scoutsReturned':
      return [{ name: 'Your scouts', value: fact.data.scouts.join(', ') || 'none sent', inline: true }];
    case 'terrainDealt':
      return [{ name: 'Your terrain cards', value: e.text.replace(/^Your terrain cards: /, '').replace(/\.$/, ''), inline: true }];
    default:
      if (e.type === 'contactPrompt') return [{ name: 'Your answer', value: e.text }];
      if (e.type === 'movementOutcome') return [{ name: 'Movement', value: e.text }];
      return undefined;
  }
}

/** The army a movement event is about. */
const movedArmy = (e: EngineEvent): string | undefined => (typeof e.data?.armyId === 'string' ? e.data.armyId : undefined);

/**
 * A commander's events with each march told once. In fog of war the public line of a march
 * ("Hadewych the Arbiter marched from 1122 to 1222.", which would place the army in the channel)
 * comes to the army's commander (fog.ts), beside the commander's own account of the same march
 * ("Morning: Army of Hadewych marched 1122 -> 1222; 6 of 12 points left today."). The account
 * stays; the public line goes, and what only it told (the hexes passed, the rivers crossed) is
 * added to the account. The referee's digest reads the same. Events of other kinds, and a march
 * line with no account beside it, are unchanged.
 */
export function oneTelling(events: readonly EngineEvent[]): EngineEvent[] {
  const accounted = new Set(events.flatMap((e) => (e.type === 'movementOutcome' ? [movedArmy(e)] : [])));
  const routes = new Map<string, string>();
  for (const e of events) {
    const id = movedArmy(e);
    if (e.type !== 'armyMoved' || id === undefined || !accounted.has(id)) continue;
    const d = e.data as unknown as Parameters<typeof describeRoute>[0];
    const route = describeRoute({ path: d.path ?? [], crossings: d.crossings ?? [] });
    if (route) routes.set(id, route);
  }
  return events.flatMap((e) => {
    const id = movedArmy(e);
    if (e.type === 'armyMoved' && id !== undefined && accounted.has(id)) return [];
    const route = e.type === 'movementOutcome' && id !== undefined ? routes.get(id) : undefined;
    if (route && id !== undefined) routes.delete(id);
    return route ? [{ ...e, text: `${e.text} ${route}` }] : [e];
  });
}

/**
 * A commander's DM as a card: the contact or the half period as its title, the side's colour,
 * contact dice, hour, estimates, scouts and terrain cards as fields, the answer asked for last;
 * everything else as lines.
 */
export function armyCard(state: CampaignState, armyId: string, events: readonly EngineEvent[], when?: string): Card {
  const name = (id: string): string => state.armies[id]?.name ?? id;
  const contacts = [...new Set(events.flatMap((e) => (typeof e.data?.contactId === 'string' ? [e.data.contactId] : [])))];
  const lines: string[] = [];
  const fields: CardField[] = [];
  const answers: CardField[] = [];
  for (const e of oneTelling(events)) {
    // A battle's briefing travels as a card of its own.
    if (e.type === 'deploymentBriefed') continue;
    const f = armyFields(e, name);
    if (!f) lines.push(e.text);
    else if (e.type === 'contactPrompt') answers.push(...f);
    else fields.push(...f);
  }
  const colour = sideColour(state, armyId);
  return {
    title: contacts.length > 0 ? `Contact ${contacts.join(', ')}${when ? ` (${when})` : ''}` : when ?? 'Orders and reports',
    ...(colour ? { colour } : {}),
    ...(lines.length > 0 ? { description: lines.join('\n') } : {}),
    fields: [...fields, ...answers],
  };
}

/**
 * A card from labelled parts (the deployment briefing): the part labelled "Battle" is its
 * title, every other part a field named by its label, in order.
 */
export function partsCard(parts: readonly { readonly label: string; readonly text: string }[]): Card {
  const title = parts.find((p) => p.label === 'Battle')?.text ?? 'Battle';
  return { title, fields: parts.filter((p) => p.label !== 'Battle').map((p) => ({ name: p.label, value: p.text })) };
}
