import { describe, expect, it } from 'vitest';
import { detectContacts, openContacts } from '../../src/engine/movement/contacts.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { army, campaign } from './movementFixtures.js';

const inContact = (s: CampaignState, id: string): string[] => Object.values(s.contacts).filter((c) => c.step !== 'closed' && c.armyIds.includes(id)).map((c) => c.id);

describe('RULINGS 3/5: a force reaching a group already in contact', () => {
  // 0101 chaos, 0201 law (in a contact), 0301 chaos newcomer next to the law army only.
  const base = campaign([army('hadewych', '0101', { side: 'chaos' }), army('ingegerd', '0201', { side: 'law' }), army('minke', '0301', { side: 'chaos' })]);

  it('GIVEN the contact is still before its contact phase THEN the newcomer joins it', () => {
    const s: CampaignState = { ...base, nextId: 2, contacts: { c1: { id: 'c1', armyIds: ['hadewych', 'ingegerd'], hexes: [], openedAt: base.clock, step: 'step1', data: {} } } };
    const out = openContacts(s, detectContacts(s)).state;
    expect(inContact(out, 'minke')).toEqual(['c1']);
    expect(inContact(out, 'ingegerd')).toEqual(['c1']);
  });

  it('GIVEN the contact is further along (a battle) THEN no army ends up in two contacts and no empty contact opens', () => {
    const s: CampaignState = { ...base, nextId: 2, contacts: { c1: { id: 'c1', armyIds: ['hadewych', 'ingegerd'], hexes: [], openedAt: base.clock, step: 'battle', data: {} } } };
    const out = openContacts(s, detectContacts(s)).state;
    expect(inContact(out, 'ingegerd')).toEqual(['c1']);
    expect(inContact(out, 'hadewych')).toEqual(['c1']);
    expect(inContact(out, 'minke')).toEqual([]); // its only foe is busy: it meets it once the battle is over
    expect(Object.keys(out.contacts)).toEqual(['c1']);
  });
});
