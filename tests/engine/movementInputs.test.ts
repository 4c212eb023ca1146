import { describe, expect, it } from 'vitest';
import { planMove } from '../../src/engine/movement/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, campaign, hexes, mapOf, MOVE } from './movementFixtures.js';

const open = mapOf(['ccccc', 'ccccc', 'ccccc', 'ccccc', 'ccccc']);

describe('move refusals name a usable alternative', () => {
  it('GIVEN a path that ends on the army\'s own hex THEN the refusal offers no empty "/move to:" route', () => {
    const plan = planMove(campaign([army('a', '0303')]), open, NO_WEATHER_EFFECTS, 'a', { ...MOVE, path: hexes('0303') });
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.violation.code).toBe('move.notAdjacent');
    expect(plan.violation.message).not.toContain('via )');
    expect(plan.violation.message).not.toContain('/move to:0303');
  });
});
