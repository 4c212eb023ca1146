import { describe, expect, it } from 'vitest';
import { chooseStep1, resolveStep1, SCOUT_LIMIT } from '../../src/engine/contact/index.js';
import { resolveDisengagement, type DisengageContext } from '../../src/engine/contact/disengage.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { asciiMap, dice, makeState, withContact } from './contactFixtures.js';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

const wooded = asciiMap(['fffffff', 'fffffff', 'fffffff', 'fffffff', 'fffffff', 'fffffff']);

/** Hadewych (Chaos, 0303) against Ingegerd (Law, 0302), both proceeding to the contact phase. */
function toContactPhase(hadewychScouts: number): CampaignState {
  let s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303', scouts: hadewychScouts }, ingegerd: { side: 'law', hex: '0302' } }), ['hadewych', 'ingegerd']);
  for (const id of ['hadewych', 'ingegerd']) s = must(chooseStep1(s, wooded, 'c1', id, { kind: 'proceed' })).state;
  return s;
}

describe('000 Scouts Out: "Multiple scouts may be deployed ... one for each"', () => {
  it('GIVEN three scouts THEN three rolls on the scout table, +1 at most for their successes, and the three still deployed afterwards', () => {
    // Scouts 5, 6, 2: two successful, one killed; contact dice 3 and 3.
    const d = dice(5, 6, 2, 3, 3);
    const out = must(resolveStep1(toContactPhase(3), wooded, 'c1', d));
    const data = out.state.contacts['c1']!.data;
    expect(d.rolls.filter((r) => /^scout \d of hadewych$/.test(r.purpose))).toHaveLength(3);
    expect(data.scouts).toEqual({ hadewych: ['successful', 'successful', 'killed'] });
    expect(data.contactDice?.['hadewych']?.modifiers.filter((m) => m.code === 'scouts')).toEqual([{ code: 'scouts', label: 'successful scout(s)', value: 1 }]);
    expect(data.contactDice?.['hadewych']?.modified).toBe(4);
    // RULINGS 5: the killed scout does not shrink what the army deploys at its next contact.
    expect(out.state.armies['hadewych']!.scouts).toBe(3);
  });

  it('GIVEN more scouts than the sane bound (a scenario may give many) THEN only that many roll', () => {
    const d = dice(...Array.from({ length: SCOUT_LIMIT }, () => 3), 3, 3);
    must(resolveStep1(toContactPhase(SCOUT_LIMIT + 4), wooded, 'c1', d));
    expect(d.rolls.filter((r) => /^scout \d+ of hadewych$/.test(r.purpose))).toHaveLength(SCOUT_LIMIT);
  });
});

describe('001 Terrain Reconnaissance: the higher contact dice draws first', () => {
  it('GIVEN equal unmodified dice and a higher modified score THEN the winner draws the first card, one, then turns alternate', () => {
    // Ingegerd stands in clear (Hadewych +1 for "all opponents in clear"), Hadewych in forest.
    const map = asciiMap(['fffffff', 'ffcffff', 'fffffff', 'fffffff']);
    let s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } }), ['hadewych', 'ingegerd']);
    for (const id of ['hadewych', 'ingegerd']) s = must(chooseStep1(s, map, 'c1', id, { kind: 'proceed' })).state;
    const out = must(resolveStep1(s, map, 'c1', dice(3, 3)));
    const data = out.state.contacts['c1']!.data;
    expect([data.contactDice?.['hadewych']?.modified, data.contactDice?.['ingegerd']?.modified]).toEqual([4, 3]);
    expect((data.terrain ?? []).map((c) => c.armyId)).toEqual(['hadewych', 'ingegerd', 'hadewych', 'ingegerd', 'hadewych', 'ingegerd', 'hadewych', 'ingegerd']);
  });
});

describe('000 Units, Formed and Unformed: an unformed force begins an engagement "as if in retreat"', () => {
  const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
  const NO_CTX: DisengageContext = { supports: {}, reinforce: {}, maneuvering: new Set(), meleeToday: new Set() };
  function unformedEvader(settings: Partial<CampaignState['settings']> = {}, ingegerd: { fatigued?: boolean; formation?: 'formed' | 'unformed' } = {}): CampaignState {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303', formation: 'unformed' }, ingegerd: { side: 'law', hex: '0302', ...ingegerd } });
    return { ...s, settings: { ...s.settings, ...settings } };
  }
  const evade = (s: CampaignState, ctx: DisengageContext = NO_CTX) => resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'evade', ctx }, dice(3, 3)).outcome;

  it('GIVEN an unformed force that evades THEN it takes the retreat modifier (-1), with a rearguard above half strength', () => {
    const o = evade(unformedEvader());
    expect(o.modifiers).toContainEqual({ code: 'unformed', label: 'formation: unformed, as if in retreat', value: -1 });
    expect(o.modifiers.map((m) => m.code)).toEqual(['unformed', 'rearguard', 'unfavorable']);
    expect(o.modified).toBe(3 - 1 + 2 - 1);
  });

  it('GIVEN the setting off THEN an unformed force has no formation modifier (the older reading)', () => {
    const o = evade(unformedEvader({ unformedAsRetreat: false }));
    expect(o.modifiers.map((m) => m.code)).toEqual(['rearguard', 'unfavorable']);
  });

  it('GIVEN an opponent using the maneuver action, formed and fresh THEN it pursues the unformed force aggressively: +2 instead of +1', () => {
    const ctx = { ...NO_CTX, maneuvering: new Set(['ingegerd']) };
    const tactics = (s: CampaignState) => evade(s, ctx).against[0]!.modifiers.find((m) => m.label.startsWith('tactics'));
    expect(tactics(unformedEvader())).toMatchObject({ code: 'aggressivePursuit', value: 2 });
    expect(tactics(unformedEvader({ unformedAsRetreat: false }))).toMatchObject({ code: 'maneuver', value: 1 });
    expect(tactics(unformedEvader({}, { fatigued: true }))).toMatchObject({ code: 'maneuver', value: 1 });
    expect(tactics(unformedEvader({}, { formation: 'unformed' }))).toMatchObject({ code: 'maneuver', value: 1 });
  });

  it('GIVEN a formed force that evades from a maneuvering opponent THEN no pursuit: the maneuver\'s +1', () => {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } });
    const o = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'evade', ctx: { ...NO_CTX, maneuvering: new Set(['ingegerd']) } }, dice(3, 3)).outcome;
    expect(o.against[0]!.modifiers.find((m) => m.label.startsWith('tactics'))).toMatchObject({ code: 'maneuver', value: 1 });
  });
});
