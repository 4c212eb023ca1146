import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events/events.js';
import { loadShippedScenario, mapOf } from '../../src/app/scenarios.js';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { Army } from '../../src/engine/forces/army.js';
import { parseHex } from '../../src/engine/hex/hexId.js';
import { buildMap, type MapModel } from '../../src/engine/map/mapModel.js';
import type { CampaignState, VesselCounts, WeatherEffects, WeatherState } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { weatherEffects } from '../../src/engine/weather/weatherEffects.js';
import { advanceFleet } from '../../src/engine/water/sail.js';
import { awaitedRegiments, debark, embark, fleetStep, parseVessels, planSail, VESSELS, type FleetState } from '../../src/engine/water/index.js';
import { boardingViolation, planLoad } from '../../src/engine/water/embark.js';
import { checkStep, isCoastalWaters, isOpenSea } from '../../src/engine/water/navigation.js';
import { fleetCapacity, fleetCost } from '../../src/engine/water/vessels.js';
import { fleetHalfPoints, fleetOf, halfPoints } from '../../src/engine/water/fleet.js';
import { halves } from './movementFixtures.js';

const scenario = loadShippedScenario('valormr');
const map = mapOf(scenario);
const h = (id: string) => {
  const x = parseHex(id);
  if (!x) throw new Error(id);
  return x;
};
const fresh = (clock: GameTime = { day: 1, half: 0 }, settings = {}): CampaignState => ({ ...newCampaign({ id: 'w', name: 'w', scenario, seed: 1, settings }), status: 'running', clock });
const place = (s: CampaignState, id: string, hex: string): CampaignState => {
  const a = s.armies[id] as Army;
  const { bank: _b, ...rest } = a;
  return { ...s, armies: { ...s.armies, [id]: { ...rest, hex: h(hex) } } };
};
const weather = (w: Partial<WeatherState>): WeatherEffects => weatherEffects({ sky: 'clear', fog: false, wind: 'none', rainLevel: 0, track: {}, ...w }, { drought: false, profile: 'valormr' as const });
const FOG = weather({ fog: true });
const CALM = weather({ wind: 'calm' });
const HIGH = weather({ wind: 'highWinds' });
const GALE = weather({ wind: 'gale' });
const dice = () => new SeededDice(createRngState(3), []);
const fleet = (vessels: VesselCounts, extra: Partial<FleetState> = {}): FleetState => ({ vessels, regiments: [], ashore: [], embarkedFrom: '', embarkedAt: 0, escortLost: false, carry: 0, carryDay: 1, waitHalves: 0, sighted: [], ...extra });
const must = <T>(r: { ok: true; value: T } | { ok: false; violation: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
};
const code = (r: { ok: boolean; violation?: { code: string } }) => (r.ok ? 'ok' : r.violation?.code);

function embarked(s: CampaignState, id: string, vessels: VesselCounts, advanced = false): CampaignState {
  return must(embark(s, map, { armyId: id, vessels, givenBy: 'u', advanced })).state;
}
function tick(s: CampaignState, w: WeatherEffects = NO_WEATHER_EFFECTS): { state: CampaignState; events: readonly EngineEvent[] } {
  const out = fleetStep({ state: s, map, dice: dice(), weather: w });
  const c = out.state.clock;
  const next = c.half === 3 ? { day: c.day + 1, half: 0 as const } : { day: c.day, half: (c.half + 1) as 0 | 1 | 2 | 3 };
  return { state: { ...out.state, clock: next }, events: out.events };
}

describe('vessel table (000 Waterborne Vessels)', () => {
  it('holds the rates, capacities and costs of the texts', () => {
    expect(VESSELS.galley).toMatchObject({ rowed: 18, sailed: 72, capacity: 0, cost: 4, escort: true });
    expect(VESSELS.longship).toMatchObject({ rowed: 18, sailed: 90, capacity: 2 });
    expect(VESSELS.longship.cost).toBeUndefined();
    expect(VESSELS.riverBoat).toMatchObject({ rowed: 36, capacity: 0.25, cost: 0.25, seagoing: false, rivers: true });
    expect(VESSELS.sailingShip).toMatchObject({ sailed: 90, capacity: 0.5, cost: 0.75, catapultCost: 0.25, openSea: true });
    expect(VESSELS.troopTransport).toMatchObject({ sailed: VESSELS.galley.sailed, capacity: 3, cost: 3, openSea: true, deepDraft: true, landing: 'portOnly' });
  });

  it('parses vessel lists and refuses bad ones', () => {
    expect(must(parseVessels('troopTransport=9,galley=1'))).toEqual({ troopTransport: 9, galley: 1 });
    expect(must(parseVessels('river boats=8'))).toEqual({ riverBoat: 8 });
    expect(must(parseVessels('9 longships'))).toEqual({ longship: 9 });
    expect(code(parseVessels('dragons=2'))).toBe('embark.badVessels');
    expect(code(parseVessels(''))).toBe('embark.noVessels');
  });

  it('EXAMPLE: Aeskrvald embarks its 27-figure regiment on nine troop transports, 27 points plus 4 for a galley escort', () => {
    const a = fresh().armies['aeskrvald'] as Army;
    const load = must(planLoad(a, { troopTransport: 9, galley: 1 }));
    expect(load.capacity).toBe(27);
    expect(load.aboard.map((r) => [r.id, r.figures])).toEqual([['first', 27]]);
    expect(load.ashore.map((r) => r.id)).toEqual(['second']);
    expect(fleetCost({ troopTransport: 9 })).toBe(27);
    expect(fleetCost({ troopTransport: 9, galley: 1 })).toBe(31);
    expect(load.galleys).toBe(1);
    expect(load.escortNeeded).toBe(1);
  });

  it('EXAMPLE: the Northmen embark three regiments of six on nine longships, at no cost', () => {
    const a = fresh().armies['noerdenheim'] as Army;
    const load = must(planLoad(a, { longship: 9 }));
    expect(load.capacity).toBe(18);
    expect(load.aboard).toHaveLength(3);
    expect(load.ashore).toHaveLength(0);
    expect(fleetCost({ longship: 9 })).toBe(0);
  });

  it('CAPACITY: whole regiments only; vessels for at least one regiment, refused with the arithmetic', () => {
    const a = fresh().armies['aeskrvald'] as Army;
    const r = planLoad(a, { troopTransport: 4 });
    expect(code(r)).toBe('embark.notEnoughCapacity');
    expect(r.ok ? '' : r.violation.message).toContain('4 troop transports x 3 = 12 figure(s)');
    expect(r.ok ? '' : r.violation.message).toContain('Second Regiment, has 14 figures');
    expect(r.ok ? '' : r.violation.message).toContain('5 troop transports');
    // Five transports would carry the 14-figure second regiment, never part of the first; but the
    // 27-figure first could then never follow by shuttle (15 figures a trip): refused.
    expect(code(planLoad(a, { troopTransport: 5 }))).toBe('embark.regimentTooLarge');
    const nine = must(planLoad(a, { troopTransport: 9 }));
    expect(nine.aboard.map((x) => x.id)).toEqual(['first']);
    // Galleys carry no troops; river boats a quarter figure each.
    expect(fleetCapacity({ galley: 5 })).toBe(0);
    expect(fleetCapacity({ riverBoat: 8, sailingShip: 2 })).toBe(3);
  });
});

describe('navigation (000 Coastal Waters, Open Sea, Rivers)', () => {
  it('COASTAL WATERS: sea hexes within two of a coast hex; beyond is open sea', () => {
    expect(isCoastalWaters(map, h('2302'))).toBe(true);
    expect(isCoastalWaters(map, h('2401'))).toBe(true);
    expect(isOpenSea(map, h('2501'))).toBe(true);
    expect(code(checkStep(map, ['galley'], h('2401'), h('2501')))).toBe('sail.openSeaForbidden');
    expect(code(checkStep(map, ['longship'], h('2401'), h('2501')))).toBe('sail.openSeaForbidden');
    expect(code(checkStep(map, ['sailingShip'], h('2401'), h('2501')))).toBe('ok');
    expect(code(checkStep(map, ['troopTransport'], h('2401'), h('2501')))).toBe('ok');
  });

  it('OPEN SEA: troop transports take their galley escort no further; the galleys do not bar the fleet', () => {
    const r = checkStep(map, ['galley', 'troopTransport'], h('2401'), h('2501'));
    expect(must(r).openSea).toBe(true);
  });

  it('MUD FLAT: north-coast mud flat only through the channels', () => {
    expect(code(checkStep(map, ['longship'], h('2202'), h('2203')))).toBe('sail.mudflat');
    expect(code(checkStep(map, ['longship'], h('2202'), h('2303')))).toBe('ok');
  });

  it('TRANSPORTS: only into coast hexes with a channel or port; other ships anywhere on the coast', () => {
    expect(code(checkStep(map, ['troopTransport'], h('2503'), h('2603')))).toBe('sail.shallowCoast');
    expect(code(checkStep(map, ['galley'], h('2503'), h('2603')))).toBe('ok');
    expect(code(checkStep(map, ['troopTransport'], h('2302'), h('2303')))).toBe('ok');
  });

  it('RIVERS: only river boats and longships; cataracts block; the canal only between its cataracts', () => {
    expect(code(checkStep(map, ['longship'], h('1504'), h('1505')))).toBe('ok');
    expect(code(checkStep(map, ['galley'], h('1504'), h('1505')))).toBe('sail.notRiverVessel');
    expect(code(checkStep(map, ['riverBoat'], h('1505'), h('1506')))).toBe('ok');
    expect(code(checkStep(map, ['riverBoat'], h('1505'), h('1504')))).toBe('sail.riverOnly');
    expect(code(checkStep(map, ['longship'], h('3410'), h('3311')))).toBe('sail.cataract');
    expect(code(checkStep(map, ['longship'], h('3409'), h('3410')))).toBe('ok');
    expect(code(checkStep(map, ['longship'], h('3404'), h('3405')))).toBe('sail.riverNotNavigable');
    expect(code(checkStep(map, ['longship'], h('1506'), h('1406')))).toBe('sail.land');
  });

  it('BOARDING: ports for every seagoing ship, beaches for longships and galleys, rivers for boats; transports only at ports', () => {
    expect(boardingViolation(map, ['troopTransport', 'galley'], h('2304'))).toBeUndefined();
    expect(boardingViolation(map, ['longship'], h('3003'))).toBeUndefined();
    expect(boardingViolation(map, ['longship'], h('3004'))).toContain('touches no coast hex');
    expect(boardingViolation(map, ['troopTransport'], h('3003'))).toContain('dock only at a port');
    expect(boardingViolation(map, ['riverBoat'], h('1508'))).toBeUndefined();
    expect(boardingViolation(map, ['riverBoat'], h('2304'))).toContain('navigable river');
  });
});

describe('embarking', () => {
  it('GIVEN Aeskrvald at East Port WHEN it embarks on nine transports and a galley THEN the first regiment sails, the second waits ashore', () => {
    const out = must(embark(fresh(), map, { armyId: 'aeskrvald', vessels: { troopTransport: 9, galley: 1 }, givenBy: 'u', advanced: false }));
    const a = out.state.armies['aeskrvald'] as Army;
    expect(a.status.embarked).toBe(true);
    const f = fleetOf(out.state, 'aeskrvald') as FleetState;
    expect(f.regiments).toEqual(['first']);
    expect(f.ashore).toEqual(['second']);
    expect(out.state.orders['aeskrvald']?.kind).toBe('sail');
    expect(out.events.find((e) => e.audience.kind === 'public')?.data).toEqual({ armyId: 'aeskrvald', hex: '2304', port: 'East Port' });
  });

  it('refuses vessels the army does not own, and longships to anyone but their owners', () => {
    expect(code(embark(fresh(), map, { armyId: 'aeskrvald', vessels: { troopTransport: 10 }, givenBy: 'u', advanced: false }))).toBe('embark.notOwned');
    expect(code(embark(fresh(), map, { armyId: 'aeskrvald', vessels: { longship: 2 }, givenBy: 'u', advanced: false }))).toBe('embark.notOwned');
    expect(code(embark(fresh(), map, { armyId: 'noerdenheim', vessels: { longship: 9 }, givenBy: 'u', advanced: false }))).toBe('embark.wrongPlace');
  });

  it('PARTIAL DAY: embarking in the afternoon leaves three of four half periods (-25 %), in the evening two (-50 %)', () => {
    expect(must(embark(fresh({ day: 1, half: 1 }), map, { armyId: 'aeskrvald', vessels: { troopTransport: 9 }, givenBy: 'u', advanced: false })).dayShare).toBe(0.75);
    expect(must(embark(fresh({ day: 1, half: 2 }), map, { armyId: 'aeskrvald', vessels: { troopTransport: 9 }, givenBy: 'u', advanced: false })).dayShare).toBe(0.5);
  });

  it('ADVANCED: at a port the fleet waits six hours (one half period); away from a port the army pays half its daily points', () => {
    const s = embarked(fresh(), 'aeskrvald', { troopTransport: 9 }, true);
    expect(fleetOf(s, 'aeskrvald')?.waitHalves).toBe(1);
    const n = embarked(place(fresh(), 'noerdenheim', '3003'), 'noerdenheim', { longship: 9 }, true);
    expect(n.armies['noerdenheim']?.march.spentToday).toBe(6);
    expect(fleetOf(n, 'noerdenheim')?.waitHalves).toBe(0);
  });
});

describe('points per half period (000 Move Rates, Night Movement, weather)', () => {
  const day = { day: 1, half: 0 } as const;
  const night = { day: 1, half: 3 } as const;
  it('under sail a quarter of the daily points each half, day and night; rowed vessels by day only', () => {
    expect(halfPoints('troopTransport', 'sea', NO_WEATHER_EFFECTS, day)).toBe(18);
    expect(halfPoints('troopTransport', 'sea', NO_WEATHER_EFFECTS, night)).toBe(18);
    expect(halfPoints('longship', 'sea', NO_WEATHER_EFFECTS, night)).toBe(22.5);
    expect(halfPoints('longship', 'river', NO_WEATHER_EFFECTS, day)).toBe(9);
    expect(halfPoints('longship', 'river', NO_WEATHER_EFFECTS, night)).toBe(0);
    expect(halfPoints('riverBoat', 'river', NO_WEATHER_EFFECTS, day)).toBe(18);
  });
  it('FOG: points / 8 per half period at sea', () => {
    expect(halfPoints('sailingShip', 'sea', FOG, day)).toBe(90 / 8);
    expect(FOG.portsClosed).toBe(true);
  });
  it('CALM: sailed vessels stop; galleys and longships row', () => {
    expect(halfPoints('troopTransport', 'sea', CALM, day)).toBe(0);
    expect(halfPoints('sailingShip', 'sea', CALM, day)).toBe(0);
    expect(halfPoints('galley', 'sea', CALM, day)).toBe(9);
    expect(halfPoints('longship', 'sea', CALM, day)).toBe(9);
    expect(fleetHalfPoints({ troopTransport: 9, galley: 1 }, 'sea', CALM, day)).toBe(0);
  });
  it('HIGH WINDS: sailed ships 50 % faster; ports closed', () => {
    expect(halfPoints('sailingShip', 'sea', HIGH, day)).toBe(33.75);
    expect(HIGH.portsClosed).toBe(true);
  });
  it('GALE: no ship at sea moves; boats on rivers still row', () => {
    expect(halfPoints('longship', 'sea', GALE, day)).toBe(0);
    expect(halfPoints('galley', 'sea', GALE, day)).toBe(0);
    expect(halfPoints('riverBoat', 'river', GALE, day)).toBe(18);
  });
  it('a fleet moves at its slowest vessel', () => {
    expect(fleetHalfPoints({ longship: 1, troopTransport: 1 }, 'sea', NO_WEATHER_EFFECTS, day)).toBe(18);
  });
});

describe('fleetStep', () => {
  function sailing(path: string[], vessels: VesselCounts = { troopTransport: 9, galley: 1 }, clock: GameTime = { day: 1, half: 0 }): CampaignState {
    const s = embarked(fresh(clock), 'aeskrvald', vessels);
    const plan = must(planSail(s, map, 'aeskrvald', { path: path.map(h), givenBy: 'u' }, NO_WEATHER_EFFECTS));
    return { ...s, orders: { ...s.orders, aeskrvald: plan.order } };
  }
  const at = (s: CampaignState, id = 'aeskrvald') => map.format((s.armies[id] as Army).hex);
  const ROUTE = ['2303', '2202', '2102', '2002', '1902', '1802', '1702', '1602', '1503', '1402'];

  it('SAIL DAY AND NIGHT: 72 points a day = 3 hexes each half period, twelve by daybreak, half of them by evening', () => {
    let s = sailing(ROUTE);
    s = tick(s).state;
    expect(at(s)).toBe('2102');
    s = tick(s).state;
    expect(at(s)).toBe('1802');
    s = tick(s).state;
    s = tick(s).state;
    expect(at(s)).toBe('1402');
  });

  it('LONGSHIPS under sail: 90 points a day make 15 hexes, fractions carried within the day', () => {
    let n = embarked(place(fresh(), 'noerdenheim', '3003'), 'noerdenheim', { longship: 9 });
    const plan = must(planSail(n, map, 'noerdenheim', { to: h('1505'), givenBy: 'u' }, NO_WEATHER_EFFECTS));
    expect(plan.path).toHaveLength(18);
    n = { ...n, orders: { ...n.orders, noerdenheim: plan.order } };
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = plan.path.indexOf(at(n, 'noerdenheim'));
      n = tick(n).state;
      counts.push(plan.path.indexOf(at(n, 'noerdenheim')) - before);
    }
    expect(counts).toEqual([3, 4, 4, 4]);
    expect(at(n, 'noerdenheim')).toBe('1602');
  });

  it('ADVANCED: the fleet waits one half period for the tide before it sails', () => {
    const s = embarked(fresh(), 'aeskrvald', { troopTransport: 9 }, true);
    const plan = must(planSail(s, map, 'aeskrvald', { path: ROUTE.map(h), givenBy: 'u' }, NO_WEATHER_EFFECTS));
    expect(plan.preview[0]).toMatchObject({ hex: '2303', half: 'afternoon' });
    let t = tick({ ...s, orders: { ...s.orders, aeskrvald: plan.order } });
    expect(at(t.state)).toBe('2304');
    expect(t.events.find((e) => e.type === 'fleetOutcome')?.data).toMatchObject({ sailed: false, notes: [{ kind: 'tide' }] });
    t = tick(t.state);
    expect(at(t.state)).toBe('2102');
  });

  it('A FULL DAY IN TRANSPORT IS REST: transports leave the rest log alone; crews of longships log movement', () => {
    const s = sailing(ROUTE);
    const rested = { ...s, armies: { ...s.armies, aeskrvald: { ...(s.armies['aeskrvald'] as Army), march: { ...(s.armies['aeskrvald'] as Army).march, recentHalves: halves('r') } } } };
    expect(tick(rested).state.armies['aeskrvald']?.march.recentHalves).toEqual(halves('r'));
    let n = embarked(place(fresh(), 'noerdenheim', '3003'), 'noerdenheim', { longship: 9 });
    const plan = must(planSail(n, map, 'noerdenheim', { to: h('2603'), givenBy: 'u' }, NO_WEATHER_EFFECTS));
    n = { ...n, orders: { ...n.orders, noerdenheim: plan.order }, armies: { ...n.armies, noerdenheim: { ...(n.armies['noerdenheim'] as Army), march: { ...(n.armies['noerdenheim'] as Army).march, recentHalves: halves('r') } } } };
    const after = tick(n).state.armies['noerdenheim'] as Army;
    expect(after.march.recentHalves).toEqual(halves('m'));
    expect(after.march.movedToday).toBe(true);
  });

  it('FOG IN PORT: the fleet cannot leave; at sea it makes points / 8', () => {
    const s = sailing(ROUTE);
    const r = tick(s, FOG);
    expect(at(r.state)).toBe('2304');
    expect(r.events.find((e) => e.type === 'fleetOutcome')?.data).toMatchObject({ notes: [{ kind: 'portClosed', hex: '2303' }] });
    // At sea in fog: 72 / 8 = 9 points: one hex, 3 carried.
    const out = advanceFleet(map, { ...(s.armies['aeskrvald'] as Army), hex: h('2303') }, fleetOf(s, 'aeskrvald') as FleetState, ROUTE.slice(1).map(h), { day: 1, half: 0 }, FOG, new Map());
    expect(out.entered.map((e) => map.format(e.hex))).toEqual(['2202']);
    expect(out.fleet.carry).toBe(3);
  });

  it('CALM holds transports; GALE holds every ship at sea; HIGH WINDS speed them', () => {
    const s = sailing(ROUTE);
    const a = { ...(s.armies['aeskrvald'] as Army), hex: h('2303') };
    const f = fleetOf(s, 'aeskrvald') as FleetState;
    expect(advanceFleet(map, a, f, ROUTE.slice(1).map(h), { day: 1, half: 0 }, CALM, new Map()).stop.kind).toBe('calm');
    expect(advanceFleet(map, a, f, ROUTE.slice(1).map(h), { day: 1, half: 0 }, GALE, new Map()).stop.kind).toBe('gale');
    expect(advanceFleet(map, a, f, ROUTE.slice(1).map(h), { day: 1, half: 0 }, HIGH, new Map()).entered).toHaveLength(4);
    const galleyOnly = advanceFleet(map, a, fleet({ galley: 1 }), ROUTE.slice(1).map(h), { day: 1, half: 0 }, CALM, new Map());
    expect(galleyOnly.entered).toHaveLength(1);
  });

  it('ONE COMMANDER PER HEX: a fleet waits before a hex another commander holds', () => {
    let s = sailing(ROUTE);
    s = embarked(place(s, 'noerdenheim', '3003'), 'noerdenheim', { longship: 9 });
    s = { ...s, armies: { ...s.armies, noerdenheim: { ...(s.armies['noerdenheim'] as Army), hex: h('2202') } } };
    const r = tick(s);
    expect(at(r.state)).toBe('2303');
    expect(r.events.find((e) => e.type === 'fleetOutcome')?.data).toMatchObject({ notes: [{ kind: 'occupied', hex: '2202', by: 'noerdenheim' }] });
  });

  it('CONTACT AT SEA: reported publicly, once, and not fought', () => {
    let s = sailing(['2303']);
    // Lizard men in boats of their own lie at 2202, next to the channel.
    const liz = s.armies['lizardmen'] as Army;
    s = { ...s, armies: { ...s.armies, lizardmen: { ...liz, hex: h('2202'), status: { ...liz.status, embarked: true } } } };
    const r = tick(s);
    const seen = r.events.filter((e) => e.type === 'fleetSighted' && e.audience.kind === 'public');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.data).toEqual({ armyIds: ['aeskrvald', 'lizardmen'], hexes: ['2303', '2202'], otherAfloat: true });
    expect(Object.keys(r.state.contacts)).toHaveLength(0);
    expect(tick(r.state).events.filter((e) => e.type === 'fleetSighted')).toHaveLength(0);
  });

  it('ESCORT: transports straying into open sea lose the galley escort', () => {
    const s = sailing(['2303', '2302', '2401', '2501']);
    let r = tick(s);
    r = tick(r.state);
    expect(fleetOf(r.state, 'aeskrvald')?.escortLost).toBe(true);
    expect(r.events.find((e) => e.type === 'fleetOutcome')?.data?.['notes']).toContainEqual({ kind: 'escortLost' });
  });
});

describe('debarking (000 Debarkation; Coastal Waters)', () => {
  it('transports dock only at a port; in a gale any ship on a coast hex may beach', () => {
    let s = embarked(fresh(), 'aeskrvald', { troopTransport: 9 });
    s = place(s, 'aeskrvald', '2303');
    s = { ...s, armies: { ...s.armies, aeskrvald: { ...(s.armies['aeskrvald'] as Army), status: { ...(s.armies['aeskrvald'] as Army).status, embarked: true } } } };
    expect(code(debark(s, map, { armyId: 'aeskrvald', hex: h('2203'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS))).toBe('debark.water');
    expect(code(debark(s, map, { armyId: 'aeskrvald', hex: h('2304'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS))).toBe('debark.needsPort');
    expect(code(debark(s, map, { armyId: 'aeskrvald', hex: h('2304'), givenBy: 'u', advanced: false }, GALE))).toBe('ok');
  });

  it('longships beach on any coast hex; on a river either bank', () => {
    let s = embarked(place(fresh(), 'noerdenheim', '3003'), 'noerdenheim', { longship: 9 });
    s = { ...s, armies: { ...s.armies, noerdenheim: { ...(s.armies['noerdenheim'] as Army), hex: h('3002') } } };
    const out = must(debark(s, map, { armyId: 'noerdenheim', hex: h('2903'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS));
    expect(out.state.armies['noerdenheim']?.status.embarked).toBe(false);
    s = { ...s, armies: { ...s.armies, noerdenheim: { ...(s.armies['noerdenheim'] as Army), hex: h('1506') } } };
    const river = must(debark(s, map, { armyId: 'noerdenheim', hex: h('1506'), bank: 'right', givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS));
    expect(river.state.armies['noerdenheim']?.bank).toBe('right');
  });

  it('the army does not march until every regiment has arrived; the commander may step one hex off the port', () => {
    let s = embarked(fresh({ day: 1, half: 0 }), 'aeskrvald', { troopTransport: 9, galley: 1 });
    // The voyage to Skullhaven and back is simulated by the clock: two half periods out.
    s = { ...s, clock: { day: 1, half: 2 }, armies: { ...s.armies, aeskrvald: { ...(s.armies['aeskrvald'] as Army), hex: h('0506') } } };
    s = place(s, 'lizardmen', '0607');
    s = { ...s, armies: { ...s.armies, aeskrvald: { ...(s.armies['aeskrvald'] as Army), status: { ...(s.armies['aeskrvald'] as Army).status, embarked: true } } } };
    expect(code(debark(s, map, { armyId: 'aeskrvald', hex: h('0508'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS))).toBe('debark.tooFar');
    const out = must(debark(s, map, { armyId: 'aeskrvald', hex: h('0406'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS));
    const asm = awaitedRegiments(out.state, 'aeskrvald');
    expect(asm?.batches).toEqual([{ regiments: ['second'], arrivesAt: 2 + 4 }]);
    let t = { ...out.state, clock: { day: 2, half: 1 } as GameTime };
    let r = fleetStep({ state: t, map, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(awaitedRegiments(r.state, 'aeskrvald')).toBeDefined();
    t = { ...out.state, clock: { day: 2, half: 2 } as GameTime };
    r = fleetStep({ state: t, map, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(awaitedRegiments(r.state, 'aeskrvald')).toBeUndefined();
    expect(r.events.some((e) => e.type === 'armyAssembled')).toBe(true);
  });
});

describe('sail orders', () => {
  it('previews hex by hex with the half period and refuses illegal paths with the rule', () => {
    const s = embarked(fresh(), 'aeskrvald', { troopTransport: 9, galley: 1 });
    const plan = must(planSail(s, map, 'aeskrvald', { to: h('0506'), givenBy: 'u' }, NO_WEATHER_EFFECTS));
    expect(plan.preview[0]).toMatchObject({ hex: '2303', day: 1, half: 'morning' });
    expect(plan.preview.at(-1)?.hex).toBe('0506');
    expect(plan.halves).toBe(7);
    const bad = planSail(s, map, 'aeskrvald', { path: [h('2303'), h('2203')], givenBy: 'u' }, NO_WEATHER_EFFECTS);
    expect(code(bad)).toBe('sail.mudflat');
    expect(bad.ok ? '' : bad.violation.message).toMatch(/^Step 2 \(2203\)/);
    const fog = must(planSail(s, map, 'aeskrvald', { to: h('0506'), givenBy: 'u' }, FOG));
    expect(fog.warnings.join(' ')).toContain('port is closed');
  });

  it('refuses a fleet that is not embarked', () => {
    expect(code(planSail(fresh(), map, 'aeskrvald', { to: h('0506'), givenBy: 'u' }, NO_WEATHER_EFFECTS))).toBe('sail.notEmbarked');
  });
});

describe('a small fixture map', () => {
  it('coastal waters reach exactly two hexes out', () => {
    const m: MapModel = buildMap({ width: 6, height: 1, terrain: ['cwoooo'], roads: [], tracks: [], rivers: [], ports: [], channels: [], mudflats: [], towns: [], fortifications: [], regions: [], labels: [] });
    expect(['0201', '0301', '0401', '0501'].map((x) => isCoastalWaters(m, h(x)))).toEqual([true, true, true, false]);
  });
});

describe('a tick with no ships', () => {
  it('GIVEN no army afloat and no regiment shuttled ashore THEN the ships\' step leaves the state as it is and says nothing; one fleet afloat and it sails', () => {
    const s = fresh();
    const out = fleetStep({ state: s, map, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(out.state).toBe(s);
    expect(out.events).toEqual([]);
    const afloat = embarked(s, 'aeskrvald', { troopTransport: 9 }, true);
    expect(fleetStep({ state: afloat, map, dice: dice(), weather: NO_WEATHER_EFFECTS }).state).not.toBe(afloat);
  });
});
