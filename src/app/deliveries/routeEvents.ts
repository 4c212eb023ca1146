import { escapeName } from '../../engine/events/index.js';
import { byId } from '../../engine/state/index.js';
import type { EngineEvent } from '../../engine/events/index.js';
import type { Card, CardField, MessageButton } from '../messages.js';
import { commandersOf } from '../members.js';
import { deliver, OPEN, REFEREE_ONLY, secretOf, type AudienceTx } from './audience.js';
import { armyCard, chronicleCard, oneTelling } from './cards.js';
import { fogged } from './fog.js';
import type { Outgoing } from './outgoing.js';
import { tickReports, type TickReportOptions } from './tickReport.js';

export interface RouteOptions {
  /** A first line for every delivery (the tick's "Day 1, morning → Day 1, afternoon"): the chronicle's title. */
  readonly header?: string;
  readonly publicToChannel?: boolean;
  /** Buttons to attach to an army's DM (the contact prompts), by army id. */
  readonly buttons?: ReadonlyMap<string, readonly MessageButton[]>;
  /** More fields for the chronicle card (the next deadline). */
  readonly chronicleFields?: readonly CardField[];
  /** More fields for the referee's card (what waits on them). */
  readonly refereeFields?: readonly CardField[];
  /** Cards to post with the public lines (the deployment briefings). */
  readonly publicCards?: readonly Card[];
  /** Cards for an army's commanders only, by army id (the briefings fog of war keeps out of the channel). */
  readonly armyCards?: ReadonlyMap<string, readonly Card[]>;
  /** Cards for the referee (those same briefings). */
  readonly refereeCards?: readonly Card[];
  /** A tick: each commander gets their own tick report (one DM each, by their `/notify` choice) instead of a DM per army. */
  readonly tickReport?: TickReportOptions;
}

/**
 * Turns engine events into deliveries: public lines to the channel (a tick's chronicle as a
 * card), each army's lines to its commanders (a card with the dice, estimates, cards and the
 * answer asked for as fields), referee lines to the referee (with a digest of the armies nobody
 * commands).
 */
export function routeEvents(tx: AudienceTx, events: readonly EngineEvent[], opts: RouteOptions = {}): Outgoing[] {
  // In fog of war, what would place an army goes to its commander instead of the channel.
  const list = fogged(tx.state, events);
  const when = opts.header ? stripBold(opts.header) : undefined;
  const byArmy = eventsByArmy(list, opts);
  const commanded = armyDeliveries(tx, byArmy, when, opts);
  return [
    ...publicDelivery(tx, list, opts),
    ...commanded.out,
    ...(opts.tickReport ? tickReports(tx, byArmy, tickReportOptions(opts.tickReport, when, opts)) : []),
    ...refereeDelivery(tx, list, commanded.unassigned, when, opts),
  ];
}

/** A DM's text says whose it is and which campaign; its card (titled with the contact or the half period) the rest. */
const headline = (tx: AudienceTx, who: string): string => `**${who}** (${escapeName(tx.state.name)})`;

/** Step 1: what is left public after the fog filter is open to everyone (the chronicle when there is a header). */
function publicDelivery(tx: AudienceTx, list: readonly EngineEvent[], opts: RouteOptions): Outgoing[] {
  const pub = list.filter((e) => e.audience.kind === 'public');
  const publicCards = opts.publicCards ?? [];
  if (!(opts.publicToChannel ?? true) || (pub.length === 0 && publicCards.length === 0)) return [];
  const data = { events: pub.map((e) => ({ type: e.type, data: e.data })) };
  if (opts.header) {
    return deliver(tx, 'channel', OPEN, { content: opts.header, cards: [chronicleCard(`Chronicle of ${escapeName(tx.state.name)}`, pub, opts.chronicleFields), ...publicCards], data });
  }
  const shown = pub.filter((e) => e.type !== 'deploymentBriefed');
  return deliver(tx, 'channel', OPEN, { content: shown.map((e) => e.text).join('\n'), ...(publicCards.length > 0 ? { cards: publicCards } : {}), data });
}

/** Step 2: each army's events (and an empty list for an army that only has cards to get). */
function eventsByArmy(list: readonly EngineEvent[], opts: RouteOptions): Map<string, EngineEvent[]> {
  const byArmy = new Map<string, EngineEvent[]>();
  for (const e of list) if (e.audience.kind === 'army') byArmy.set(e.audience.armyId, [...(byArmy.get(e.audience.armyId) ?? []), e]);
  for (const armyId of opts.armyCards?.keys() ?? []) if (!byArmy.has(armyId)) byArmy.set(armyId, []);
  return byArmy;
}

/**
 * Step 3: a DM per commanded army (unless a tick report carries them), and for the armies nobody
 * commands yet one line each for the referee's digest instead of a DM per army.
 */
function armyDeliveries(
  tx: AudienceTx, byArmy: ReadonlyMap<string, readonly EngineEvent[]>, when: string | undefined, opts: RouteOptions,
): { out: Outgoing[]; unassigned: string[] } {
  const out: Outgoing[] = [];
  const unassigned: string[] = [];
  for (const [armyId, evs] of byArmy) {
    const name = byId(tx.state.armies, armyId)?.name ?? armyId;
    if (commandersOf(tx, armyId).length === 0) {
      if (evs.length > 0) unassigned.push(`__${name}__: ${oneTelling(evs).map((e) => e.text).join(' ')}`);
      continue;
    }
    if (opts.tickReport) continue;
    const buttons = opts.buttons?.get(armyId) ?? [];
    const card = armyCard(tx.state, armyId, evs, when);
    out.push(...deliver(tx, { army: armyId }, secretOf([armyId]), { content: headline(tx, name), cards: [card, ...(opts.armyCards?.get(armyId) ?? [])], data: { armyId, events: evs.map((e) => ({ type: e.type, data: e.data })) }, buttons }));
  }
  return { out, unassigned };
}

/** Step 3 for a tick: the tick report's options with the half period, buttons and cards of this routing. */
function tickReportOptions(base: TickReportOptions, when: string | undefined, opts: RouteOptions): TickReportOptions {
  return { ...base, ...(when ? { when } : {}), ...(opts.buttons ? { buttons: opts.buttons } : {}), ...(opts.armyCards ? { armyCards: opts.armyCards } : {}) };
}

/** Step 4: the referee's card: their events, the digest of armies nobody commands, what waits on them. */
function refereeDelivery(
  tx: AudienceTx, list: readonly EngineEvent[], unassigned: readonly string[], when: string | undefined, opts: RouteOptions,
): Outgoing[] {
  const ref = list.filter((e) => e.audience.kind === 'referee' && e.type !== 'diceRolled');
  const refFields = opts.refereeFields ?? [];
  const refCards = opts.refereeCards ?? [];
  if (ref.length === 0 && unassigned.length === 0 && refFields.length === 0 && refCards.length === 0) return [];
  const contacts = [...new Set(ref.flatMap((e) => (typeof e.data?.contactId === 'string' ? [e.data.contactId] : [])))];
  const card: Card = {
    title: contacts.length > 0 ? `Contact ${contacts.join(', ')}` : when ?? 'Reports',
    ...(ref.length > 0 ? { description: ref.map((e) => e.text).join('\n') } : {}),
    fields: [...(unassigned.length > 0 ? [{ name: 'Armies without a commander', value: unassigned.join('\n') }] : []), ...refFields],
  };
  return deliver(tx, 'referees', REFEREE_ONLY, { content: headline(tx, 'Referee'), cards: [card, ...refCards], data: { events: ref.map((e) => ({ type: e.type, data: e.data })) } });
}

/** A Markdown header without its bold marks (a card title is bold already). */
const stripBold = (text: string): string => text.replace(/\*\*/g, '');
