import { describe, expect, it } from 'vitest';
import { forceSecondContact, isOpen, maneuver, resolveStep1 } from '../../src/engine/contact/index.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState, ContactRecord } from '../../src/engine/state/index.js';
import { asciiMap, dice, makeState, withContact } from './contactFixtures.js';

const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

/** Open contacts per army: no army may be in two at once. */
function openContactsPerArmy(s: CampaignState): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of Object.values(s.contacts).filter(isOpen)) for (const id of c.armyIds) out[id] = [...(out[id] ?? []), c.id];
  return out;
}

/**
 * Hadewych (Chaos, 0303) maneuvers in contact c1 with Ingegerd (Law, 0302); c1 then ends (fight
 * on the morrow). Meanwhile Ingegerd is in contact c2 with Arn (Chaos, 0301, not next to
 * Hadewych), at `step`. `extra` adds armies.
 */
function afterFirstContact(step: ContactRecord['step'] = 'step1', extra: Parameters<typeof makeState>[0] = {}): CampaignState {
  let s = withContact(makeState({
    hadewych: { side: 'chaos', hex: '0303' },
    ingegerd: { side: 'law', hex: '0302' },
    arn: { side: 'chaos', hex: '0301' },
    ...extra,
  }), ['hadewych', 'ingegerd']);
  s = must(maneuver(s, clear, 'hadewych')).state;
  s = must(resolveStep1(s, clear, 'c1', dice())).state;
  s = withContact(s, ['ingegerd', 'arn'], 'c2');
  const c2 = s.contacts['c2'] as ContactRecord;
  return { ...s, contacts: { ...s.contacts, c2: { ...c2, step } } };
}

describe('001 Maneuver: a forced second contact never puts an enemy in two open contacts', () => {
  it('GIVEN the enemy is in a contact still at step 1 THEN the maneuvering force joins that contact', () => {
    const s = afterFirstContact();
    const out = must(forceSecondContact(s, clear, 'hadewych'));
    expect(out.contactId).toBe('c2');
    expect(out.state.contacts['c2']!.armyIds).toEqual(['ingegerd', 'arn', 'hadewych']);
    expect(out.state.contacts['c2']!.step).toBe('step1');
    expect(Object.values(out.state.contacts).filter(isOpen)).toHaveLength(1);
    expect(openContactsPerArmy(out.state)['ingegerd']).toEqual(['c2']);
    expect(out.state.armies['hadewych']!.status.inContact).toBe(true);
    expect(out.state.contacts['c2']!.data.operations?.map((o) => [o.kind, o.armyId])).toContainEqual(['secondContact', 'hadewych']);
    expect(out.events.find((e) => e.type === 'contactMade')?.data).toEqual({ how: 'forcedJoined', contactId: 'c2', armyIds: ['ingegerd', 'arn', 'hadewych'], newcomers: [{ armyId: 'hadewych', hex: '0303' }], forcedBy: 'hadewych' });
  });

  it('GIVEN a second contact joined THEN another one this half period is refused', () => {
    const out = must(forceSecondContact(afterFirstContact(), clear, 'hadewych'));
    // Even once the joined contact is over.
    const s = must(resolveStep1(out.state, clear, 'c2', dice())).state;
    const again = forceSecondContact(s, clear, 'hadewych');
    expect(again.ok ? '' : again.violation.code).toBe('contact.secondAlreadyForced');
  });

  it('GIVEN another enemy next to the force that is in no contact THEN it joins the same contact', () => {
    const s = afterFirstContact('step1', { aeskrvald: { side: 'law', hex: '0403' } });
    // Aeskrvald stood next to Hadewych during c1 too; the test only needs it free now.
    const out = must(forceSecondContact(s, clear, 'hadewych'));
    expect(out.contactId).toBe('c2');
    expect(out.state.contacts['c2']!.armyIds).toEqual(['ingegerd', 'arn', 'hadewych', 'aeskrvald']);
    expect(out.state.armies['aeskrvald']!.status.inContact).toBe(true);
    expect(Object.values(openContactsPerArmy(out.state)).every((ids) => ids.length === 1)).toBe(true);
  });

  it.each(['decision', 'battle'] as const)('GIVEN the enemy is in a contact at %s THEN refused with the contact and its step', (step) => {
    const s = afterFirstContact(step);
    const r = forceSecondContact(s, clear, 'hadewych');
    expect(r.ok ? '' : r.violation.code).toBe('contact.secondEnemyEngaged');
    expect(r.ok ? '' : r.violation.message).toMatch(/Ingegerd is already in contact c2 \(.+\): a second contact cannot be forced on it until that one is resolved/);
  });

  it('GIVEN the enemies next to the force are in two separate step-1 contacts THEN refused, naming both', () => {
    let s = afterFirstContact('step1', { aeskrvald: { side: 'law', hex: '0403' }, gorm: { side: 'chaos', hex: '0404' } });
    s = withContact(s, ['aeskrvald', 'gorm'], 'c3');
    const r = forceSecondContact(s, clear, 'hadewych');
    expect(r.ok ? '' : r.violation.code).toBe('contact.secondSeveralContacts');
    expect(r.ok ? '' : r.violation.message).toMatch(/c2, c3/);
  });

  it('GIVEN the enemy is in no open contact THEN a new contact is opened, as before', () => {
    let s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } }), ['hadewych', 'ingegerd']);
    s = must(maneuver(s, clear, 'hadewych')).state;
    s = must(resolveStep1(s, clear, 'c1', dice())).state;
    const out = must(forceSecondContact(s, clear, 'hadewych'));
    expect(out.contactId).not.toBe('c1');
    expect(out.state.contacts[out.contactId]!.armyIds).toEqual(['hadewych', 'ingegerd']);
    expect(out.state.contacts[out.contactId]!.data.forcedBy).toBe('hadewych');
  });
});
