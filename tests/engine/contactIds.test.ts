import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseStep1, contactStep, resolveStep1 } from '../../src/engine/contact/index.js';
import { beginHalfStep, movementStep } from '../../src/engine/movement/index.js';
import type { Result } from '../../src/engine/result.js';
import { type CampaignState, compareIds, DEFAULT_SETTINGS, newContactId } from '../../src/engine/state/index.js';
import { upgradeState } from '../../src/engine/campaign/upgrade.js';
import { separateCourierIds } from '../../src/engine/campaign/upgrades/courierIds.js';
import { resolveTick } from '../../src/engine/tick/resolveTick.js';
import { sendCourier } from '../../src/engine/water/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { asciiMap, dice, makeState } from './contactFixtures.js';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
/** A tick of the contact deadline, movement and the next half period's opening. */
const tick = (s: CampaignState): CampaignState => resolveTick(s, clear, dice(), { closeHalf: [contactStep, movementStep], openHalf: [beginHalfStep], effects: () => NO_WEATHER_EFFECTS }).state;

/** Hadewych (Chaos, 0303) and Ingegerd (Law, 0302) stand next to each other; nobody moves. */
const facing = (): CampaignState => makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, arn: { side: 'law', hex: '0601' } }, { day: 1, half: 0 });

describe('001 Fight on the Morrow: a contact that stands over several half periods keeps its id', () => {
  it('GIVEN two forces that stay silent half period after half period THEN one contact, c1, round after round', () => {
    let s = tick(facing());
    expect(Object.keys(s.contacts)).toEqual(['c1']);
    for (let i = 0; i < 3; i++) {
      s = tick(s);
      expect(Object.keys(s.contacts)).toEqual(['c1']);
      expect(s.contacts['c1']).toMatchObject({ step: 'step1', armyIds: ['hadewych', 'ingegerd'], openedAt: s.clock });
    }
    expect(s.nextId).toBe(2);
    expect(s.contacts['c1']!.data.previousRound?.armyIds).toEqual(['hadewych', 'ingegerd']);
  });

  it('GIVEN a standoff THEN its facts say which round repeats the one before (for the chronicle to say it once)', () => {
    const play = (s: CampaignState) => resolveTick(s, clear, dice(), { closeHalf: [contactStep, movementStep], openHalf: [beginHalfStep], effects: () => NO_WEATHER_EFFECTS });
    const first = play(facing());
    expect(first.events.find((e) => e.type === 'contactMade')?.data).toEqual({ contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], near: '0303' });
    const second = play(first.state);
    // The first deferral is news; the contact of its next round repeats the same forces.
    expect(second.events.find((e) => e.type === 'contactDeferred')?.data).toEqual({ contactId: 'c1', armyIds: ['hadewych', 'ingegerd'] });
    expect(second.events.find((e) => e.type === 'contactMade')?.data).toMatchObject({ contactId: 'c1', standing: 'same' });
    const third = play(second.state);
    expect(third.events.find((e) => e.type === 'contactDeferred')?.data).toMatchObject({ again: true });
    expect(third.events.find((e) => e.type === 'contactMade')?.text).toBe('Hadewych and ingegerd still face each other near 0303.');
  });

  it('GIVEN a standing contact whose next round is pressed THEN its earlier round is a previous contact (+1)', () => {
    let s = tick(tick(facing()));
    for (const id of ['hadewych', 'ingegerd']) s = must(chooseStep1(s, clear, 'c1', id, { kind: 'proceed' })).state;
    const out = must(resolveStep1(s, clear, 'c1', dice(3, 3)));
    expect(out.state.contacts['c1']!.data.contactDice?.['hadewych']?.modifiers.map((m) => m.code)).toContain('previousContact');
  });

  it('GIVEN a contact that ended in a disengagement THEN a new meeting next half period is a new contact', () => {
    let s = tick(facing());
    s = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'delay' })).state;
    s = must(resolveStep1(s, clear, 'c1', dice(6, 1))).state;
    expect(s.contacts['c1']!.data.outcome).toBe('disengaged');
    s = tick(s);
    expect(Object.values(s.contacts).filter((c) => c.step === 'step1').map((c) => c.id)).toEqual(['c2']);
  });
});

describe('Couriers have their own id sequence', () => {
  it('GIVEN couriers sent between contacts THEN couriers count k1, k2 and contacts c1, c2, neither skipping a number', () => {
    let s = facing();
    s = must(sendCourier(s, clear, { fromArmy: 'ingegerd', toArmy: 'arn', message: 'Hold.' }, NO_WEATHER_EFFECTS)).state;
    s = tick(s);
    s = must(sendCourier(s, clear, { fromArmy: 'ingegerd', toArmy: 'arn', message: 'Still holding.' }, NO_WEATHER_EFFECTS)).state;
    expect(Object.keys(s.couriers).sort()).toEqual(['k1', 'k2']);
    expect(Object.keys(s.contacts)).toEqual(['c1']);
    expect([s.nextId, s.nextCourierId]).toEqual([2, 3]);
  });

  it('GIVEN a campaign stored before couriers had their own counter (version 3) THEN their sequence goes on from the shared one', () => {
    expect(separateCourierIds({ nextId: 7 })).toEqual({ nextId: 7, nextCourierId: 7 });
    expect(separateCourierIds({ nextId: 'broken' })).toEqual({ nextId: 'broken', nextCourierId: 1 });
    // Storage fills the new column with 1 for an old row: the upgrade sets it from the old counter.
    const { nextCourierId: _n, ...v3 } = { ...facing(), nextId: 12 };
    expect(upgradeState({ ...v3, nextCourierId: 1 }, 3).nextCourierId).toBe(12);
  });
});

describe('Issue 23: in fog of war an id says nothing of contacts or couriers the reader never saw', () => {
  const fog = (s: CampaignState): CampaignState => ({ ...s, settings: { ...s.settings, positions: 'fog' } });
  /** Hadewych and Ingegerd face each other at 0303/0302; in one world Kor and Tam (chaos, law) meet far off first, unseen by them. */
  const worlds = (hidden: boolean): CampaignState => fog(makeState({
    hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, arn: { side: 'law', hex: '0601' },
    kor: { side: 'chaos', hex: hidden ? '0705' : '0105' }, tam: { side: 'law', hex: '0704' },
  }, { day: 1, half: 0 }));
  const contactOf = (s: CampaignState, army: string): string | undefined => Object.values(s.contacts).find((c) => c.armyIds.includes(army))?.id;

  it('GIVEN two worlds that differ by a contact between others WHEN the same contact is made in both THEN it has the same id in both, and the counters do not move', () => {
    const [a, b] = [tick(worlds(true)), tick(worlds(false))];
    expect(contactOf(a, 'kor'), 'the hidden contact was made in one world').toBeDefined();
    expect(contactOf(b, 'kor')).toBeUndefined();
    expect(contactOf(a, 'hadewych')).toMatch(/^c[a-z]{6}$/);
    expect(contactOf(a, 'hadewych')).toBe(contactOf(b, 'hadewych'));
    expect([a.nextId, b.nextId]).toEqual([1, 1]);
  });

  it('GIVEN positions public THEN contacts are numbered across the campaign as before (every contact is public there)', () => {
    const a = tick({ ...worlds(true), settings: DEFAULT_SETTINGS });
    expect(Object.keys(a.contacts).sort()).toEqual(['c1', 'c2']);
  });

  it('GIVEN any earlier contacts and couriers of others THEN a contact id depends only on its time, its armies and what it was split from (property)', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('c1', 'c2', 'cabcdef', 'k1'), { maxLength: 4 }), fc.integer({ min: 1, max: 40 }), (others, nextId) => {
      const base = worlds(false);
      const busy = { ...base, nextId, nextCourierId: nextId, contacts: Object.fromEntries(others.map((id) => [id, { id, armyIds: ['kor', 'tam'], hexes: [], openedAt: base.clock, step: 'closed' as const, data: {} }])) };
      const ids = [base, busy].map((s) => newContactId(s, ['ingegerd', 'hadewych']).id);
      return ids[0] === ids[1] && ids[0] === newContactId(base, ['hadewych', 'ingegerd']).id;
    }));
  });

  it('GIVEN a courier in fog THEN its id depends on its sender, recipient and time, not on others\' couriers; two in one half period differ', () => {
    const s = worlds(false);
    const first = must(sendCourier(s, clear, { fromArmy: 'ingegerd', toArmy: 'arn', message: 'Hold.' }, NO_WEATHER_EFFECTS)).state;
    const withOthers = must(sendCourier({ ...s, nextCourierId: 9 }, clear, { fromArmy: 'ingegerd', toArmy: 'arn', message: 'Hold.' }, NO_WEATHER_EFFECTS)).state;
    expect(Object.keys(first.couriers)).toEqual(Object.keys(withOthers.couriers));
    expect(Object.keys(first.couriers)[0]).toMatch(/^k[a-z]{6}$/);
    const second = must(sendCourier(first, clear, { fromArmy: 'ingegerd', toArmy: 'arn', message: 'Hold on.' }, NO_WEATHER_EFFECTS)).state;
    expect(new Set(Object.keys(second.couriers)).size).toBe(2);
    expect(second.nextCourierId).toBe(s.nextCourierId);
  });
});

describe('Contacts are read in id order, a number counted as a number', () => {
  it('GIVEN any two ids (numbered, derived, or any text) THEN compareIds orders them as localeCompare in English with numbers does, and c2 comes before c10', () => {
    const id = fc.oneof(fc.nat(200).map((n) => `c${n}`), fc.nat(200).map((n) => `k${n}`), fc.stringMatching(/^[a-z]{1,4}[0-9]{0,3}$/), fc.string());
    fc.assert(fc.property(id, id, (a, b) => {
      expect(Math.sign(compareIds(a, b))).toBe(Math.sign(a.localeCompare(b, 'en', { numeric: true })));
    }), { numRuns: 300 });
    expect(['c10', 'c2', 'c1'].sort(compareIds)).toEqual(['c1', 'c2', 'c10']);
  });
});
