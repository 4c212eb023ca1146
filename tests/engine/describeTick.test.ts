import { describe, expect, it } from 'vitest';
import { PUBLIC } from '../../src/engine/events/events.js';
import { describeTick } from '../../src/engine/tick/tickEvents.js';

describe('describeTick', () => {
  it('GIVEN the clock moving on THEN the channel hears the new half period', () => {
    expect(describeTick({ type: 'clockAdvanced', audience: PUBLIC, data: { from: { day: 1, half: 3 }, to: { day: 2, half: 0 } } })).toBe('The clock moves on to Day 2, morning.');
  });
});
