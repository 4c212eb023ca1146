import { describe, expect, it } from 'vitest';
import { crossingCost, dailyPoints, enterCost, marchFormation, type MoveOptions } from '../../src/engine/movement/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, hx, mapOf, valormr } from './movementFixtures.js';
import type { WeatherEffects } from '../../src/engine/state/index.js';

// Row 1: clear forest hill swamp mountain coast sea; row 2 all clear (the start hexes).
const map = mapOf(['cfhsmwo', 'ccccccc', 'ccccccc'], {
  roads: [['0102', '0101'], ['0202', '0201'], ['0502', '0501']],
  tracks: [['0302', '0301'], ['0402', '0401'], ['0702', '0701']],
  regions: [{ id: 'ellriendi', name: 'Ellriendi', hexes: ['0201'] }],
});
const DAY: MoveOptions = { period: 'day', night: false, unformed: false };
const NIGHT: MoveOptions = { period: 'night', night: true, unformed: false };
const UNFORMED: MoveOptions = { ...DAY, unformed: true };

/** Entering row-1 hex `to` from the hex below it (row 2) or from its side neighbour. */
function cost(a: ReturnType<typeof army>, from: string, to: string, opts = DAY, flying = true) {
  const r = enterCost(map, a, hx(from), hx(to), opts, valormr(flying));
  return r.ok ? r.value.cost : r.violation.code;
}

describe('000 Terrain Effects: move point cost to enter a hex', () => {
  const inf = army('inf', '0103');
  const cav = army('cav', '0103', { movementClass: 'cavalry' });
  // Hexes in row 1 are entered from below (row 2) with no road unless listed.
  it.each([
    ['clear, off road', inf, '0102', '0101', DAY, 4],
    ['forest, along a road (9 x 2/3)', inf, '0202', '0201', DAY, 6],
    ['hill, along a track (9 x 1)', inf, '0302', '0301', DAY, 9],
    ['swamp, along a track', inf, '0402', '0401', DAY, 9],
    ['mountain, along a road (12 x 2/3)', inf, '0502', '0501', DAY, 8],
  ] as const)('GIVEN %s THEN the cost follows the table and the link', (_n, a, from, to, opts, expected) => {
    expect(cost(a, from, to, opts)).toBe(expected);
  });

  const offRoad = mapOf(['cfhsmwo', 'ccccccc']);
  it.each([
    ['clear', '0101', 6], ['forest', '0201', 9], ['hill', '0301', 9], ['swamp', '0401', 9], ['mountain (unformed)', '0501', 12],
  ] as const)('GIVEN infantry off road WHEN entering %s THEN it costs %i', (_n, to, expected) => {
    const from = `${to.slice(0, 2)}02`;
    const r = enterCost(offRoad, inf, hx(from), hx(to), to === '0501' ? UNFORMED : DAY, valormr(true));
    expect(r.ok && r.value.cost).toBe(expected);
  });

  it.each([['coast', '0601'], ['sea', '0701']] as const)('GIVEN %s THEN armies cannot march into it', (_n, to) => {
    expect(cost(inf, `${to.slice(0, 2)}02`, to)).toBe('move.water');
  });

  it('GIVEN formed infantry WHEN entering mountain off road THEN it is refused and unformed:true is suggested', () => {
    const r = enterCost(offRoad, inf, hx('0502'), hx('0501'), DAY, valormr(true));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.violation.code).toBe('move.mountainOffRoad');
      expect(r.violation.message).toContain('unformed:true');
    }
  });
  it('GIVEN formed cavalry WHEN entering forest or swamp off road THEN only infantry may, so it is refused', () => {
    expect(enterCost(offRoad, cav, hx('0202'), hx('0201'), DAY, valormr(true))).toMatchObject({ ok: false, violation: { code: 'move.formedForestSwamp' } });
    expect(enterCost(offRoad, cav, hx('0402'), hx('0401'), DAY, valormr(true))).toMatchObject({ ok: false, violation: { code: 'move.formedForestSwamp' } });
    expect(enterCost(offRoad, cav, hx('0202'), hx('0201'), UNFORMED, valormr(true))).toMatchObject({ ok: true, value: { cost: 9, needsUnformed: true } });
  });
  it('GIVEN cavalry on a track THEN it may enter forest formed', () => {
    const m = mapOf(['cf', 'cc'], { tracks: [['0202', '0201']] });
    expect(enterCost(m, cav, hx('0202'), hx('0201'), DAY, valormr(true))).toMatchObject({ ok: true, value: { cost: 9, link: 'track' } });
  });
  it('GIVEN Ellriendi elves THEN their home forest costs clear, forest elsewhere full', () => {
    const elves = army('elves', '0102', { homeTerrain: { terrain: 'forest', region: 'ellriendi' } });
    const m = mapOf(['ff', 'cc'], { regions: [{ id: 'ellriendi', name: 'E', hexes: ['0101'] }] });
    expect(cost(elves, '0102', '0101', DAY)).toBe(4); // road in the main fixture: 6 x 2/3
    expect(enterCost(m, elves, hx('0102'), hx('0101'), DAY, valormr(true))).toMatchObject({ ok: true, value: { cost: 6 } });
    expect(enterCost(m, elves, hx('0202'), hx('0201'), DAY, valormr(true))).toMatchObject({ ok: true, value: { cost: 9 } });
  });
  it('GIVEN lizard men THEN swamp costs clear', () => {
    const lizards = army('liz', '0402', { homeTerrain: { terrain: 'swamp' } });
    expect(enterCost(offRoad, lizards, hx('0402'), hx('0401'), DAY, valormr(true))).toMatchObject({ ok: true, value: { cost: 6 } });
  });
  it('GIVEN a flying creature and the house setting THEN every hex costs clear and needs no road', () => {
    const dragon = army('dragon', '0502', { movementClass: 'creature', flying: true, baseMovePoints: 48 });
    expect(enterCost(offRoad, dragon, hx('0502'), hx('0501'), DAY, valormr(true))).toMatchObject({ ok: true, value: { cost: 6 } });
    // Without the setting it pays the terrain; creatures do not march in formation, so no formed limit.
    expect(enterCost(offRoad, dragon, hx('0502'), hx('0501'), DAY, valormr(false))).toMatchObject({ ok: true, value: { cost: 12 } });
  });
});

describe('000 Overland Travel: Nocturnal Movement (light-sighted at night)', () => {
  const inf = army('inf', '0103');
  const orc = army('orc', '0103', { sight: 'dark' });
  const offRoad = mapOf(['cfhsm', 'ccccc']);
  it('GIVEN a clear hex THEN the cost doubles', () => {
    expect(enterCost(offRoad, inf, hx('0102'), hx('0101'), NIGHT, valormr(true))).toMatchObject({ ok: true, value: { cost: 12 } });
  });
  it('GIVEN forest off road THEN it is refused', () => {
    expect(enterCost(offRoad, inf, hx('0202'), hx('0201'), NIGHT, valormr(true))).toMatchObject({ ok: false, violation: { code: 'move.nightTerrain' } });
  });
  it('GIVEN forest along a road THEN it is allowed at double cost (6 x 2)', () => {
    expect(cost(inf, '0202', '0201', NIGHT)).toBe(12);
  });
  it('GIVEN hill along a track THEN a track is not a road: refused', () => {
    expect(cost(inf, '0302', '0301', NIGHT)).toBe('move.nightTerrain');
  });
  it('GIVEN a dark-seeing force THEN night costs are normal', () => {
    expect(enterCost(offRoad, orc, hx('0202'), hx('0201'), NIGHT, valormr(true))).toMatchObject({ ok: true, value: { cost: 9 } });
  });
});

describe('000 Terrain Effects: river crossings (RULINGS 4)', () => {
  const inf = army('inf', '0101');
  const cav = army('cav', '0101', { movementClass: 'cavalry' });
  const weather = NO_WEATHER_EFFECTS;
  const at = (size: 'major' | 'minor', crossing?: 'ford' | 'ferry' | 'bridge') =>
    mapOf(['ccc', 'ccc', 'ccc'], { rivers: [{ id: 'r', name: 'R', hexes: ['0201', '0202', '0203'].map((h) => ({ hex: h, size, ...(crossing && h === '0202' ? { crossing } : {}) })) }] });
  const cross = (a: typeof inf, size: 'major' | 'minor', site: 'ford' | 'ferry' | 'bridge' | undefined, w: WeatherEffects = weather, nightDouble = false) => {
    const r = crossingCost(at(size, site), a, hx('0202'), 'right', 'left', { weather: w, nightDouble, profile: valormr() });
    return r.ok ? { method: r.value.method, points: r.value.points, days: r.value.halves / 4, closed: r.value.closed } : r.violation.code;
  };
  it.each([
    ['bridge, minor, infantry', inf, 'minor', 'bridge', { method: 'bridge', points: 0, days: 0 }],
    ['bridge, major, cavalry', cav, 'major', 'bridge', { method: 'bridge', points: 0, days: 0 }],
    ['ferry, minor: one day', inf, 'minor', 'ferry', { method: 'ferry', points: 0, days: 1 }],
    ['ferry, major: two days', cav, 'major', 'ferry', { method: 'ferry', points: 0, days: 2 }],
    ['ford, minor, cavalry: free', cav, 'minor', 'ford', { method: 'ford', points: 0, days: 0 }],
    ['ford, minor, infantry: half its daily points', inf, 'minor', 'ford', { method: 'ford', points: 6, days: 0 }],
    ['minor, no site, cavalry: half its daily points', cav, 'minor', undefined, { method: 'swim', points: 12, days: 0 }],
    ['minor, no site, infantry: rafts', inf, 'minor', undefined, { method: 'rafts', points: 0, days: 3 }],
    ['major, no site: rafts', cav, 'major', undefined, { method: 'rafts', points: 0, days: 3 }],
    ['major with a ford: fords are minor-river sites, so rafts', inf, 'major', 'ford', { method: 'rafts', points: 0, days: 3 }],
  ] as const)('GIVEN %s', (_n, a, size, site, expected) => {
    expect(cross(a, size, site)).toEqual(expected);
  });
  const rain1: WeatherEffects = { ...weather, fordsClosed: true };
  const rain2: WeatherEffects = { ...weather, fordsClosed: true, ferriesClosed: true };
  it('GIVEN rain level 1 THEN a ford is closed: infantry must build rafts, cavalry swims', () => {
    expect(cross(inf, 'minor', 'ford', rain1)).toEqual({ method: 'rafts', points: 0, days: 3, closed: 'ford' });
    expect(cross(cav, 'minor', 'ford', rain1)).toEqual({ method: 'swim', points: 12, days: 0, closed: 'ford' });
  });
  it('GIVEN rain level 2 THEN a ferry is out of service: rafts', () => {
    expect(cross(inf, 'major', 'ferry', rain2)).toEqual({ method: 'rafts', points: 0, days: 3, closed: 'ferry' });
  });
  it('GIVEN a light-sighted force at night THEN crossing points and days double', () => {
    expect(cross(inf, 'minor', 'ford', weather, true)).toMatchObject({ points: 12 });
    expect(cross(inf, 'minor', 'ferry', weather, true)).toMatchObject({ days: 2 });
  });
  it('GIVEN a drought THEN major rivers count as minor and may be fordable', () => {
    const drought: WeatherEffects = { ...weather, majorAsMinor: true, minorFordable: true };
    expect(cross(inf, 'major', undefined, drought)).toEqual({ method: 'ford', points: 6, days: 0 });
  });
  it('GIVEN a hex where timber ran out THEN rafts are refused there', () => {
    const a = { ...inf, march: { ...inf.march, noRaftHexes: [hx('0202')] } };
    expect(cross(a, 'major', undefined)).toBe('crossing.noTimber');
  });
});

describe('000 Overland Travel: daily move points', () => {
  const inf = army('inf', '0101');
  it.each([
    ['infantry', army('a', '0101'), false, 1, 12],
    ['cavalry', army('a', '0101', { movementClass: 'cavalry' }), false, 1, 24],
    ['courier', army('a', '0101', { movementClass: 'courier' }), false, 1, 48],
    ['infantry, forced march (+50 %)', inf, true, 1, 18],
    ['infantry, fatigued (-25 %)', army('a', '0101', { fatigued: true }), false, 1, 9],
    ['infantry, fatigued and forced (18 x 0.75, fractions dropped)', army('a', '0101', { fatigued: true }), true, 1, 13],
    ['infantry, hard rain (x 0.75)', inf, false, 0.75, 9],
    ['infantry, fatigued in hard rain (9 x 0.75 = 6.75 -> 6)', army('a', '0101', { fatigued: true }), false, 0.75, 6],
    ['cavalry, rain level 3 (x 0.5)', army('a', '0101', { movementClass: 'cavalry' }), false, 0.5, 12],
    ['any, rain level 4 (no movement)', inf, false, 0, 0],
  ] as const)('GIVEN %s THEN daily points are %#', (_n, a, forced, factor, expected) => {
    expect(dailyPoints(a, valormr(), forced, { ...NO_WEATHER_EFFECTS, overlandFactor: factor })).toBe(expected);
  });
  it('GIVEN a half period of rest only yesterday THEN half the points come back', () => {
    expect(dailyPoints(inf, valormr(), false, NO_WEATHER_EFFECTS, 0.5)).toBe(6);
  });
});

describe('000 Orders of March: tactical march formation by terrain', () => {
  const m = mapOf(['cfhsmc', 'cccccc'], { roads: [['0601', '0602']], tracks: [['0501', '0502']] });
  it.each([
    ['0101', 'battalions'], ['0201', 'companies'], ['0301', 'companies'], ['0401', 'companies'],
    ['0501', 'figures2x20'], ['0601', 'figures4x10'],
  ] as const)('GIVEN an army at %s THEN it marches in %s', (hex, expected) => {
    expect(marchFormation(m, army('a', hex))).toBe(expected);
  });
  it('GIVEN a mountain hex without a track THEN column of figures two abreast', () => {
    expect(marchFormation(mapOf(['m']), army('a', '0101'))).toBe('figures2x20');
  });
});

describe('000 Orders of March: regiment roles', () => {
  it('GIVEN a new assault regiment THEN it leads, the old support stays support unless named, the rest are reserve', async () => {
    const { assignRoles } = await import('../../src/engine/movement/index.js');
    const a = army('a', '0101', { figures: [20, 10, 8] });
    const r = assignRoles(a, 'a-r3');
    expect(r.ok && r.value.regiments.map((g) => [g.id, g.role])).toEqual([['a-r3', 'assault'], ['a-r2', 'support'], ['a-r1', 'reserve']]);
    const r2 = assignRoles(a, 'a-r2', 'a-r3');
    expect(r2.ok && r2.value.regiments.map((g) => g.role)).toEqual(['assault', 'support', 'reserve']);
    expect(assignRoles(a, 'a-r2', 'a-r2')).toMatchObject({ ok: false, violation: { code: 'roles.sameRegiment' } });
    expect(assignRoles(a, 'zzz')).toMatchObject({ ok: false, violation: { code: 'roles.unknownRegiment' } });
  });
});

describe('000 Terrain Effects: Major Rivers — one-third defence while building rafts', () => {
  it('GIVEN rafts in the timber or build phase THEN a third; crossing or no operation THEN all', async () => {
    const { defenceShare } = await import('../../src/engine/movement/index.js');
    const a = army('a', '0101');
    const op = { kind: 'rafts' as const, hex: hx('0101'), startedAt: 0, totalHalves: 12, remainingHalves: 10, phase: 'timber' as const };
    expect(defenceShare({ ...a, march: { ...a.march, operation: op } })).toBeCloseTo(1 / 3);
    expect(defenceShare({ ...a, march: { ...a.march, operation: { ...op, phase: 'build' } } })).toBeCloseTo(1 / 3);
    expect(defenceShare({ ...a, march: { ...a.march, operation: { ...op, phase: 'cross' } } })).toBe(1);
    expect(defenceShare(a)).toBe(1);
  });
});

describe('marchStatus for /army status', () => {
  it('GIVEN a fatigued army on a road THEN status shows formation, points, fatigue and reason', async () => {
    const { marchStatus } = await import('../../src/engine/movement/index.js');
    const m = mapOf(['cc'], { roads: [['0101', '0201']] });
    const a0 = army('a', '0101', { fatigued: true });
    const a = { ...a0, march: { ...a0.march, fatigueReason: 'forcedMarch' as const, daysMarched: 3, spentToday: 4 } };
    expect(marchStatus(m, a, NO_WEATHER_EFFECTS, valormr(), 1)).toMatchObject({
      hex: '0101', marchFormation: 'figures4x10', pointsToday: 9, pointsLeft: 5, fatigued: true,
      fatigueReason: 'forced march yesterday and no rest today', daysMarched: 3, formation: 'formed',
    });
  });
});
