import { echo } from '../../engine/events/index.js';
import { byId } from '../../engine/state/index.js';
import { isOpen } from '../../engine/contact/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { ContactRecord } from '../../engine/contact/index.js';
import { UserError } from '../errors.js';

/**
 * Which contact a command is about: a commander's (named, or their army's only open one) or any
 * the referee names. Each refuses with what is open.
 */

/** The contact an army answers for: the one named, or its only open contact. */
export function contactOfArmy(state: CampaignState, army: Army, contactText: string | undefined): ContactRecord {
  if (contactText) {
    const c = byId(state.contacts, contactText.trim());
    if (!c || !c.armyIds.includes(army.id)) throw new UserError('contact.notFound', `${army.name} takes no part in a contact ${echo(contactText)}. Use \`/intel\` to see your contacts.`);
    return c;
  }
  const [only, ...more] = Object.values(state.contacts).filter((c) => isOpen(c) && c.armyIds.includes(army.id));
  if (!only) throw new UserError('contact.none', `${army.name} is not in an open contact.`);
  if (more.length > 0) throw new UserError('contact.which', `${army.name} is in several contacts (${[only, ...more].map((c) => c.id).join(', ')}); say which with \`contact:\`.`);
  return only;
}

/** The contact the referee names, or the only open one when none is named. */
export function contactByIdForReferee(state: CampaignState, text: string | undefined): ContactRecord {
  const open = Object.values(state.contacts).filter(isOpen);
  if (!text) {
    const [only, ...more] = open;
    if (only && more.length === 0) return only;
    if (!only) throw new UserError('contact.missing', 'No contact is open, so there is none to act on (`/contact list` shows the open contacts).');
    throw new UserError('contact.missing', `Say which contact with \`contact:\`. Open contacts: ${open.map((c) => c.id).join(', ')}.`);
  }
  const c = byId(state.contacts, text.trim());
  if (!c) throw new UserError('contact.notFound', `There is no contact ${echo(text)}. Open contacts: ${open.map((x) => x.id).join(', ') || 'none'}.`);
  return c;
}

/**
 * The battle the referee records (`/battle result`): the contact named, or the only one waiting for
 * its result, whatever other contacts are open.
 */
export function battleForReferee(state: CampaignState, text: string | undefined): ContactRecord {
  if (text) return contactByIdForReferee(state, text);
  const [only, ...more] = Object.values(state.contacts).filter((c) => isOpen(c) && c.step === 'battle');
  if (!only) throw new UserError('battle.none', 'No battle is waiting for its result: a contact becomes a battle when its commanders engage after the contact phase (`/contact list` shows each contact\'s step).');
  if (more.length > 0) throw new UserError('battle.which', `Say which battle with \`contact:\`: ${[only, ...more].map((c) => c.id).join(', ')}.`);
  return only;
}
