import { describe, expect, it } from 'vitest';
import { loadShippedScenario, mapOf } from '../../src/app/scenarios.js';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { EngineEvent } from '../../src/engine/events/events.js';
import type { Army } from '../../src/engine/forces/army.js';
import type { MapModel } from '../../src/engine/map/mapModel.js';
import type { CampaignState, CourierRecord } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { courierStep, embark, sendCourier } from '../../src/engine/water/index.js';
import { courierView } from '../../src/engine/water/courier.js';
import { asciiMap, hx, makeState, must } from './contactFixtures.js';

const h = hx;
const next = (c: GameTime): GameTime => (c.half === 3 ? { day: c.day + 1, half: 0 } : { day: c.day, half: (c.half + 1) as 0 | 1 | 2 | 3 });

function run(state: CampaignState, map: MapModel, script: number[] = [], halves = 1): { state: CampaignState; events: EngineEvent[]; dice: SeededDice } {
  const dice = new SeededDice(createRngState(9), script);
  let s = state;
  const events: EngineEvent[] = [];
  for (let i = 0; i < halves; i++) {
    const out = courierStep({ state: s, map, dice, weather: NO_WEATHER_EFFECTS });
    events.push(...out.events);
    s = { ...out.state, clock: next(out.state.clock) };
  }
  return { state: s, events, dice };
}

// A corridor of clear hexes between two seas: the only way east passes 0402.
const corridor = asciiMap(['ooooooo', 'ccccccc', 'ooooooo']);
function corridorState(): CampaignState {
  const s = makeState({ sender: { side: 'law', hex: '0102' }, friend: { side: 'law', hex: '0702' }, orc: { side: 'chaos', hex: '0402' } }, { day: 1, half: 0 });
  return must(sendCourier(s, corridor, { fromArmy: 'sender', toArmy: 'friend', message: 'Hold the ford.' }, NO_WEATHER_EFFECTS)).state;
}
const courier = (s: CampaignState): CourierRecord => Object.values(s.couriers)[0] as CourierRecord;

describe('couriers (000 Overland Travel: Courier)', () => {
  it('refuses long, empty, hostile and routeless messages', () => {
    const s = makeState({ sender: { side: 'law', hex: '0102' }, friend: { side: 'law', hex: '0702' }, orc: { side: 'chaos', hex: '0402' } });
    const code = (r: { ok: boolean; violation?: { code: string } }) => (r.ok ? 'ok' : r.violation?.code);
    expect(code(sendCourier(s, corridor, { fromArmy: 'sender', toArmy: 'friend', message: 'x'.repeat(1501) }, NO_WEATHER_EFFECTS))).toBe('courier.tooLong');
    expect(code(sendCourier(s, corridor, { fromArmy: 'sender', toArmy: 'friend', message: 'x'.repeat(1500) }, NO_WEATHER_EFFECTS))).toBe('ok');
    expect(code(sendCourier(s, corridor, { fromArmy: 'sender', toArmy: 'friend', message: '  ' }, NO_WEATHER_EFFECTS))).toBe('courier.empty');
    expect(code(sendCourier(s, corridor, { fromArmy: 'sender', toArmy: 'orc', message: 'hi' }, NO_WEATHER_EFFECTS))).toBe('courier.hostile');
    const island = asciiMap(['cocc']);
    const t = makeState({ sender: { side: 'law', hex: '0101' }, friend: { side: 'law', hex: '0401' } });
    expect(code(sendCourier(t, island, { fromArmy: 'sender', toArmy: 'friend', message: 'hi' }, NO_WEATHER_EFFECTS))).toBe('courier.noRoute');
  });

  it('PASSING an enemy-held hex: captured on 1-3; the message goes to the captor, the sender hears only that it has not arrived', () => {
    const r = run(corridorState(), corridor, [3]);
    const c = courier(r.state);
    expect(c.status).toBe('captured');
    expect(c.data.capturedBy).toBe('orc');
    const toOrc = r.events.filter((e) => e.audience.kind === 'army' && e.audience.armyId === 'orc');
    expect(toOrc[0]?.data).toMatchObject({ from: 'sender', to: 'friend', message: 'Hold the ford.' });
    expect(r.events.some((e) => e.audience.kind === 'public')).toBe(false);
    expect(r.events.some((e) => e.audience.kind === 'army' && e.audience.armyId === 'sender')).toBe(false);
    const later = run(r.state, corridor, [], 8);
    const told = later.events.filter((e) => e.audience.kind === 'army' && e.audience.armyId === 'sender');
    expect(told).toHaveLength(1);
    expect(told[0]?.type).toBe('courierOverdue');
    expect(told[0]?.data).not.toHaveProperty('message');
  });

  it('PASSING an enemy-held hex: escapes on 4+ and is delivered with the times sent and received', () => {
    const r = run(corridorState(), corridor, [4], 2);
    const c = courier(r.state);
    expect(c.status).toBe('delivered');
    const dm = r.events.find((e) => e.audience.kind === 'army' && e.audience.armyId === 'friend');
    expect(dm?.data).toMatchObject({ sentAt: { day: 1, half: 0 }, receivedAt: { day: 1, half: 1 }, message: 'Hold the ford.' });
    expect(r.dice.rolls.map((x) => x.value)).toEqual([4]);
  });

  it('STOPPING where an enemy stands needs a 6; a courier never chooses to stop in an enemy hex', () => {
    // The courier rests at night in 0302; the orc marches onto it.
    let s = corridorState();
    s = { ...s, clock: { day: 1, half: 2 }, couriers: { ...s.couriers, [courier(s).id]: { ...courier(s), hex: h('0302') } } };
    s = { ...s, armies: { ...s.armies, orc: { ...(s.armies['orc'] as Army), hex: h('0302') } } };
    expect(courier(run(s, corridor, [5]).state).status).toBe('captured');
    const lucky = run(s, corridor, [6, 1], 2);
    expect(courier(lucky.state).status).toBe('travelling');
    expect(lucky.dice.rolls).toHaveLength(1);
  });

  it('FRIENDLY hexes are free to pass and stop in', () => {
    let s = corridorState();
    s = { ...s, armies: { ...s.armies, orc: { ...(s.armies['orc'] as Army), side: 'law' } } };
    const r = run(s, corridor, [], 2);
    expect(courier(r.state).status).toBe('delivered');
    expect(r.dice.rolls).toHaveLength(0);
  });

  it('Valormr: 48 points a day by the cheapest route, re-routing to where the recipient is now', () => {
    const scenario = loadShippedScenario('valormr');
    const map = mapOf(scenario);
    let s: CampaignState = { ...newCampaign({ id: 'c', name: 'c', scenario, seed: 1 }), status: 'running' };
    s = must(sendCourier(s, map, { fromArmy: 'aeskrvald', toArmy: 'throrgrmir', message: 'Meet at Valdheim.' }, NO_WEATHER_EFFECTS)).state;
    let r = run(s, map, [], 1);
    expect(courier(r.state).status).toBe('travelling');
    expect(courierView(r.state, 'aeskrvald', (x) => map.format(x))).toHaveLength(1);
    expect(courierView(r.state, 'throrgrmir', (x) => map.format(x))).toHaveLength(0);
    // The dwarves march north to meet it.
    r = { ...r, state: { ...r.state, armies: { ...r.state.armies, throrgrmir: { ...(r.state.armies['throrgrmir'] as Army), hex: h('2410') } } } };
    const done = run(r.state, map, [], 6);
    expect(courier(done.state).status).toBe('delivered');
    expect(courier(done.state).hex).toEqual(h('2410'));
  });

  it('rides a vessel: from a fleet at sea it sails along; no horse on a river boat', () => {
    const scenario = loadShippedScenario('valormr');
    const map = mapOf(scenario);
    let s: CampaignState = { ...newCampaign({ id: 'c', name: 'c', scenario, seed: 1 }), status: 'running' };
    s = must(embark(s, map, { armyId: 'aeskrvald', vessels: { troopTransport: 9 }, givenBy: 'u', advanced: false })).state;
    s = { ...s, armies: { ...s.armies, aeskrvald: { ...(s.armies['aeskrvald'] as Army), hex: h('2302') } } };
    const sent = must(sendCourier(s, map, { fromArmy: 'aeskrvald', toArmy: 'noerdenheim', message: 'Sail at dawn.' }, NO_WEATHER_EFFECTS));
    expect(sent.courier.data.aboard).toBe('aeskrvald');
    expect(sent.courier.data.horse).toBe(true);
    const boats = { ...s, armies: { ...s.armies, noerdenheim: { ...(s.armies['noerdenheim'] as Army), hex: h('1508'), vessels: { riverBoat: 72 } } } };
    const b = must(embark(boats, map, { armyId: 'noerdenheim', vessels: { riverBoat: 72 }, givenBy: 'u', advanced: false })).state;
    const foot = must(sendCourier(b, map, { fromArmy: 'noerdenheim', toArmy: 'throrgrmir', message: 'On foot.' }, NO_WEATHER_EFFECTS));
    expect(foot.courier.data.horse).toBe(false);
    // Aboard: it moves with the fleet and is delivered when the fleet lies next to the recipient.
    const moved = { ...sent.state, armies: { ...sent.state.armies, aeskrvald: { ...(sent.state.armies['aeskrvald'] as Army), hex: h('3002') }, noerdenheim: { ...(sent.state.armies['noerdenheim'] as Army), hex: h('3003') } } };
    expect(courier(run(moved, map).state).status).toBe('delivered');
  });
});
