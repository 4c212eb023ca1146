import { describe, expect, it } from 'vitest';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { EngineEvent } from '../../src/engine/events/events.js';
import type { Army } from '../../src/engine/forces/army.js';
import type { CampaignState, CourierRecord } from '../../src/engine/state/index.js';
import { commanderMapView } from '../../src/engine/views/mapView.js';
import { courierStep, sendCourier } from '../../src/engine/water/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { asciiMap, hx, makeState, must } from './contactFixtures.js';

/*
 * Issue 23, item 3: in fog of war a courier to an ally of another side rides to where its sender
 * knew the ally to be, not to where the ally truly is; what the sender hears and sees of it does
 * not depend on the ally's true place. @see docs/rulings.md (Couriers in fog)
 */

const h = hx;
const plain = asciiMap(['ccccccccc', 'ccccccccc', 'ccccccccc']);

/** The law sender at 0102; the elves' army truly at `allyAt`, last known to the sender at 0502 (where it stood when fog fell). */
function world(allyAt: string, positions: 'fog' | 'public' = 'fog', known = true): CampaignState {
  const s = makeState({ sender: { side: 'law', hex: '0102' }, ally: { side: 'law', hex: allyAt } }, { day: 1, half: 0 });
  const ally = { ...(s.armies['ally'] as Army), side: 'elves' };
  const sighting = { hex: h('0502'), at: s.clock, how: 'public' as const };
  return {
    ...s,
    settings: { ...s.settings, positions },
    sides: { ...s.sides, elves: { id: 'elves', name: 'Elves', colour: '#0a0', hostileTo: [] } },
    armies: { ...s.armies, ally },
    knowledge: { armies: known ? { sender: { ally: sighting } } : {}, reports: {} },
  };
}

function send(s: CampaignState) {
  return must(sendCourier(s, plain, { fromArmy: 'sender', toArmy: 'ally', message: 'Ride with us.' }, NO_WEATHER_EFFECTS));
}

function ride(state: CampaignState, halves: number): { state: CampaignState; events: EngineEvent[] } {
  let s = state;
  const events: EngineEvent[] = [];
  for (let i = 0; i < halves; i++) {
    const out = courierStep({ state: s, map: plain, dice: new SeededDice(createRngState(3)), weather: NO_WEATHER_EFFECTS });
    events.push(...out.events);
    const c = out.state.clock;
    s = { ...out.state, clock: c.half === 3 ? { day: c.day + 1, half: 0 } : { day: c.day, half: (c.half + 1) as 0 | 1 | 2 | 3 } };
  }
  return { state: s, events };
}

const courierOf = (s: CampaignState): CourierRecord => Object.values(s.couriers)[0] as CourierRecord;
const toSender = (events: readonly EngineEvent[]) => events.filter((e) => e.audience.kind === 'army' && e.audience.armyId === 'sender').map((e) => JSON.stringify(e));

describe('couriers in fog of war', () => {
  it('GIVEN the ally truly elsewhere than the sender knows WHEN a courier is sent THEN it rides to the known place, with the same promise and id in both worlds', () => {
    const [a, b] = [send(world('0802')), send(world('0902'))];
    expect(a.courier.data.seek).toEqual(h('0502'));
    expect(a.courier.id).toBe(b.courier.id);
    expect(a.courier.data.expectedBy).toBe(b.courier.data.expectedBy);
    expect(toSender(a.events)).toEqual(toSender(b.events));
  });

  it('GIVEN the courier on the road THEN the sender\'s map does not draw it in fog (it does with positions public)', () => {
    const fog = ride(send(world('0802')).state, 1).state;
    expect(commanderMapView(fog, ['sender']).couriers).toEqual([]);
    const open = ride(send(world('0802', 'public')).state, 1).state;
    expect(commanderMapView(open, ['sender']).couriers).toHaveLength(1);
  });

  it('GIVEN it reaches the known place THEN it takes up the trail and is delivered where the ally truly is', () => {
    const out = ride(send(world('0802')).state, 8);
    const c = courierOf(out.state);
    expect(c.status).toBe('delivered');
    expect(c.hex).toEqual(h('0802'));
    expect(c.data.trail).toContain('0502');
  });

  it('GIVEN a sender that knows nothing of the ally THEN the courier is refused, saying why', () => {
    const r = sendCourier(world('0802', 'fog', false), plain, { fromArmy: 'sender', toArmy: 'ally', message: 'Ride with us.' }, NO_WEATHER_EFFECTS);
    expect(r.ok ? 'ok' : r.violation.code).toBe('courier.recipientUnknown');
  });
});
