import { describe, expect, it } from 'vitest';
import { loadShippedScenario, mapOf } from '../../src/app/scenarios.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { Army } from '../../src/engine/forces/army.js';
import { parseHex } from '../../src/engine/hex/hexId.js';
import type { CampaignState, VesselCounts } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { pathOf } from './movementFixtures.js';
import { weatherEffects } from '../../src/engine/weather/weatherEffects.js';
import { embark, fleetStep, planSail, stopFleet, type FleetState } from '../../src/engine/water/index.js';
import { fleetBerth } from '../../src/engine/water/stop.js';
import { fleetOf, sailOrder } from '../../src/engine/water/fleet.js';

const scenario = loadShippedScenario('valormr');
const map = mapOf(scenario);
const h = (id: string) => {
  const x = parseHex(id);
  if (!x) throw new Error(id);
  return x;
};
const fresh = (): CampaignState => ({ ...newCampaign({ id: 'w', name: 'w', scenario, seed: 1 }), status: 'running', clock: { day: 1, half: 0 } });
const must = <T>(r: { ok: true; value: T } | { ok: false; violation: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
};
const fleet = (vessels: VesselCounts, extra: Partial<FleetState> = {}): FleetState => ({ vessels, regiments: [], ashore: [], embarkedFrom: '', embarkedAt: 0, escortLost: false, carry: 0, carryDay: 1, waitHalves: 0, sighted: [], ...extra });
/** An army aboard these vessels at `hex` (set there by hand, as the referee may). */
const afloat = (hex: string, id = 'aeskrvald'): Army => {
  const a = fresh().armies[id] as Army;
  return { ...a, hex: h(hex), status: { ...a.status, embarked: true } };
};
const berth = (hex: string, vessels: VesselCounts) => fleetBerth(map, afloat(hex), fleet(vessels));
const dice = () => new SeededDice(createRngState(3), []);

describe('where a fleet may lie still (fleetBerth)', () => {
  it('GIVEN each kind of water THEN the fleet lies as its vessels do: docked, in a channel, beached, offshore, hove to', () => {
    expect(must(berth('2304', { troopTransport: 9 }))).toEqual({ kind: 'docked', hex: '2304', port: 'East Port', landPort: true });
    expect(must(berth('2403', { troopTransport: 9, galley: 1 }))).toEqual({ kind: 'channel', hex: '2403' });
    expect(must(berth('2603', { longship: 9 }))).toMatchObject({ kind: 'beached' });
    expect(must(berth('2603', { sailingShip: 4, galley: 1 }))).toMatchObject({ kind: 'offshore' });
    expect(must(berth('2102', { troopTransport: 9 }))).toMatchObject({ kind: 'atSea' });
    // Transports land only at a port, but they may heave to in the open sea; the galley escort does not bar them.
    expect(must(berth('2501', { troopTransport: 9, galley: 1 }))).toEqual({ kind: 'openSea', hex: '2501' });
    expect(must(berth('3409', { longship: 9 }))).toMatchObject({ kind: 'river' });
  });

  it('GIVEN a fleet set down where its vessels could never sail THEN it cannot lie there (sail.cannotStop, with the rule)', () => {
    const refused = (hex: string, v: VesselCounts) => {
      const r = berth(hex, v);
      return r.ok ? 'ok' : `${r.violation.code}: ${r.violation.message}`;
    };
    expect(refused('2501', { longship: 9 })).toMatch(/^sail\.cannotStop: .*open sea beyond coastal waters, where longships may not go/);
    expect(refused('2603', { troopTransport: 9 })).toMatch(/^sail\.cannotStop: .*channel or a port/);
    expect(refused('2203', { longship: 9 })).toMatch(/^sail\.cannotStop: .*mud flat/);
    expect(refused('2102', { riverBoat: 8 })).toMatch(/^sail\.cannotStop: .*river boats travel only on rivers/);
    expect(refused('2416', { troopTransport: 9 })).toMatch(/^sail\.cannotStop: .*troop transports dock only at a port/);
  });
});

describe('stopping a fleet (stopFleet)', () => {
  const ROUTE = ['2303', '2202', '2102', '2002', '1902', '1802'];
  function underWay(): CampaignState {
    const s = must(embark(fresh(), map, { armyId: 'aeskrvald', vessels: { troopTransport: 9, galley: 1 }, givenBy: 'u', advanced: false })).state;
    const plan = must(planSail(s, map, 'aeskrvald', { path: ROUTE.map(h), givenBy: 'u' }, NO_WEATHER_EFFECTS));
    return { ...s, orders: { ...s.orders, aeskrvald: plan.order } };
  }

  it('GIVEN a fleet under way THEN stopping clears the voyage, keeps the army aboard and the fleet, loses the carried points, and the ships\' step leaves it where it is', () => {
    let s = fleetStep({ state: underWay(), map, dice: dice(), weather: NO_WEATHER_EFFECTS }).state;
    expect(map.format((s.armies['aeskrvald'] as Army).hex)).toBe('2102');
    const f0 = fleetOf(s, 'aeskrvald') as FleetState;
    s = { ...s, orders: { ...s.orders, aeskrvald: sailOrder('aeskrvald', { ...f0, carry: 3, escortLost: true, waitHalves: 1 }, pathOf(s.orders['aeskrvald']), 'u', s.clock) } };
    const out = must(stopFleet(s, map, { armyId: 'aeskrvald', givenBy: 'u' }));
    expect(out.cancelled).toEqual(['2002', '1902', '1802']);
    expect(out.berth).toMatchObject({ kind: 'atSea', hex: '2102' });
    expect(out.state.orders['aeskrvald']).toMatchObject({ kind: 'sail', path: [] });
    expect(out.state.armies['aeskrvald']?.status.embarked).toBe(true);
    const f = fleetOf(out.state, 'aeskrvald') as FleetState;
    expect(f).toMatchObject({ vessels: f0.vessels, regiments: f0.regiments, ashore: f0.ashore, escortLost: true, waitHalves: 1, carry: 0 });
    expect(out.events).toHaveLength(1);
    expect(out.events[0]).toMatchObject({ type: 'fleetStopped', audience: { kind: 'army', armyId: 'aeskrvald' } });
    expect(out.events[0]?.data).toMatchObject({ cancelled: ['2002', '1902', '1802'], byReferee: false, berth: { kind: 'atSea', hex: '2102' } });

    const gale = weatherEffects({ sky: 'clear', fog: false, wind: 'gale', rainLevel: 0, track: {} }, { drought: false, profile: 'valormr' as const });
    for (const w of [NO_WEATHER_EFFECTS, gale]) {
      const next = fleetStep({ state: out.state, map, dice: dice(), weather: w });
      expect(map.format((next.state.armies['aeskrvald'] as Army).hex)).toBe('2102');
      expect(next.events.filter((e) => e.type === 'fleetSailed')).toEqual([]);
    }
  });

  it('GIVEN an army ashore THEN there is no fleet to stop', () => {
    const r = stopFleet(fresh(), map, { armyId: 'aeskrvald', givenBy: 'u' });
    expect(r.ok ? 'ok' : r.violation.code).toBe('sail.notEmbarked');
  });

  it('GIVEN longships just embarked off a beach THEN stopping says they lie off the beach where the army embarked', () => {
    const s0 = fresh();
    const n = { ...s0, armies: { ...s0.armies, noerdenheim: { ...(s0.armies['noerdenheim'] as Army), hex: h('3003') } } };
    const s = must(embark(n, map, { armyId: 'noerdenheim', vessels: { longship: 9 }, givenBy: 'u', advanced: false })).state;
    const out = must(stopFleet(s, map, { armyId: 'noerdenheim', givenBy: 'u', byReferee: true }));
    expect(out.berth).toEqual({ kind: 'beach', hex: '3003', whereEmbarked: true });
    expect(out.cancelled).toEqual([]);
    expect(out.events[0]?.data).toMatchObject({ byReferee: true, cancelled: [] });
  });
});
