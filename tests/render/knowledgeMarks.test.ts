import { describe, expect, it } from 'vitest';
import type { MapToken } from '../../src/engine/views/mapView.js';
import { isRemembered, knowledgeAlpha, seenLine } from '../../src/render/knowledgeMarks.js';

const token = (ageHalves?: number, label?: string): MapToken => ({
  armyId: 'x', label: 'X', name: 'X', sideId: 's', sideName: 'S', colour: '#aa0000', hex: { q: 1, r: 1 },
  flags: { inContact: false, inBattle: false, unformed: false, fatigued: false, embarked: false },
  ...(ageHalves !== undefined ? { seen: { how: 'contact' as const, ageHalves, ...(label ? { label } : {}) } } : {}),
});

describe('knowledge marks: old sightings fade with age', () => {
  it('GIVEN a token seen now or shown as public THEN it is drawn at full strength without an age line', () => {
    expect(knowledgeAlpha(token())).toBe(1);
    expect(knowledgeAlpha(token(0))).toBe(1);
    expect(isRemembered(token(0))).toBe(false);
    expect(seenLine(token(0), 14)).toBeUndefined();
  });

  it('GIVEN older sightings THEN each is fainter than the last, down to a floor, and carries its age line', () => {
    const alphas = [1, 2, 4, 8, 12, 40].map((age) => knowledgeAlpha(token(age, 'seen Day 3, evening')));
    for (let i = 1; i < alphas.length; i++) expect(alphas[i]).toBeLessThanOrEqual(alphas[i - 1]!);
    expect(alphas[0]).toBeLessThan(1);
    expect(alphas.at(-1)).toBe(0.35);
    expect(seenLine(token(3, 'seen Day 3, evening'), 14)?.text).toBe('seen Day 3, evening');
    expect(isRemembered(token(3))).toBe(true);
  });
});
