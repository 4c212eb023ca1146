import { describe, expect, it } from 'vitest';
import { loadShippedScenario, mapOf } from '../../src/app/scenarios.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { Army } from '../../src/engine/forces/army.js';
import { parseHex } from '../../src/engine/hex/hexId.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { advanceFleet } from '../../src/engine/water/sail.js';
import { boardingViolation, planLoad } from '../../src/engine/water/embark.js';
import { debark, embark, fleetStep, planSail, type FleetState } from '../../src/engine/water/index.js';
import { fleetOf } from '../../src/engine/water/fleet.js';
import { weatherEffects } from '../../src/engine/weather/weatherEffects.js';
import * as fx from './movementFixtures.js';

const scenario = loadShippedScenario('valormr');
const map = mapOf(scenario);
const h = (id: string) => {
  const x = parseHex(id);
  if (!x) throw new Error(id);
  return x;
};
const fresh = (): CampaignState => ({ ...newCampaign({ id: 'w', name: 'w', scenario, seed: 1 }), status: 'running', clock: { day: 1, half: 0 } });
const code = (r: { ok: boolean; violation?: { code: string } }) => (r.ok ? 'ok' : r.violation?.code);

describe('embarking: what the shuttle and a river crossing forbid', () => {
  it('GIVEN a regiment larger than the whole fleet THEN embarking is refused: it could never follow by shuttle', () => {
    const a = fresh().armies['aeskrvald'] as Army; // First Regiment 27, Second 14
    // Five transports (15 figures) take the 14-figure regiment; the 27 could never be shuttled.
    const r = planLoad(a, { troopTransport: 5 });
    expect(code(r)).toBe('embark.regimentTooLarge');
    expect(r.ok ? '' : r.violation.message).toContain('First Regiment (27 figures)');
    // Nine transports (27) take the first regiment; the second follows by shuttle.
    expect(code(planLoad(a, { troopTransport: 9 }))).toBe('ok');
  });

  it('GIVEN an army committed to a raft crossing THEN it cannot embark until across', () => {
    const s0 = fresh();
    const a = s0.armies['noerdenheim'] as Army;
    const busy: Army = {
      ...a,
      hex: h('1506'),
      march: { ...a.march, operation: { kind: 'rafts', hex: h('1506'), startedAt: 0, totalHalves: 12, remainingHalves: 10, phase: 'timber' } },
    };
    const s = { ...s0, armies: { ...s0.armies, noerdenheim: busy } };
    const r = embark(s, map, { armyId: 'noerdenheim', vessels: { longship: 9 }, givenBy: 'u', advanced: false });
    expect(code(r)).toBe('embark.committed');
  });

  it('GIVEN an army awaiting regiments at its port of debarkation THEN it cannot embark again (the shuttle would be lost)', () => {
    const s0 = fresh();
    const out = embark(s0, map, { armyId: 'aeskrvald', vessels: { troopTransport: 9 }, givenBy: 'u', advanced: false });
    if (!out.ok) throw new Error(out.violation.message);
    const landed = debark(out.value.state, map, { armyId: 'aeskrvald', hex: h('2304'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS);
    if (!landed.ok) throw new Error(landed.violation.message);
    expect(landed.value.state.orders['aeskrvald']?.kind).toBe('debark');
    const again = embark(landed.value.state, map, { armyId: 'aeskrvald', vessels: { troopTransport: 9 }, givenBy: 'u', advanced: false });
    expect(code(again)).toBe('embark.awaitingRegiments');
  });
});

describe('a fleet between river and sea keeps each half period to one mode', () => {
  const longships = (s: CampaignState, hex: string, carry = 0): { s: CampaignState; a: Army; f: FleetState } => {
    const s0 = { ...s, armies: { ...s.armies, noerdenheim: { ...(s.armies['noerdenheim'] as Army), hex: h(hex) } } };
    const out = embark(s0, map, { armyId: 'noerdenheim', vessels: { longship: 9 }, givenBy: 'u', advanced: false });
    if (!out.ok) throw new Error(out.violation.message);
    const f = { ...out.value.fleet, carry, carryDay: 1 };
    return { s: out.value.state, a: out.value.state.armies['noerdenheim'] as Army, f };
  };
  const occupied = new Map<string, string>();

  it('GIVEN longships rowing down the Grunnthraesir in a gale THEN they stop at the river mouth: no ship puts to sea in a gale', () => {
    const { a, f } = longships(fresh(), '1506', 3);
    const gale = weatherEffects({ sky: 'clear', fog: false, wind: 'gale', rainLevel: 0, track: {} }, { drought: false, profile: 'valormr' as const });
    const out = advanceFleet(map, a, f, [h('1505'), h('1504'), h('1503')], { day: 1, half: 1 }, gale, occupied);
    expect(out.entered.map((e) => map.format(e.hex))).toEqual(['1505']);
    expect(map.format(out.hex)).toBe('1505');
  });

  it('GIVEN longships sailing in from the sea at night THEN they do not row up the river until daybreak', () => {
    const s = fresh();
    const { a, f } = longships(s, '1505');
    const atSea = { ...a, hex: h('1503') };
    const out = advanceFleet(map, atSea, f, [h('1504'), h('1505'), h('1506')], { day: 1, half: 3 }, NO_WEATHER_EFFECTS, occupied);
    expect(out.entered.map((e) => map.format(e.hex))).toEqual(['1504']);
    expect(out.path.map((x) => map.format(x))).toEqual(['1505', '1506']);
  });

  it('GIVEN a sail order to the hex the fleet is in THEN it is refused as already there', () => {
    const { s } = longships(fresh(), '1505');
    const r = planSail(s, map, 'noerdenheim', { to: h('1505'), givenBy: 'u' }, NO_WEATHER_EFFECTS);
    expect(code(r)).toBe('sail.alreadyThere');
  });
});

describe('boarding boats on the old canal (navigable only between its cataracts)', () => {
  it('GIVEN the source of the canal, above its first cataract THEN boats cannot be boarded there; between the falls they can', () => {
    expect(boardingViolation(map, ['riverBoat'], h('3312'))).toMatch(/board only on a navigable river/);
    expect(boardingViolation(map, ['longship'], h('3312'))).toBeDefined();
    expect(boardingViolation(map, ['riverBoat'], h('3409'))).toBeUndefined();
    expect(boardingViolation(map, ['longship'], h('3410'))).toBeUndefined();
  });
});

describe('landing on a river hex from the coast', () => {
  it('GIVEN longships on a coast hex on the right-bank side of a river hex THEN the army lands on the right bank, not across the river', () => {
    // Column 01 is coast; the river runs down column 02: edges to the west are its right bank.
    const m = fx.mapOf(['wcc', 'wcc', 'wcc', 'wcc', 'wcc'], { rivers: [fx.riverDownColumn2('major')] });
    const base = fx.army('ships', '0103', { side: 'law' });
    const afloat: Army = { ...base, vessels: { longship: 9 }, status: { ...base.status, embarked: true } };
    const s = fx.campaign([afloat]);
    const out = debark(s, m, { armyId: 'ships', hex: fx.hx('0203'), givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS);
    if (!out.ok) throw new Error(out.violation.message);
    expect(out.value.state.armies['ships']?.bank).toBe('right');
    const across = debark(s, m, { armyId: 'ships', hex: fx.hx('0203'), bank: 'left', givenBy: 'u', advanced: false }, NO_WEATHER_EFFECTS);
    expect(code(across)).toBe('debark.wrongBank');
  });
});

describe('advanced embarkation: the six hours for the tide', () => {
  it('GIVEN a fleet embarked at a port and left at anchor for a half period THEN the tide has come and the voyage begins at once', () => {
    const emb = embark(fresh(), map, { armyId: 'aeskrvald', vessels: { troopTransport: 9 }, givenBy: 'u', advanced: true });
    if (!emb.ok) throw new Error(emb.violation.message);
    expect(emb.value.fleet.waitHalves).toBe(1);
    // The morning passes at anchor, with no sail order yet.
    const morning = fleetStep({ state: emb.value.state, map, dice: new SeededDice(createRngState(3), []), weather: NO_WEATHER_EFFECTS });
    const s = { ...morning.state, clock: { day: 1, half: 1 as const } };
    expect(fleetOf(s, 'aeskrvald')?.waitHalves).toBe(0);
    const plan = planSail(s, map, 'aeskrvald', { path: [h('2303'), h('2202')], givenBy: 'u' }, NO_WEATHER_EFFECTS);
    if (!plan.ok) throw new Error(plan.violation.message);
    expect(plan.value.preview[0]).toMatchObject({ hex: '2303', half: 'afternoon' });
    const out = fleetStep({ state: { ...s, orders: { ...s.orders, aeskrvald: plan.value.order } }, map, dice: new SeededDice(createRngState(3), []), weather: NO_WEATHER_EFFECTS });
    expect(map.format((out.state.armies['aeskrvald'] as Army).hex)).toBe('2202');
  });
});
