import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { directionTo, neighbours } from '../../src/engine/hex/neighbours.js';
import { bankOfEdge, buildMap } from '../../src/engine/map/mapModel.js';
import { planMove } from '../../src/engine/movement/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';

const check = validateScenario(JSON.parse(readFileSync('assets/scenarios/valormr.json', 'utf8')));
if (!check.ok) throw new Error('the shipped scenario must validate');
const scenario = check.scenario;
const map = buildMap(scenario.map);

describe('RULINGS 1: an army placed in a river hex stands on one bank', () => {
  it('GIVEN the dwarves start in the ford hex 2416 THEN they stand on a bank and must cross to leave by the other one', () => {
    const state = newCampaign({ id: 't', name: 'T', scenario, seed: 1 });
    const dwarves = state.armies.throrgrmir;
    expect(dwarves).toBeDefined();
    const river = map.riverAt(dwarves!.hex);
    expect(river?.crossing).toBe('ford');
    expect(dwarves!.bank).toBe('left');
    const far = neighbours(dwarves!.hex).find((n) => bankOfEdge(river!, directionTo(dwarves!.hex, n)!) === 'right' && map.terrainAt(n) === 'clear');
    expect(far).toBeDefined();
    const plan = planMove(state, map, NO_WEATHER_EFFECTS, 'throrgrmir', { path: [far!], period: 'day', forced: false, unformed: false, save: false, crossAtEnd: false });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.steps.some((s) => s.crossing?.site === 'ford' || s.crossing?.method === 'ford')).toBe(true);
  });
});
