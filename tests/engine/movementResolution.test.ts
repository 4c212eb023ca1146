import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { detectContacts, openContacts } from '../../src/engine/movement/contacts.js';
import { movementStep } from '../../src/engine/movement/index.js';
import { rankContenders } from '../../src/engine/movement/contest.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, at, campaign, dice, hexes, hx, mapOf, order, pathOf, rawOrder, tick } from './movementFixtures.js';

const map = mapOf(['ccccc', 'ccccc', 'ccccc', 'ccccc', 'ccccc']);
const step = (s: CampaignState, d = dice()) => movementStep({ state: s, map, dice: d, weather: NO_WEATHER_EFFECTS });

describe('RULINGS 3: contested hexes — the tie-breaks in order', () => {
  it('GIVEN two forces entering 0102 in the morning THEN the one with fewer troop figures takes it', () => {
    let s = campaign([army('ann', '0101', { figures: [10] }), army('bert', '0103', { figures: [20] })]);
    s = order(s, map, 'ann', { path: hexes('0102') });
    s = order(s, map, 'bert', { path: hexes('0102') });
    const out = step(s);
    expect(at(out.state, map, 'ann')).toBe('0102');
    expect(at(out.state, map, 'bert')).toBe('0103');
    const contested = out.events.find((e) => e.type === 'hexContested' && e.audience.kind === 'public');
    // Who won, in order, and nothing more: the reason would tell who has fewer troops.
    expect(contested?.data).toEqual({ hex: '0102', half: 'morning', ranking: ['ann', 'bert'] });
    const reason = out.events.find((e) => e.type === 'hexContestDecided');
    expect(reason?.audience).toEqual({ kind: 'referee' });
    expect(reason?.data).toEqual({ hex: '0102', ranking: ['ann', 'bert'], decidedBy: 'fewerTroops' });
    expect(out.events.find((e) => e.type === 'armyBlocked')?.data).toEqual({ armyId: 'bert', hex: '0103', blockedAt: '0102', reason: 'occupied', by: 'ann' });
  });

  it('GIVEN equal troops THEN the force with more points left after entering wins (cavalry over infantry)', () => {
    let s = campaign([army('bert', '0101', { figures: [20] }), army('cav', '0103', { figures: [20], movementClass: 'cavalry' })]);
    s = order(s, map, 'bert', { path: hexes('0102') });
    s = order(s, map, 'cav', { path: hexes('0102') });
    const out = step(s);
    expect(at(out.state, map, 'cav')).toBe('0102');
    expect(out.events.find((e) => e.type === 'hexContestDecided')?.data?.['decidedBy']).toBe('morePointsLeft');
  });

  it('GIVEN equal troops and points left THEN more daily move points win', () => {
    const cav = army('cav', '0101', { movementClass: 'cavalry' });
    const tired = { ...cav, march: { ...cav.march, spentToday: 12, spentPeriod: 12 } };
    let s = campaign([tired, army('bert', '0103')], { day: 1, half: 1 });
    s = { ...s, orders: { cav: rawOrder('cav', hexes('0102')), bert: rawOrder('bert', hexes('0102')) } };
    const out = step(s);
    expect(at(out.state, map, 'cav')).toBe('0102');
    expect(out.events.find((e) => e.type === 'hexContestDecided')?.data?.['decidedBy']).toBe('moreDailyPoints');
  });

  it('GIVEN a full tie THEN a die decides, ties rolling again', () => {
    let s = campaign([army('ann', '0101'), army('bert', '0103')]);
    s = { ...s, orders: { ann: rawOrder('ann', hexes('0102')), bert: rawOrder('bert', hexes('0102')) } };
    const first = step(s, dice([2, 5]));
    expect(at(first.state, map, 'bert')).toBe('0102');
    const again = step(s, dice([3, 3, 6, 1]));
    expect(at(again.state, map, 'ann')).toBe('0102');
    expect(again.events.find((e) => e.type === 'hexContestDecided')?.data?.['decidedBy']).toBe('dice');
  });

  it('rankContenders orders every contender', () => {
    const r = rankContenders([
      { armyId: 'a', figures: 20, remainingAfter: 6, dailyPoints: 12 },
      { armyId: 'b', figures: 10, remainingAfter: 0, dailyPoints: 12 },
      { armyId: 'c', figures: 20, remainingAfter: 18, dailyPoints: 24 },
    ], dice(), '0101');
    expect(r.ranking).toEqual(['b', 'c', 'a']);
    expect(r.decidedBy).toBe('fewerTroops');
  });

  it('GIVEN the winner is cavalry passing through THEN the halted force follows into the hex', () => {
    let s = campaign([army('cav', '0101', { figures: [5], movementClass: 'cavalry' }), army('inf', '0201', { figures: [20] })]);
    s = order(s, map, 'cav', { path: hexes('0102 0103 0104') });
    s = order(s, map, 'inf', { path: hexes('0102') });
    const out = step(s);
    expect(at(out.state, map, 'cav')).toBe('0103');
    expect(at(out.state, map, 'inf')).toBe('0102');
    expect(out.state.orders['inf']).toBeUndefined();
  });
});

describe('RULINGS 3: one commander per hex, no passing through', () => {
  it('GIVEN a stationary commander on the path THEN the mover halts before it and the order is cancelled', () => {
    let s = campaign([army('ann', '0101'), army('still', '0102')]);
    s = { ...s, orders: { ann: rawOrder('ann', hexes('0102 0103')) } };
    const out = step(s);
    expect(at(out.state, map, 'ann')).toBe('0101');
    expect(out.state.orders['ann']).toBeUndefined();
    expect(out.events.find((e) => e.type === 'armyBlocked')?.data).toEqual({ armyId: 'ann', hex: '0101', blockedAt: '0102', reason: 'occupied', by: 'still' });
  });
  it('GIVEN two forces swapping hexes THEN neither passes through the other', () => {
    let s = campaign([army('ann', '0101'), army('bert', '0102')]);
    s = { ...s, orders: { ann: rawOrder('ann', hexes('0102')), bert: rawOrder('bert', hexes('0101')) } };
    const out = step(s);
    expect(at(out.state, map, 'ann')).toBe('0101');
    expect(at(out.state, map, 'bert')).toBe('0102');
  });
  it('GIVEN a force leaving a hex earlier in the half THEN another may move into it', () => {
    let s = campaign([army('ann', '0102', { movementClass: 'cavalry' }), army('bert', '0101')]);
    s = { ...s, orders: { ann: rawOrder('ann', hexes('0103 0104')), bert: rawOrder('bert', hexes('0102')) } };
    const out = step(s);
    expect(at(out.state, map, 'bert')).toBe('0102');
  });
});

describe('RULINGS 3: map contact stops movement', () => {
  it('GIVEN a force moving next to a hostile commander in the afternoon THEN it stops, the order ends and a contact opens', () => {
    let s = campaign([army('lara', '0101'), army('xan', '0203', { side: 'chaos' })]);
    s = order(s, map, 'lara', { path: hexes('0102 0103 0104') });
    s = tick(s, map).state; // morning: 0102
    expect(at(s, map, 'lara')).toBe('0102');
    const out = tick(s, map); // afternoon: 0103 is next to 0203
    expect(at(out.state, map, 'lara')).toBe('0103');
    expect(out.state.orders['lara']).toBeUndefined();
    const c = Object.values(out.state.contacts)[0];
    expect(c).toMatchObject({ id: 'c1', armyIds: ['lara', 'xan'], step: 'step1', openedAt: { day: 1, half: 1 } });
    expect(out.state.nextId).toBe(2);
    expect((out.state.armies['lara'] as Army).status.inContact).toBe(true);
    const pub = out.events.find((e) => e.type === 'contactMade' && e.audience.kind === 'public');
    expect(pub?.data).toEqual({ contactId: 'c1', armyIds: ['lara', 'xan'], near: '0103' });
  });

  it('GIVEN contact in the morning THEN the order is kept for later and saved points are lost', () => {
    const lara0 = army('lara', '0101', { movementClass: 'cavalry' });
    const lara = { ...lara0, march: { ...lara0.march, savedPoints: 6 } };
    let s = campaign([lara, army('xan', '0203', { side: 'chaos' })]);
    s = order(s, map, 'lara', { path: hexes('0102 0103 0104 0105') });
    const out = step(s);
    expect(at(out.state, map, 'lara')).toBe('0103');
    expect(pathOf(out.state.orders['lara']).map((h) => map.format(h))).toEqual(['0104', '0105']);
    expect((out.state.armies['lara'] as Army).march.savedPoints).toBe(0);
  });

  it('GIVEN a moving opponent touched THEN it stops too', () => {
    let s = campaign([army('lara', '0101', { movementClass: 'cavalry' }), army('xan', '0303', { side: 'chaos', movementClass: 'cavalry' })]);
    // Xan enters 0203 at 0.25, next to Lara's 0102 path? Lara enters 0102 at 0.25, 0103 at 0.5.
    s = { ...s, orders: { lara: rawOrder('lara', hexes('0102 0103 0104')), xan: rawOrder('xan', hexes('0203 0204 0205')) } };
    const out = step(s);
    const lara = out.state.armies['lara'] as Army;
    const xan = out.state.armies['xan'] as Army;
    expect(lara.status.inContact && xan.status.inContact).toBe(true);
    expect(at(out.state, map, 'xan')).toBe('0203');
  });

  it('detectContacts groups mutually adjacent hostile commanders; allies alone are no contact', () => {
    const s = campaign([army('a', '0101'), army('b', '0102', { side: 'chaos' }), army('c', '0103'), army('d', '0505'), army('e', '0504')]);
    expect(detectContacts(s)).toEqual([['a', 'b', 'c']]);
  });

  it('GIVEN a group told to fight on the morrow THEN it is not reopened until its time', () => {
    const s0 = campaign([army('a', '0101'), army('b', '0102', { side: 'chaos' })]);
    const s = { ...s0, contacts: { c9: { id: 'c9', armyIds: ['a', 'b'], hexes: [], openedAt: s0.clock, step: 'closed' as const, data: { quietUntil: 1 } } } };
    expect(openContacts(s, detectContacts(s)).state.contacts['c1']).toBeUndefined();
    const later = { ...s, clock: { day: 1, half: 1 as const } };
    expect(openContacts(later, detectContacts(later)).state.contacts['c1']).toBeDefined();
  });

  it('GIVEN a destroyed or embarked army THEN it makes no contact', () => {
    const b = army('b', '0102', { side: 'chaos' });
    const s = campaign([army('a', '0101'), { ...b, status: { ...b.status, embarked: true } }]);
    expect(detectContacts(s)).toEqual([]);
  });
});

describe('movement outcome lines', () => {
  it('GIVEN a march THEN the chronicle says where, and the commander gets points left', () => {
    let s = campaign([army('ann', '0101', { movementClass: 'cavalry' })]);
    s = order(s, map, 'ann', { path: hexes('0102 0103') });
    const out = step(s);
    expect(out.events.find((e) => e.type === 'armyMoved')?.data).toEqual({ armyId: 'ann', from: '0101', to: '0103', path: ['0102', '0103'], crossings: [] });
    const own = out.events.find((e) => e.type === 'movementOutcome');
    expect(own?.audience).toEqual({ kind: 'army', armyId: 'ann' });
    expect(own?.data).toMatchObject({ armyId: 'ann', moved: 'marched', hex: '0103', pointsLeft: 12, allowance: 24, notes: [] });
    expect(hx('0103')).toEqual((out.state.armies['ann'] as Army).hex);
  });
});

describe('resolution under night and weather rules', () => {
  it('GIVEN a light-sighted night order THEN one clear hex costs 12 and is entered in the night half', () => {
    let s = campaign([army('ann', '0101')], { day: 1, half: 2 });
    s = order(s, map, 'ann', { path: hexes('0102 0103'), period: 'night' });
    const evening = step(s);
    expect(at(evening.state, map, 'ann')).toBe('0101');
    const night = step({ ...evening.state, clock: { day: 1, half: 3 } });
    expect(at(night.state, map, 'ann')).toBe('0102');
    expect((night.state.armies['ann'] as Army).march.spentToday).toBe(12);
  });

  it('GIVEN hard rain (x0.75) THEN infantry has 9 points and one clear hex, entered in the afternoon', () => {
    const rain = { ...NO_WEATHER_EFFECTS, overlandFactor: 0.75 };
    let s = campaign([army('ann', '0101')]);
    s = order(s, map, 'ann', { path: hexes('0102 0103') }, rain);
    const morning = movementStep({ state: s, map, dice: dice(), weather: rain });
    expect(at(morning.state, map, 'ann')).toBe('0101');
    // An order that entered no hex is kept as the very record: the save and the journal pass over it without comparing.
    expect(morning.state.orders['ann']).toBe(s.orders['ann']);
    const afternoon = movementStep({ state: { ...morning.state, clock: { day: 1, half: 1 } }, map, dice: dice(), weather: rain });
    expect(at(afternoon.state, map, 'ann')).toBe('0102');
    expect(pathOf(afternoon.state.orders['ann']).map((h) => map.format(h))).toEqual(['0103']);
  });

  it('GIVEN a ford closed by rain after the order THEN the army does not commit to rafts; it waits on the near bank', () => {
    const m = mapOf(['ccc', 'ccc', 'ccc', 'ccc', 'ccc'], { rivers: [{ id: 'r', name: 'R', hexes: ['0201', '0202', '0203', '0204', '0205'].map((id) => ({ hex: id, size: 'minor' as const, ...(id === '0202' ? { crossing: 'ford' as const } : {}) })) }] });
    let s = campaign([army('ann', '0102')]);
    s = order(s, m, 'ann', { path: hexes('0202'), crossAtEnd: true });
    const wet = { ...NO_WEATHER_EFFECTS, fordsClosed: true };
    let out = movementStep({ state: s, map: m, dice: dice(), weather: wet });
    out = movementStep({ state: { ...out.state, clock: { day: 1, half: 1 } }, map: m, dice: dice(), weather: wet });
    const ann = out.state.armies['ann'] as Army;
    expect(m.format(ann.hex)).toBe('0202');
    expect(ann.bank).toBe('right');
    expect(ann.march.operation).toBeUndefined();
    expect(out.state.orders['ann']).toBeDefined();
    expect(out.events.find((e) => e.type === 'movementOutcome')?.data?.['notes']).toEqual([{ kind: 'crossingChanged', method: 'rafts' }]);
  });

  it('GIVEN no overland movement (rain level 4) THEN the order is accepted with a warning and waits', async () => {
    const { planMove } = await import('../../src/engine/movement/index.js');
    const deluge = { ...NO_WEATHER_EFFECTS, overlandFactor: 0, overlandReason: 'rain level 4' };
    const s = campaign([army('ann', '0101')]);
    const plan = planMove(s, map, deluge, 'ann', { period: 'day', forced: false, unformed: false, save: false, crossAtEnd: false, path: hexes('0102') });
    expect(plan.ok && plan.value.warnings.map((w) => w.code)).toContain('move.weatherHalted');
    const stored = { ...s, orders: { ann: plan.ok ? plan.value.order : rawOrder('ann', []) } };
    const out = movementStep({ state: stored, map, dice: dice(), weather: deluge });
    expect(at(out.state, map, 'ann')).toBe('0101');
    expect(out.state.orders['ann']).toBeDefined();
  });
});

describe('RULINGS 3: a commander with a night order stands still by day', () => {
  it('GIVEN the hex is held by an army whose order is for the night THEN the day mover halts and its order is cancelled', () => {
    let s = campaign([army('ann', '0101'), army('orc', '0102', { sight: 'dark' })]);
    s = { ...s, orders: { ann: rawOrder('ann', hexes('0102')), orc: rawOrder('orc', hexes('0103'), { period: 'night' }) } };
    const out = step(s);
    expect(at(out.state, map, 'ann')).toBe('0101');
    expect(out.state.orders['ann']).toBeUndefined();
    expect(out.state.orders['orc']).toBeDefined();
  });
});
