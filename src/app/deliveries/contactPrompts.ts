import { createHash } from 'node:crypto';
import { ordinal, timeIndex } from '../../engine/clock/index.js';
import {
  awaitingAnswers,
  type BriefingPart,
  canAvoidTo,
  canEvade,
  describeConditions,
  describeDeployment,
  publicConditions,
  type DeploymentBriefing,
} from '../../engine/contact/index.js';
import { event, namesOf, PUBLIC, toArmy, type EngineEvent } from '../../engine/events/index.js';
import { isHostile, type Army } from '../../engine/forces/index.js';
import { neighbours } from '../../engine/hex/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { ContactRecord } from '../../engine/contact/index.js';
import type { CampaignTx } from '../campaignTx.js';
import type { Card, MessageButton } from '../messages.js';
import { channelMayRead, places } from './audience.js';
import { partsCard } from './cards.js';
import type { Outgoing } from './outgoing.js';
import { routeEvents, type RouteOptions } from './routeEvents.js';
import { sketchDeliveries } from './sketches.js';

/**
 * A button's custom id: `contact:<campaignId>:<contactId>:<choice>:<armyId>[:<hex>]:t<opened>.<facing>`:
 * `opened` is the time index the contact's round opened (a standing contact asks again each half
 * period under the same id, with a new opening time), `facing` four letters drawn from the ids of
 * the enemy forces the prompt named (forces joining or leaving a contact still at step 1 ask again
 * in the same round; a digest, not a count, so one force leaving as another joins still tells the
 * prompts apart; it is made from names the prompt gives, so it tells its reader nothing more). A press of an
 * earlier prompt's button is refused instead of answering a situation its presser has not read.
 * Ids sent before have no `t` part and answer what is open now, as they always did (journals
 * replay them).
 */
export function contactButtonId(campaignId: string, contactId: string, choice: string, armyId: string, moment: ContactMoment, hex?: string): string {
  return ['contact', campaignId, contactId, choice, armyId, ...(hex ? [hex] : []), `t${moment.opened}.${moment.facing}`].join(':');
}

/** What a contact prompt was sent for: its round (the time index it opened) and which enemy forces it named (facingDigest). */
export interface ContactMoment {
  readonly opened: number;
  readonly facing: string;
}

/** Four base-36 letters drawn from a set of army ids (sorted): which enemy forces a prompt named. */
export function facingDigest(armyIds: readonly string[]): string {
  const h = createHash('sha256').update([...armyIds].sort().join(',')).digest();
  return (h.readUInt32BE(0) % 36 ** 4).toString(36).padStart(4, '0');
}

/** What a contact button's custom id says; `moment` only on ids that carry it (see contactButtonId). */
export interface ContactButton {
  readonly campaignId: string;
  readonly contactId: string;
  readonly choice: string;
  readonly armyId: string;
  readonly hex?: string;
  readonly moment?: ContactMoment;
}

/** The moment part of an id (`t37.k3x0`): a hex is digits only, so the two never mix. */
const MOMENT_PART = /^t(\d+)\.([0-9a-z]{4})$/;

export function parseContactButton(customId: string): ContactButton | undefined {
  const parts = customId.split(':');
  const moment = parts.length > 5 ? MOMENT_PART.exec(parts[parts.length - 1] ?? '') : null;
  if (moment) parts.pop();
  if (parts.length < 5 || parts[0] !== 'contact') return undefined;
  const [, campaignId, contactId, choice, armyId, hex] = parts as [string, string, string, string, string, string | undefined];
  return { campaignId, contactId, choice, armyId, ...(hex ? { hex } : {}), ...(moment ? { moment: { opened: Number(moment[1]), facing: moment[2] as string } } : {}) };
}

/** The enemy forces an army faces in a contact (those its prompt names). */
export function opponentsIn(state: CampaignState, c: ContactRecord, armyId: string): string[] {
  const army = state.armies[armyId];
  if (!army) return [];
  return c.armyIds.filter((o) => { const other = state.armies[o]; return o !== armyId && other !== undefined && isHostile(state.sides, army.side, other.side); });
}

/** The moment of the prompt an army is sent now about contact `c`, facing `opponents` (opponentsIn). */
function momentOf(c: ContactRecord, opponents: readonly string[]): ContactMoment {
  return { opened: timeIndex(c.openedAt), facing: facingDigest(opponents) };
}

const names = (state: CampaignState, ids: readonly string[]): string => ids.map((id) => state.armies[id]?.name ?? id).join(', ');

/** A hex an army could avoid into now, and whether that takes a forced march. */
export interface AvoidOption {
  readonly hex: string;
  readonly forcedMarch: boolean;
}

/**
 * Hexes an army could avoid into now (at most four): those its points left cover, then those
 * only a forced march reaches. @see 001 Avoid, Evade, Delay, and Withdraw: Avoid
 */
function avoidHexes(state: CampaignState, map: MapModel, army: Army): AvoidOption[] {
  const options = neighbours(army.hex).flatMap((h): AvoidOption[] => {
    const r = canAvoidTo(state, map, army, h);
    return r.ok ? [{ hex: map.format(h), forcedMarch: r.value.forcedMarch }] : [];
  });
  return [...options.filter((o) => !o.forcedMarch), ...options.filter((o) => o.forcedMarch)].slice(0, 4);
}

/** The label of an avoid button: "Avoid to 1017", or "Avoid to 1017 (forced march)". */
function avoidLabel(option: AvoidOption): string {
  return `Avoid to ${option.hex}${option.forcedMarch ? ' (forced march)' : ''}`;
}

/** The command an avoid button stands for: "/avoid to:1017", or "/avoid to:1017 (forced march)". */
function avoidCommand(option: AvoidOption): string {
  return `/avoid to:${option.hex}${option.forcedMarch ? ' (forced march)' : ''}`;
}

/** What a change of contacts asks of the commanders: the prompt lines (logged), their buttons, and the public briefing. */
export interface ContactFollowUps {
  readonly events: EngineEvent[];
  /** Buttons for each army's DM, built here from the step each contact reached. */
  readonly buttons: Map<string, MessageButton[]>;
  /** The deployment briefings of battles that began, as cards, with the armies in each battle. */
  readonly briefings: { readonly armyIds: readonly string[]; readonly card: Card }[];
}

/**
 * Prompts for the contacts whose step began between two states: each commander gets a DM line
 * with buttons (step 1: proceed, delay, avoid to a hex, stay silent; decision: engage, evade),
 * and a battle that began gets its deployment briefing in the channel. The tick calls this too.
 */
function contactFollowUps(before: CampaignState, after: CampaignState, map: MapModel): ContactFollowUps {
  const events: EngineEvent[] = [];
  const briefings: { armyIds: readonly string[]; card: Card }[] = [];
  const buttons = new Map<string, MessageButton[]>();
  const ask = (armyId: string, line: EngineEvent, choices: MessageButton[]): void => {
    events.push(line);
    buttons.set(armyId, [...(buttons.get(armyId) ?? []), ...choices]);
  };
  for (const c of Object.values(after.contacts)) {
    const was = before.contacts[c.id];
    // A standing contact's next round (fight on the morrow, then still facing each other) keeps its
    // id, step and forces: its new opening time is what says it asks again.
    if (was && was.step === c.step && was.armyIds.join() === c.armyIds.join() && timeIndex(was.openedAt) === timeIndex(c.openedAt)) continue;
    if (c.step === 'step1') {
      for (const id of c.armyIds) {
        const army = after.armies[id];
        if (!army) continue;
        const opponents = opponentsIn(after, c, id);
        const moment = momentOf(c, opponents);
        ask(id, event('contactPrompt', toArmy(id), `Contact ${c.id} with ${names(after, opponents)}. Answer with a button, or in the campaign channel: \`/engage\` to proceed to the contact phase, \`/delay\`, \`/avoid to:HEX\` (with the points to move away, or by a forced march), or do nothing (silence). No answer by ${deadlineText(after)} counts as silence; if nobody proceeds, you fight on the morrow.`, { contactId: c.id, step: 'step1' }), [
          { id: contactButtonId(after.id, c.id, 'proceed', id, moment), label: 'Proceed to the contact phase', style: 'primary', command: '/engage' },
          { id: contactButtonId(after.id, c.id, 'delay', id, moment), label: 'Delay', style: 'secondary', command: '/delay' },
          ...avoidHexes(after, map, army).map((o): MessageButton => ({ id: contactButtonId(after.id, c.id, 'avoid', id, moment, o.hex), label: avoidLabel(o), style: 'secondary', command: avoidCommand(o) })),
          { id: contactButtonId(after.id, c.id, 'silent', id, moment), label: 'Stay silent (fight on the morrow)', style: 'secondary', command: 'do nothing' },
        ]);
      }
    } else if (c.step === 'decision') {
      for (const id of awaitingAnswers(c)) {
        const evade = canEvade(c, id);
        const moment = momentOf(c, opponentsIn(after, c, id));
        const choices: MessageButton[] = [{ id: contactButtonId(after.id, c.id, 'engage', id, moment), label: 'Engage', style: 'danger', command: '/engage' }];
        if (evade) choices.push({ id: contactButtonId(after.id, c.id, 'evade', id, moment), label: 'Evade', style: 'secondary', command: '/evade' });
        ask(id, event('contactPrompt', toArmy(id), `Contact ${c.id}: ${evade ? '`/engage` or `/evade`' : '`/engage` (you cannot evade)'}? Answer with a button, or in the campaign channel. No answer by ${deadlineText(after)} counts as engage. \`/intel\` in the campaign channel shows your estimate again.`, { contactId: c.id, step: 'decision' }), choices);
      }
    } else if (c.step === 'battle' && c.data.deployment) {
      const parts = briefingParts(after, c, c.data.deployment);
      events.push(event('deploymentBriefed', PUBLIC, parts.map(partLine).join('\n'), { contactId: c.id, armyIds: c.armyIds, parts }));
      briefings.push({ armyIds: c.armyIds, card: partsCard(parts) });
    }
  }
  return { events, buttons, briefings };
}

/** One part of the briefing as a line of text (the title line stands alone). */
function partLine(p: BriefingPart): string {
  return p.label === 'Battle' ? `**${p.text}**` : `${p.label}: ${p.text}`;
}

/**
 * The deployment briefing for the battle thread, as labelled parts built from the rules' typed
 * facts (the transport decides how they look): baselines, dice, schedules, then the conditions
 * the table needs (the hour, weather and fog's visibility, the ground, the arrangement of three
 * or more forces). Nothing a force keeps to itself: no strengths, no contact dice (the modifiers'
 * reasons go to the referee), and no force's own state (each commander has theirs by DM).
 */
function briefingParts(state: CampaignState, c: ContactRecord, b: DeploymentBriefing): BriefingPart[] {
  const names = namesOf(state.armies);
  const conditions = c.data.conditions ? describeConditions(publicConditions(c.data.conditions), names) : [];
  return [
    ...describeDeployment(c.id, b, names),
    ...conditions,
    { label: 'Result', text: `The referee records it with \`/battle result contact:${c.id}\`; each commander has their own force's state by DM.` },
  ];
}

/**
 * Routes a change's events into deliveries, with what the change of contacts implies: prompts
 * with buttons, the briefing, and the battlefield sketches (as pictures). `header` heads every
 * delivery (a tick's time line).
 */
export function deliveries(tx: CampaignTx, before: CampaignState, after: CampaignState, events: readonly EngineEvent[], header?: string, more: Pick<RouteOptions, 'chronicleFields' | 'refereeFields' | 'tickReport'> = {}): { events: EngineEvent[]; outbox: Outgoing[] } {
  const follow = contactFollowUps(before, after, tx.map);
  const all = [...events, ...follow.events];
  // A briefing places the armies of its battle: the channel's when positions are public, else
  // (fog of war) the commanders' in the battle and the referee's.
  const open = follow.briefings.filter((b) => channelMayRead(after.settings, places(b.armyIds)));
  const hidden = follow.briefings.filter((b) => !open.includes(b));
  const armyCards = new Map<string, Card[]>();
  for (const b of hidden) for (const id of b.armyIds) armyCards.set(id, [...(armyCards.get(id) ?? []), b.card]);
  const routed = routeEvents({ ...tx, state: after }, all, {
    buttons: follow.buttons, publicCards: open.map((b) => b.card), armyCards, refereeCards: hidden.map((b) => b.card),
    ...(header !== undefined ? { header } : {}), ...more,
  });
  return { events: all, outbox: [...routed, ...sketchDeliveries(tx, before, after)] };
}

/** When missing answers turn into the defaults, in the campaign's terms. */
export function deadlineText(state: CampaignState): string {
  const n = Math.max(1, state.settings.decisionDeadlineTicks ?? 1);
  return n === 1 ? 'the next tick' : `the ${ordinal(n)} tick from now`;
}
