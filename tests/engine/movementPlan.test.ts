import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { findRoute, planMove } from '../../src/engine/movement/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, at, campaign, hexes, hx, mapOf, MOVE, order, riverDownColumn2, ticks, valormr } from './movementFixtures.js';

const open = mapOf(['ccccc', 'ccccc', 'ccccc', 'ccccc', 'ccccc']);

describe('000 Terrain Effects: Rivers — the ford example of the texts', () => {
  // Infantry (12 points) moves one morning into a clear hex with a minor river at a ford:
  // 6 points into the hex, 6 more to ford, and camps on the far bank.
  const map = mapOf(['ccc', 'ccc', 'ccc', 'ccc', 'ccc'], { rivers: [riverDownColumn2('minor', 'ford', '0202')] });
  const state = campaign([army('arn', '0102')]);

  it('GIVEN the order path:0202 crossAtEnd:true THEN the preview shows 6 + 6 points and the far bank', () => {
    const plan = planMove(state, map, NO_WEATHER_EFFECTS, 'arn', { ...MOVE, path: [hx('0202')], crossAtEnd: true });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.steps).toEqual([
      { hex: '0202', terrain: 'clear', link: 'none', enterCost: 6, dayOffset: 0, half: 'morning', pointsLeft: 6 },
      { hex: '0202', link: 'none', enterCost: 0, crossing: { where: '0202', method: 'ford', site: 'ford', size: 'minor', points: 6 }, dayOffset: 0, half: 'afternoon', pointsLeft: 0 },
    ]);
    expect(plan.value.totalPoints).toBe(12);
  });

  it('GIVEN the order is played through the day THEN Arn camps in 0202 on the far (left) bank', () => {
    const s = order(state, map, 'arn', { path: [hx('0202')], crossAtEnd: true });
    const after = ticks(s, map, 2).state;
    const arn = after.armies['arn'] as Army;
    expect(at(after, map, 'arn')).toBe('0202');
    expect(arn.bank).toBe('left');
    expect(arn.march.spentToday + arn.march.pointsLeft).toBeGreaterThanOrEqual(0);
    expect(after.orders['arn']).toBeUndefined();
  });

  it('GIVEN rain closed the ford THEN the preview warns and falls back to rafts', () => {
    const plan = planMove(state, map, { ...NO_WEATHER_EFFECTS, fordsClosed: true }, 'arn', { ...MOVE, path: [hx('0202')], crossAtEnd: true });
    expect(plan.ok && plan.value.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['move.fordClosed', 'move.multiDay']));
    expect(plan.ok && plan.value.steps[1]?.crossing).toMatchObject({ method: 'rafts', days: 3 });
  });

  it('GIVEN a path that leaves a river hex through the far bank THEN the crossing is implied and reported', () => {
    const s = campaign([army('arn', '0102')]);
    const plan = planMove(s, map, NO_WEATHER_EFFECTS, 'arn', { ...MOVE, path: hexes('0202 0302') });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.steps.map((x) => [x.hex, x.crossing?.method ?? '-', x.half])).toEqual([
      ['0202', '-', 'morning'],
      ['0202', 'ford', 'afternoon'],
      ['0302', '-', 'morning'],
    ]);
    expect(plan.value.steps[2]?.dayOffset).toBe(1);
  });
});

describe('RULINGS 2: the half period in which a hex is entered', () => {
  it('GIVEN infantry (12) THEN the first clear hex (6) is entered in the morning, the second (12) in the afternoon', () => {
    const plan = planMove(campaign([army('a', '0101')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0102 0103') });
    expect(plan.ok && plan.value.steps.map((s) => [s.hex, s.half, s.pointsLeft])).toEqual([['0102', 'morning', 6], ['0103', 'afternoon', 0]]);
  });
  it('GIVEN infantry entering a mountain hex by track (12) THEN it is entered in the afternoon', () => {
    const m = mapOf(['cm'], { tracks: [['0101', '0201']] });
    const plan = planMove(campaign([army('a', '0101')]), m, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0201') });
    expect(plan.ok && plan.value.steps[0]).toMatchObject({ hex: '0201', enterCost: 12, half: 'afternoon', pointsLeft: 0 });
  });
  it('GIVEN a dark-seeing force splitting its move THEN half the points are spent by day and half by night', () => {
    const plan = planMove(campaign([army('orc', '0101', { sight: 'dark', side: 'chaos' })]), open, NO_WEATHER_EFFECTS, 'orc', { ...MOVE, period: 'split', path: hexes('0102 0103') });
    expect(plan.ok && plan.value.steps.map((s) => [s.hex, s.half])).toEqual([['0102', 'afternoon'], ['0103', 'night']]);
  });
  it('GIVEN a light-sighted force THEN split is refused', () => {
    const plan = planMove(campaign([army('a', '0101')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, period: 'split', path: hexes('0102') });
    expect(plan).toMatchObject({ ok: false, violation: { code: 'move.splitNeedsDarkSight' } });
  });
  it('GIVEN a longer path THEN it continues on the following days', () => {
    const plan = planMove(campaign([army('a', '0101')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0102 0103 0104 0105') });
    expect(plan.ok && plan.value.steps.map((s) => s.dayOffset)).toEqual([0, 0, 1, 1]);
    expect(plan.ok && plan.value.days).toBe(2);
  });
});

describe('000 Terrain Effects: Saving Move Points', () => {
  const m = mapOf(['csc']);
  it('GIVEN infantry in swamp with save:true THEN the 3 points left carry over and the next day reaches further', () => {
    // 4 swamps: plain 9/day -> days 0,1,2,3; saving 3 then 6 -> day 2 holds 18 points, two swamps.
    const plain = planMove(campaign([army('a', '0101')]), mapOf(['cssss']), NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0201 0301 0401 0501') });
    const saved = planMove(campaign([army('a', '0101')]), mapOf(['cssss']), NO_WEATHER_EFFECTS, 'a', { ...MOVE, save: true, path: hexes('0201 0301 0401 0501') });
    expect(plain.ok && plain.value.steps.map((s) => s.dayOffset)).toEqual([0, 1, 2, 3]);
    expect(saved.ok && saved.value.steps.map((s) => s.dayOffset)).toEqual([0, 1, 2, 2]);
    expect(m.terrainAt(hx('0201'))).toBe('swamp');
  });
});

describe('planMove refusals name the hex, the rule and an alternative', () => {
  const mtn = mapOf(['cmc', 'ccc']);
  it('GIVEN formed infantry through a mountain THEN refused with unformed:true and a formed route suggested', () => {
    const r = planMove(campaign([army('a', '0101')]), mtn, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0201 0301') });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.violation.code).toBe('move.mountainOffRoad');
    expect(r.violation.message).toContain('0201');
    expect(r.violation.message).toContain('unformed:true');
    expect(r.violation.message).toMatch(/A legal route exists: \/move to:0301 \(via \d{4}( \d{4})*\)\./);
    // The destination is where the route goes, not a hex it goes via.
    expect(r.violation.message).not.toMatch(/\(via [^)]*0301\)/);
  });
  it('GIVEN a path naming its next hex twice THEN the route suggested is that hex, via nothing', () => {
    const r = planMove(campaign([army('a', '0101')]), mapOf(['ccc', 'ccc']), NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0201 0201 0201') });
    expect(r).toMatchObject({ ok: false, violation: { code: 'move.notAdjacent' } });
    expect(!r.ok && r.violation.message).toMatch(/A legal route exists: \/move to:0201\.$/);
  });
  it('GIVEN to: a hex behind mountains only THEN no formed route, unformed suggested', () => {
    const walled = mapOf(['cmc', 'cmc', 'cmc']);
    const r = planMove(campaign([army('a', '0101')]), walled, NO_WEATHER_EFFECTS, 'a', { ...MOVE, to: hx('0301') });
    expect(r).toMatchObject({ ok: false, violation: { code: 'move.noPath' } });
    expect(!r.ok && r.violation.message).toContain('unformed:true');
    expect(planMove(campaign([army('a', '0101')]), walled, NO_WEATHER_EFFECTS, 'a', { ...MOVE, to: hx('0301'), unformed: true }).ok).toBe(true);
  });
  it('GIVEN a path through another commander THEN accepted with a warning: one commander per hex is judged at the tick (the holder may leave)', () => {
    const r = planMove(campaign([army('a', '0101'), army('b', '0102')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0102 0103') });
    expect(r.ok && r.value.steps.map((x) => x.hex)).toEqual(['0102', '0103']);
    expect(r.ok && r.value.warnings.map((w) => w.code)).toEqual(['move.occupied']);
    expect(r.ok && r.value.warnings[0]?.message).toContain('if Army of b stays, the march halts before 0102 and the order is cancelled');
  });
  it('GIVEN to: beyond another commander THEN the route goes round the held hex; GIVEN to: the held hex itself THEN accepted with the warning', () => {
    const s = campaign([army('a', '0101'), army('b', '0102')]);
    const round = planMove(s, open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, to: hx('0103') });
    expect(round.ok && round.value.steps.map((x) => x.hex)).not.toContain('0102');
    expect(round.ok && round.value.warnings.map((w) => w.code)).not.toContain('move.occupied');
    const into = planMove(s, open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, to: hx('0102') });
    expect(into.ok && into.value.steps.map((x) => x.hex)).toEqual(['0102']);
    expect(into.ok && into.value.warnings.map((w) => w.code)).toEqual(['move.occupied']);
  });
  it('GIVEN an enemy on the path THEN the warning adds that contact comes first; in fog it names where the army last knew the enemy', () => {
    const s = campaign([army('a', '0101'), army('e', '0103', { side: 'chaos' })]);
    const r = planMove(s, open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0102 0103') });
    expect(r.ok && r.value.warnings[0]?.message).toMatch(/^0103 is held by Army of e: .*Coming next to an enemy brings map contact first\.$/);
    const fog = { ...s, settings: { ...s.settings, positions: 'fog' as const } };
    const f = planMove(fog, open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0102 0103') });
    expect(f.ok && f.value.warnings[0]?.message).toMatch(/^Army of e was last known at 0103: /);
  });
  it('GIVEN hexes that are not neighbours THEN refused', () => {
    expect(planMove(campaign([army('a', '0101')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0103') })).toMatchObject({ ok: false, violation: { code: 'move.notAdjacent' } });
  });
  it('GIVEN a light-sighted night move into forest THEN refused; by day suggested for to:', () => {
    const m = mapOf(['cf']);
    expect(planMove(campaign([army('a', '0101')]), m, NO_WEATHER_EFFECTS, 'a', { ...MOVE, period: 'night', path: hexes('0201') })).toMatchObject({ ok: false, violation: { code: 'move.nightTerrain' } });
    const r = planMove(campaign([army('a', '0101')]), m, NO_WEATHER_EFFECTS, 'a', { ...MOVE, period: 'night', to: hx('0201') });
    expect(!r.ok && r.violation.message).toContain('period:day');
  });
  it('GIVEN a mountain road at night (8 x 2 = 16 > 12) THEN it can never be afforded', () => {
    const m = mapOf(['cm'], { roads: [['0101', '0201']] });
    expect(planMove(campaign([army('a', '0101')]), m, NO_WEATHER_EFFECTS, 'a', { ...MOVE, period: 'night', path: hexes('0201') })).toMatchObject({ ok: false, violation: { code: 'move.tooCostly' } });
  });
  it('GIVEN an army committed to a ferry crossing THEN a new move is refused', () => {
    const a = army('a', '0101');
    const busy = { ...a, march: { ...a.march, operation: { kind: 'ferry' as const, hex: hx('0101'), startedAt: 0, totalHalves: 4, remainingHalves: 3, phase: 'cross' as const } } };
    expect(planMove(campaign([busy]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0102') })).toMatchObject({ ok: false, violation: { code: 'move.committed' } });
  });
  it('GIVEN a forced march THEN the preview warns of fatigue tomorrow; an unformed one of stragglers', () => {
    const r = planMove(campaign([army('a', '0101')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, forced: true, unformed: true, path: hexes('0102 0103 0104') });
    expect(r.ok && r.value.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['move.fatigueTomorrow', 'move.stragglers']));
    expect(r.ok && r.value.steps.every((s) => s.dayOffset === 0)).toBe(true);
  });
});

describe('findRoute: A* over the rules costs', () => {
  it('GIVEN a road around a forest THEN the road is cheaper and taken', () => {
    // Straight line 0101-0401 through forest (9 each) vs. a road loop through row 2.
    const m = mapOf(['cffc', 'cccc'], { roads: [['0101', '0102', '0202', '0302', '0402', '0401']] });
    const a = army('a', '0101');
    const route = findRoute({ map: m, army: a, from: a.hex, fromBank: undefined, to: hx('0401'), opts: { period: 'day', night: false, unformed: false }, weather: NO_WEATHER_EFFECTS, profile: valormr(), blocked: new Set() });
    // Road 0101-0102-0202-0302 (4 each), then clear 0401 (6): 18, against 6 + 9 + 9 + 6 through the forest.
    expect(route?.path.map((h) => m.format(h))).toEqual(['0102', '0202', '0302', '0401']);
    expect(route?.cost).toBe(18);
  });
  it('GIVEN a major river with a bridge two hexes away THEN the route goes by the bridge, not by rafts', () => {
    const m = mapOf(['ccc', 'ccc', 'ccc', 'ccc', 'ccc', 'ccc', 'ccc'], { rivers: [riverDownColumn2('major', 'bridge', '0203', 7)] });
    const a = army('a', '0105');
    const plan = planMove(campaign([a]), m, NO_WEATHER_EFFECTS, 'a', { ...MOVE, to: hx('0305') });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.steps.some((s) => s.crossing?.method === 'bridge')).toBe(true);
    expect(plan.value.steps.some((s) => s.crossing?.method === 'rafts')).toBe(false);
  });
});

describe('the /move preview of a march longer than the days it lays out', () => {
  // Hills (9 points) and a fresh infantry army (12 a day): a hex a day, fewer once fatigued by the weekly rest.
  const hills = mapOf(['h'.repeat(99), 'h'.repeat(99)]);
  const state = campaign([army('arn', '0101')]);

  it('GIVEN a route of 98 hill hexes THEN the order is taken, the first 60 days shown, with the warning; the tick then marches past the last hex shown', () => {
    const plan = planMove(state, hills, NO_WEATHER_EFFECTS, 'arn', { ...MOVE, to: hx('9901') });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.days).toBe(60);
    expect(plan.value.steps.length).toBeGreaterThan(0);
    expect(plan.value.steps.length).toBeLessThan(98);
    expect(plan.value.steps.every((s) => s.dayOffset < 60)).toBe(true);
    const last = plan.value.steps.at(-1)!;
    expect(plan.value.warnings).toContainEqual({ code: 'move.pastPreview', message: `The march takes more than the 60 days the preview lays out; it shows them (to ${last.hex}), and the order stands for the rest of the route (${98 - plan.value.steps.length} more hexes).` });
    expect(plan.value.order.path).toHaveLength(98);
    const after = ticks({ ...state, orders: { arn: plan.value.order } }, hills, 4 * 61).state;
    expect(Number(at(after, hills, 'arn').slice(0, 2))).toBeGreaterThan(Number(last.hex.slice(0, 2)));
    expect(after.orders['arn']).toBeDefined();
  });
});
