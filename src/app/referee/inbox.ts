import { seatsField } from '../table/away.js';
import { byId, type ContactRecord, isContactStep } from '../../engine/state/index.js';
import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { awaitingAnswers, describeStep, isOpen } from '../../engine/contact/index.js';
import { type EngineEvent, escapeName, REFEREE } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { resumeCampaignById } from '../campaign/lifecycle.js';
import { resolveContactChange } from '../contact/contactAdmin.js';
import { UserError } from '../errors.js';
import { discordTime } from '../format.js';
import { ephemeral, withCards, type CardField, type MessageButton, type Reply } from '../messages.js';
import { givenUpReason, sendAgain } from './heldMessages.js';
import { deliver, OPEN, secretOf } from '../deliveries/audience.js';
import { isReferee } from '../referees.js';
import { plansField } from '../army/plansField.js';
import { commandersOf, memberName, shownName } from '../members.js';
import { inCampaign, readCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { Outgoing } from '../deliveries/outgoing.js';
import type { UndeliveredRow } from '../../db/outboxRepo.js';

/** `a.localeCompare(b)` (the default locale), its collator made once, on first use (not at start: ICU's collation data costs ~12 ms to load): the waiting line sorts every army without orders. */
let byName: Intl.Collator | undefined;

/**
 * The referee's inbox: everything that waits on the referee, in one private answer, each with a
 * button for the common action. Buttons carry `referee:<campaignId>:<action>[:<argument>[:<moment>]]`
 * (a moment on Resolve only: resolveMoment).
 */

/** Actions of the inbox's buttons. */
type Action = 'nudge' | 'nudgeAll' | 'resolve' | 'record' | 'intel' | 'resend' | 'resume';

const buttonId = (campaignId: string, action: Action, arg = '', moment = ''): string => ['referee', campaignId, action, ...(arg ? [arg] : []), ...(moment ? [moment] : [])].join(':');

/**
 * The moment a Resolve button was offered for: the contact's step and the time index its round
 * opened (`step1.t3`), the id's last part: `referee:<campaignId>:resolve:<contactId>:<step>.t<opened>`.
 * Pressed once the contact has moved on (its contact phase ran, or a new round opened), it is
 * refused instead of resolving with defaults a question the referee has not read. Ids sent
 * before (no moment) resolve whatever waits now, as they always did.
 */
const resolveMoment = (c: Pick<ContactRecord, 'step' | 'openedAt'>): string => `${c.step}.t${timeIndex(c.openedAt)}`;

/** The inbox's Resolve button of an open contact, carrying the moment it was offered for. */
function resolveButton(tx: CampaignTx, contactId: string): MessageButton {
  const record = byId(tx.state.contacts, contactId);
  return { id: buttonId(tx.meta.id, 'resolve', contactId, record ? resolveMoment(record) : ''), label: `Resolve ${contactId} now (defaults)`, style: 'danger', command: `/contact resolve contact:${contactId}` };
}

/** Refuses a Resolve whose moment (an id's `<step>.t<opened>`) is not the contact's now; a contact gone is left to /contact resolve's own refusal. */
function refuseMovedOn(tx: CampaignTx, contactId: string, moment: string): void {
  const m = /^(\w+)\.t(\d+)$/.exec(moment);
  const step = m?.[1];
  const c = byId(tx.state.contacts, contactId);
  if (!m || !isContactStep(step) || !c || moment === resolveMoment(c)) return;
  const was = `${describeStep(step)}, in its round opened on ${formatGameTime(fromIndex(Number(m[2])))}`;
  const now = `${describeStep(c.step)}, in its round opened on ${formatGameTime(c.openedAt)}`;
  throw new UserError('contact.roundOver', `That button was for contact ${c.id} ${was}; it is now ${now}. Nothing was resolved: \`/referee inbox\` shows what waits now.`);
}

/** What waits on the referee, by kind. */
interface Waiting {
  readonly contacts: readonly { readonly id: string; readonly text: string; readonly waitingFor: readonly string[] }[];
  readonly battles: readonly { readonly id: string; readonly text: string }[];
  /** `who`: the player's name as a message writes it (escaped); `name`: as typed, for a button's label (Discord reads no markdown there). */
  readonly bounced: readonly { readonly userId: string; readonly who: string; readonly name: string; readonly count: number; readonly latest: string }[];
  readonly givenUp: readonly { readonly id: number; readonly text: string; readonly at: string }[];
  readonly noOrders: readonly { readonly armyId: string; readonly text: string }[];
  /** Armies nobody commands (they take the default order). */
  readonly unassigned: number;
  readonly catchUp: string | undefined;
}

/** What waits on the referee; `undelivered` is the campaign's undelivered messages when the caller has read them already. */
function waitingOf(tx: CampaignTx, undelivered: readonly UndeliveredRow[] = tx.read.undelivered()): Waiting {
  const s = tx.state;
  const name = (id: string): string => s.armies[id]?.name ?? id;
  const who = (userId: string): string => shownName(tx, userId);
  const commanders = (armyId: string): string => commandersOf(tx, armyId).map(who).join(' & ');
  const named = (armyId: string): string => (commanders(armyId) ? `${name(armyId)} (${commanders(armyId)})` : `${name(armyId)} (no commander)`);
  const open = Object.values(s.contacts).filter((c) => isOpen(c) && c.step !== 'battle');
  const contacts = open.map((c) => {
    const waitingFor = awaitingAnswers(c);
    return {
      id: c.id,
      waitingFor,
      text: `${c.id}: ${c.armyIds.map(name).join(' vs ')}, ${describeStep(c.step)}; ${waitingFor.length > 0 ? `waiting for ${waitingFor.map(named).join(', ')}` : 'everyone has answered'}.`,
    };
  });
  const battles = Object.values(s.contacts).filter((c) => c.step === 'battle').map((c) => ({
    id: c.id,
    text: `${c.id}: ${c.armyIds.map(name).join(' vs ')} at ${c.hexes.map((h) => tx.map.format(h)).join('/')}, joined ${formatGameTime(c.openedAt)}.`,
  }));
  const byUser = new Map<string, { count: number; latest: string }>();
  for (const m of undelivered) {
    if (m.status !== 'dmClosed' || !m.userId) continue;
    const was = byUser.get(m.userId);
    byUser.set(m.userId, { count: (was?.count ?? 0) + 1, latest: was && was.latest > m.createdAt ? was.latest : m.createdAt });
  }
  const bounced = [...byUser].map(([userId, b]) => ({ userId, who: who(userId), name: memberName(tx, userId) || userId, ...b }));
  const givenUp = undelivered.filter((m) => m.status === 'failed').map((m) => ({
    id: m.id,
    at: m.createdAt,
    text: `${m.to === 'dm' ? `DM to ${who(m.userId ?? '')}` : 'post in the campaign channel'} (${m.createdAt.slice(0, 16).replace('T', ' ')} UTC): ${givenUpReason(m).slice(0, 140)}`,
  }));
  const live = Object.values(s.armies).filter((a) => !a.status.destroyed && !s.orders[a.id]);
  const noOrders = live.filter((a) => commandersOf(tx, a.id).length > 0).sort((a, b) => (byName ??= new Intl.Collator()).compare(a.name, b.name)).map((a) => ({ armyId: a.id, text: named(a.id) }));
  const unassigned = live.filter((a) => commandersOf(tx, a.id).length === 0).length;
  const due = tx.meta.nextTickAt;
  const catchUp = s.status === 'paused' && due !== null && Date.parse(due) <= tx.now.getTime()
    ? `The campaign is paused after downtime: the ticks due since ${discordTime(due)} were not played. Choose what becomes of them.`
    : undefined;
  return { contacts, battles, bounced, givenUp, noOrders, unassigned, catchUp };
}

/**
 * One line for the referee's DM after a tick, when something waits on them (battles to record,
 * contacts waiting for answers, DMs that bounced, deliveries given up, a catch-up held), or
 * undefined. Commanders without orders are not counted here: right after a tick, that is everyone.
 * With `before` (the transaction before the tick), only what is new is counted: a battle or a
 * contact that was not waiting before the tick (a contact still waiting for the same answers, or
 * a standoff's next round, is no news), a DM bounced or a delivery given up since the last tick.
 */
export function waitingLine(tx: CampaignTx, before?: CampaignTx): string | undefined {
  // Both read the same messages (the tick does not touch the outbox until it is stored): read once.
  const undelivered = tx.read.undelivered();
  const w = waitingOf(tx, undelivered);
  const was = before ? waitingOf(before, undelivered) : undefined;
  const since = before?.meta.lastTickAt ?? '';
  const notIn = <T,>(old: readonly T[] | undefined, key: (x: T) => string) => {
    const seen = new Set((old ?? []).map(key));
    return (x: T): boolean => !seen.has(key(x));
  };
  const waitingContacts = (x: Waiting): Waiting['contacts'] => x.contacts.filter((c) => c.waitingFor.length > 0);
  const parts = [
    w.catchUp && !was?.catchUp ? 'a catch-up to decide' : '',
    count(w.battles.filter(notIn(was?.battles, (b) => b.id)).length, 'battle to record', 'battles to record'),
    count(waitingContacts(w).filter(notIn(was ? waitingContacts(was) : undefined, (c) => c.id)).length, 'contact waiting for answers', 'contacts waiting for answers'),
    count(w.bounced.filter((b) => !before || b.latest > since).length, 'player whose DMs bounced', 'players whose DMs bounced'),
    count(w.givenUp.filter((g) => !before || g.at > since).length, 'delivery given up', 'deliveries given up'),
  ].filter((p) => p.length > 0);
  if (parts.length === 0) return undefined;
  return `${before ? 'New: ' : ''}${parts.join(', ')}. \`/referee inbox\` lists ${before ? 'everything that waits' : 'them'} with buttons.`;
}

const count = (n: number, one: string, many: string): string => (n === 0 ? '' : `${n} ${n === 1 ? one : many}`);

/** `/referee inbox`: privately, what waits on the referee, each kind a field, with buttons for the common actions. */
export function refereeInbox(app: App, actor: Actor): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'read the referee inbox');
    const w = waitingOf(tx);
    const id = tx.meta.id;
    const fields: CardField[] = [];
    const buttons: MessageButton[] = [];
    const add = (b: MessageButton): void => {
      // Discord shows at most 25 buttons on one message.
      if (buttons.length < 25 && !buttons.some((x) => x.id === b.id)) buttons.push(b);
    };
    if (w.catchUp) {
      fields.push({ name: 'Catch-up held', value: w.catchUp });
      add({ id: buttonId(id, 'resume', 'none'), label: 'Resume: skip the missed ticks', style: 'primary', command: '/campaign resume missed:none' });
      add({ id: buttonId(id, 'resume', 'one'), label: 'Resume: play one now', style: 'secondary', command: '/campaign resume missed:one' });
      add({ id: buttonId(id, 'resume', 'all'), label: 'Resume: play them all', style: 'secondary', command: '/campaign resume missed:all' });
    }
    if (w.battles.length > 0) {
      fields.push({ name: 'Battles waiting for their result', value: w.battles.map((b) => b.text).join('\n') });
      for (const b of w.battles) add({ id: buttonId(id, 'record', b.id), label: `Record ${b.id}`, style: 'primary', command: `/battle result contact:${b.id}` });
    }
    if (w.contacts.length > 0) {
      fields.push({ name: 'Open contacts', value: w.contacts.map((c) => c.text).join('\n') });
      for (const c of w.contacts) {
        for (const armyId of c.waitingFor) {
          if (commandersOf(tx, armyId).length > 0) add({ id: buttonId(id, 'nudge', armyId), label: `Nudge ${tx.state.armies[armyId]?.name ?? armyId}`, style: 'secondary' });
        }
        add(resolveButton(tx, c.id));
      }
    }
    if (w.bounced.length > 0) {
      fields.push({ name: 'DMs that bounced (closed DMs)', value: w.bounced.map((b) => `${b.who}: ${b.count} message${b.count === 1 ? '' : 's'} kept for \`/intel\``).join('\n') });
      for (const b of w.bounced) add({ id: buttonId(id, 'intel', b.userId), label: `Remind ${b.name} of /intel`, style: 'secondary' });
    }
    if (w.givenUp.length > 0) {
      fields.push({ name: 'Deliveries given up', value: w.givenUp.map((g) => g.text).join('\n') });
      for (const g of w.givenUp) add({ id: buttonId(id, 'resend', String(g.id)), label: `Send again (${g.id})`, style: 'secondary' });
    }
    if (w.noOrders.length > 0 || w.unassigned > 0) {
      const lines = [
        ...(w.noOrders.length > 0 ? [w.noOrders.map((o) => o.text).join(', ')] : []),
        ...(w.unassigned > 0 ? [`and ${w.unassigned} arm${w.unassigned === 1 ? 'y' : 'ies'} nobody commands`] : []),
      ];
      fields.push({ name: `Without orders for ${formatGameTime(tx.state.clock)} (they will ${tx.state.settings.defaultOrder})`, value: lines.join('\n') });
      if (w.noOrders.length > 0) add({ id: buttonId(id, 'nudgeAll'), label: `Nudge ${w.noOrders.length === 1 ? 'the commander' : `all ${w.noOrders.length} commanders`} without orders`, style: 'secondary' });
    }
    const empty = fields.length === 0;
    // Not waiting on the referee, but theirs to watch: what the armies following plans are doing.
    const plans = plansField(tx);
    const seats = seatsField(tx);
    const card = { title: 'Referee inbox', description: empty ? 'Nothing waits on you.' : `${formatGameTime(tx.state.clock)}; the campaign is ${tx.state.status}.`, fields: [...fields, ...(plans ? [plans] : []), ...(seats ? [seats] : [])] };
    const data = { contacts: w.contacts.map((c) => ({ id: c.id, waiting: c.waitingFor })), battles: w.battles.map((b) => b.id), bounced: w.bounced.map((b) => b.userId), givenUp: w.givenUp.map((g) => g.id), noOrders: w.noOrders.map((o) => o.armyId), unassigned: w.unassigned, catchUp: w.catchUp !== undefined };
    return [withCards(ephemeral(empty ? `Nothing waits on you in **${escapeName(tx.state.name)}**.` : `What waits on you in **${escapeName(tx.state.name)}**:`, data), [card], buttons)];
  });
}

/** A DM nudging an army's commanders about what they owe now (an answer, or orders). */
function nudge(tx: CampaignTx, armyId: string): Outgoing[] {
  const army = byId(tx.state.armies, armyId);
  if (!army) throw new UserError('referee.unknownArmy', 'That army is no longer in the campaign.');
  const contact = Object.values(tx.state.contacts).find((c) => isOpen(c) && awaitingAnswers(c).includes(armyId));
  const due = tx.meta.nextTickAt;
  const what = contact
    ? `contact ${contact.id} waits for your answer (${contact.step === 'step1' ? '`/engage`, `/delay`, `/avoid to:HEX`, or the buttons of its DM' : '`/engage` or `/evade`, or the buttons of its DM'}).`
    : `${army.name} has no orders for ${formatGameTime(tx.state.clock)}${due ? `; orders close ${discordTime(due, 'R')}` : ''}. Without orders, it will ${tx.state.settings.defaultOrder}.`;
  return deliver(tx, { army: armyId }, secretOf([armyId]), { content: `**${army.name}** (${escapeName(tx.state.name)}): the referee asks: ${what}`, data: { nudge: armyId, ...(contact ? { contactId: contact.id } : {}) } });
}

/** The exact command to record a battle, with every regiment's id to fill in. */
function recordHelp(tx: CampaignTx, contactId: string): string {
  const c = byId(tx.state.contacts, contactId);
  if (!c || c.step !== 'battle') throw new UserError('referee.noBattle', `Contact ${contactId} has no battle waiting for its result any more.`);
  const losses = c.armyIds.flatMap((id) => (tx.state.armies[id]?.regiments ?? []).map((r) => `${id}/${r.id}=0`)).join(', ');
  const regiments = c.armyIds.map((id) => `${tx.state.armies[id]?.name ?? id}: ${(tx.state.armies[id]?.regiments ?? []).map((r) => `\`${r.id}\` ${r.name}`).join(', ')}`);
  return [`Record battle ${contactId} after the tabletop game with the figures each regiment lost (and any withdrawal):`, `\`/battle result contact:${contactId} losses:"${losses}"\``, 'Add `withdraw:"army=formed|retreat|rout"` and `pursue:"army"` when they apply.', ...regiments].join('\n');
}

/**
 * A press of one of the inbox's buttons, by a referee of the campaign: nudge commanders, resolve
 * a contact with its defaults, show how to record a battle, remind a player of /intel, send a
 * given-up delivery again, or resume after a catch-up pause.
 */
export function refereeButton(app: App, userId: string, customId: string, roleIds: readonly string[] = []): Reply[] {
  const [, campaignId = '', action = '', arg = '', moment = ''] = customId.split(':');
  const check = (tx: CampaignTx): void => {
    if (!isReferee(tx.meta, tx.members, tx.state.settings, { userId, roleIds })) throw new UserError('campaign.refereeOnly', 'Only the referee can use the inbox.');
  };
  if (action === 'resume') {
    readCampaign(app, { campaignId }, check);
    return resumeCampaignById(app, campaignId, arg);
  }
  if (action === 'record') {
    return readCampaign(app, { campaignId }, (tx) => {
      check(tx);
      return [ephemeral(recordHelp(tx, arg), { contactId: arg })];
    });
  }
  return inCampaign<Reply[]>(app, { campaignId }, (tx): Change<Reply[]> => {
    check(tx);
    const said = (text: string, outbox: Outgoing[], events: EngineEvent[] = []): Change<Reply[]> => ({ outbox, events: [...events, { type: 'refereeNudged', audience: REFEREE, text }], result: [ephemeral(text, { action, arg })] });
    switch (action as Action) {
      case 'resolve':
        if (moment) refuseMovedOn(tx, arg, moment);
        return resolveContactChange(tx, arg);
      case 'nudge': {
        const out = nudge(tx, arg);
        return said(`Nudged the commander${out.length === 1 ? '' : 's'} of ${byId(tx.state.armies, arg)?.name ?? arg}.`, out);
      }
      case 'nudgeAll': {
        const armies = Object.values(tx.state.armies).filter((a) => !a.status.destroyed && !tx.state.orders[a.id] && commandersOf(tx, a.id).length > 0);
        const out = armies.flatMap((a) => nudge(tx, a.id));
        return said(`Nudged ${out.length} commander${out.length === 1 ? '' : 's'} without orders: ${armies.map((a) => a.name).join(', ') || 'none left'}.`, out);
      }
      case 'intel': {
        const post = deliver(tx, 'channel', OPEN, { content: `<@${arg}>, messages for you could not be sent by DM (your DMs are closed). Run \`/intel\` here to read them privately.`, data: { dmClosed: arg }, mentions: [arg] });
        return said(`Reminded ${shownName(tx, arg, 'the player')} in the channel to use /intel.`, post);
      }
      case 'resend': {
        const row = tx.read.undelivered().find((m) => String(m.id) === arg && m.status === 'failed');
        if (!row) throw new UserError('referee.nothingToResend', 'That delivery was already sent again or dealt with.');
        return { ...said(`Message ${row.id} is sent again.`, sendAgain(tx, row)), readMessages: [row.id] };
      }
      default:
        throw new UserError('button.unknown', 'This button is no longer in use.');
    }
  });
}
