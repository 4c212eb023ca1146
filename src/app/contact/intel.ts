import { battlefieldSketchOf, describeEstimate, describeStep, intelFor, isOpen, type ContactRecord } from '../../engine/contact/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { BattlefieldSketch } from '../../engine/views/index.js';
import { renderBattlefield } from '../../render/index.js';
import { formatGameTime, ordinal } from '../../engine/clock/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { sideColour } from '../deliveries/cards.js';
import { ephemeral, messageText, withCards, type Card, type CardField, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { CARD_LABEL } from '../reconnaissance/terrainText.js';

/**
 * `/intel`: every estimate the commander has received, oldest first, with their own contact dice,
 * scouts and terrain cards, and what their open contacts wait for. Private (ephemeral).
 * @see RULINGS 6 (a commander must be able to re-read what they were told)
 */
export async function intel(app: App, actor: Actor, input: { army?: string | undefined }): Promise<Reply[]> {
  const { message, sketches } = inCampaign(app, { actor }, (tx) => {
    const { army } = requireControl(tx, input.army);
    // Every contact the army was in: the live ones, and the closed ones kept in their table.
    const contacts = new Map([...tx.read.closedContacts(army.id), ...Object.values(tx.state.contacts)].map((c) => [c.id, c]));
    const intel = intelFor([...contacts.values()], army.id);
    const open = Object.values(tx.state.contacts).filter((c) => isOpen(c) && c.armyIds.includes(army.id));
    // Direct messages that could not be delivered (closed DMs, or given up after an outage) are kept for /intel.
    const kept = tx.actor ? tx.read.keptMessages(tx.actor.userId) : [];
    const fields: CardField[] = [
      ...intel.map((entry) => intelField(tx.state, army.id, contacts.get(entry.contactId), entry)),
      ...(open.length > 0 ? [openContactsField(tx.state, army.id, open)] : []),
      ...kept.map((m) => ({ name: 'A message that could not reach you by DM', value: messageText({ content: m.content, cards: Array.isArray(m.cards) ? (m.cards as Card[]) : [] }) })),
    ];
    const colour = sideColour(tx.state, army.id);
    const card: Card = { title: `Intelligence of ${army.name}`, ...(colour ? { colour } : {}), ...(fields.length === 0 ? { description: 'No contact yet.' } : {}), fields };
    const sketches = open.filter((c) => (c.data.terrain ?? []).length > 0).map((c) => ({ contactId: c.id, sketch: battlefieldSketchOf(tx.state, c, army.id) }));
    // The heading counts every contact the card shows: those with an estimate, and the open ones still before their contact phase.
    const shown = new Set([...intel.map((e) => e.contactId), ...open.map((c) => c.id)]).size;
    const message = withCards(ephemeral(`Intelligence of **${army.name}** (${shown} contact${shown === 1 ? '' : 's'}${open.length > 0 ? `, ${open.length} open` : ''}${kept.length > 0 ? `, ${kept.length} message${kept.length === 1 ? '' : 's'} that could not reach you by DM` : ''}).`, { armyId: army.id, intel, open: open.map((c) => c.id), kept: kept.length }), [card]);
    return { readMessages: kept.map((m) => m.id), result: { message, sketches } };
  });
  // Rendering is asynchronous: after the (read-only) transaction.
  const files = [];
  for (const { contactId, sketch } of sketches as { contactId: string; sketch: BattlefieldSketch }[]) {
    try {
      files.push({ name: `battlefield-${contactId}.png`, data: new Uint8Array(await renderBattlefield(sketch)) });
    } catch (err) {
      app.logger.warn({ err, contactId }, 'battlefield sketch failed');
    }
  }
  return [files.length > 0 ? { ...message, files } : message];
}

const armyName = (state: CampaignState, id: string): string => state.armies[id]?.name ?? id;

/** One contact's field: the army's own contact dice, scouts and terrain cards, then each estimate it received. */
function intelField(state: CampaignState, armyId: string, contact: ContactRecord | undefined, entry: ReturnType<typeof intelFor>[number]): CardField {
  const d = contact?.data;
  const die = d?.contactDice?.[armyId];
  const scouts = d?.scouts?.[armyId];
  const cards = d?.terrain?.filter((t) => t.armyId === armyId).map((t) => CARD_LABEL[t.card] ?? t.card) ?? [];
  const lines = [
    `Contact dice ${die?.raw ?? '?'} -> ${die?.modified ?? '?'}${scouts ? `; scouts ${scouts.join(', ')}` : ''}${cards.length > 0 ? `; terrain cards ${cards.join(', ')}` : ''}.`,
    ...entry.estimates.map((e) => describeEstimate(e, armyName(state, e.targetId))),
  ];
  return { name: `${entry.contactId}: ${formatGameTime(entry.openedAt)}${entry.hour !== undefined ? `, ${ordinal(entry.hour)} hour` : ''}`, value: lines.join('\n') };
}

/** What the army's open contacts wait for, and with whom. */
function openContactsField(state: CampaignState, armyId: string, open: readonly ContactRecord[]): CardField {
  return { name: 'Open contacts', value: open.map((c) => `${c.id}, ${describeStep(c.step)}, with ${c.armyIds.filter((id) => id !== armyId).map((id) => armyName(state, id)).join(', ')}.`).join('\n') };
}
