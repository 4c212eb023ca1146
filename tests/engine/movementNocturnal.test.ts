import { describe, expect, it } from 'vitest';
import { defaultPeriod, planMove } from '../../src/engine/movement/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, campaign, hexes, mapOf, MOVE } from './movementFixtures.js';

// Oberon's orcs: nocturnal folk who see in the dark; Hadewych's humans: light-sighted, by day.
const map = mapOf(['ccccc', 'ccccc', 'ccccc']);
const orcs = { ...army('oberon', '0102', { side: 'chaos', sight: 'dark' }), nocturnal: true };
const humans = army('hadewych', '0103', { side: 'chaos' });

describe('000 Nocturnal Movement: goblins, kobolds and orcs "always choose nocturnal activity"', () => {
  it('GIVEN an orc army THEN its default period is night; a human army\'s is day', () => {
    expect(defaultPeriod(orcs)).toBe('night');
    expect(defaultPeriod(humans)).toBe('day');
  });

  it('GIVEN an orc army WHEN it is ordered to march by day THEN refused with the reason and what is accepted', () => {
    const r = planMove(campaign([orcs, humans]), map, NO_WEATHER_EFFECTS, 'oberon', { ...MOVE, path: hexes('0202'), period: 'day' });
    expect(r.ok ? '' : r.violation.code).toBe('move.nocturnalByDay');
    expect(r.ok ? '' : r.violation.message).toBe('Army of oberon will not take a day march: goblins, kobolds and orcs suffer in sunlight and always march by night. Use period:night (the referee\'s setting `nocturnal-day-march` allows day marches).');
  });

  it('GIVEN an orc army WHEN it is ordered to split its march THEN refused too: half of it would be by day', () => {
    const r = planMove(campaign([orcs, humans]), map, NO_WEATHER_EFFECTS, 'oberon', { ...MOVE, path: hexes('0202'), period: 'split' });
    expect(r.ok ? '' : r.violation.message).toMatch(/a split march \(half of it by day\)/);
  });

  it('GIVEN an orc army by night THEN accepted; GIVEN the referee\'s setting THEN a day march is accepted as well', () => {
    const s = campaign([orcs, humans]);
    expect(planMove(s, map, NO_WEATHER_EFFECTS, 'oberon', { ...MOVE, path: hexes('0202'), period: 'night' }).ok).toBe(true);
    const allowed = { ...s, settings: { ...s.settings, nocturnalDayMarch: true } };
    expect(planMove(allowed, map, NO_WEATHER_EFFECTS, 'oberon', { ...MOVE, path: hexes('0202'), period: 'day' }).ok).toBe(true);
  });

  it('GIVEN a dark-seeing army that is not nocturnal (gnolls) THEN any period', () => {
    const gnolls = army('laugher', '0102', { side: 'chaos', sight: 'dark' });
    expect(defaultPeriod(gnolls)).toBe('day');
    expect(planMove(campaign([gnolls]), map, NO_WEATHER_EFFECTS, 'laugher', { ...MOVE, path: hexes('0202'), period: 'day' }).ok).toBe(true);
  });
});
