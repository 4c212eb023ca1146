import { describe, expect, it } from 'vitest';
import { loadShippedScenario, mapOf } from '../../src/app/scenarios.js';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { Army } from '../../src/engine/forces/army.js';
import { parseHex } from '../../src/engine/hex/hexId.js';
import type { CampaignState, CourierRecord } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { courierStep, sendCourier } from '../../src/engine/water/index.js';

const scenario = loadShippedScenario('valormr');
const map = mapOf(scenario);
const h = (id: string) => {
  const x = parseHex(id);
  if (!x) throw new Error(id);
  return x;
};
const next = (c: GameTime): GameTime => (c.half === 3 ? { day: c.day + 1, half: 0 } : { day: c.day, half: (c.half + 1) as 0 | 1 | 2 | 3 });
const place = (s: CampaignState, id: string, hex: string): CampaignState => {
  const { bank: _b, ...a } = s.armies[id] as Army;
  return { ...s, armies: { ...s.armies, [id]: { ...a, hex: h(hex) } } };
};

describe('a courier at a ferry (000 Terrain Effects: Ferries; RULINGS 4)', () => {
  it('GIVEN the only short way over the major Grunnthraesir is the ferry at 1505 THEN the courier waits the two days of the crossing and rides on, instead of waiting there for ever', () => {
    let s: CampaignState = { ...newCampaign({ id: 'w', name: 'w', scenario, seed: 1 }), status: 'running', clock: { day: 1, half: 0 } };
    s = place(place(s, 'aeskrvald', '1604'), 'grallune', '1405');
    const sent = sendCourier(s, map, { fromArmy: 'aeskrvald', toArmy: 'grallune', message: 'Cross at the ferry.' }, NO_WEATHER_EFFECTS);
    if (!sent.ok) throw new Error(sent.violation.message);
    s = sent.value.state;
    const dice = new SeededDice(createRngState(9), []);
    const seen: string[] = [];
    for (let i = 0; i < 16; i++) {
      const out = courierStep({ state: s, map, dice, weather: NO_WEATHER_EFFECTS });
      const c = Object.values(out.state.couriers)[0] as CourierRecord;
      seen.push(`${map.format(c.hex)} ${c.status}`);
      s = { ...out.state, clock: next(out.state.clock) };
      if (c.status !== 'travelling') break;
    }
    // Day 1, morning: to the ferry; two days of crossing; Day 3, morning: over and on to 1405.
    expect(seen.slice(0, 8).every((x) => x === '1505 travelling')).toBe(true);
    expect(seen.at(-1)).toBe('1405 delivered');
    expect(seen).toHaveLength(9);
  });
});
