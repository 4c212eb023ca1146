import { describe, expect, it } from 'vitest';
import { fatigueRecovery, planMove } from '../../src/engine/movement/index.js';
import { ACKS_PROFILE, VALORMR_PROFILE } from '../../src/engine/profiles/index.js';
import { describeEffects } from '../../src/engine/weather/describeWeather.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, campaign, hx, mapOf, MOVE, riverDownColumn2 } from './movementFixtures.js';

/** Every message states its rule truly (issue 24): the sentences that contradicted their rule. */
describe('messages that state their rule', () => {
  it('GIVEN a fatigued army THEN what recovers it comes from the profile: a full day of rest (000), the rest owed caught up (004)', () => {
    expect(fatigueRecovery(VALORMR_PROFILE)).toBe('A full day of rest recovers it.');
    expect(fatigueRecovery(ACKS_PROFILE)).toBe('It recovers after days of rest once no more than 4 of the last 7 days were marching days.');
    // Marched the last five days and today: three days of rest from tomorrow bring the window to 4 of 7.
    const a = army('a', '0101');
    const marched = { ...a, march: { ...a.march, recentDays: [false, true, true, true, true, true], movedToday: true } };
    expect(fatigueRecovery(ACKS_PROFILE, marched)).toMatch(/\(3 days of rest from tomorrow\)\.$/);
    expect(fatigueRecovery(ACKS_PROFILE, { ...marched, march: { ...marched.march, recentDays: [true, true, true, false, true], movedToday: false } })).toMatch(/\(one day of rest from today\)\.$/);
  });

  it('GIVEN weather at an eighth of the points THEN it says 12.5 %, not 13 %', () => {
    expect(describeEffects({ ...NO_WEATHER_EFFECTS, overlandFactor: 0.125, overlandReason: 'hard rain and a gale' })).toContain('overland move points at 12.5 % (hard rain and a gale)');
    expect(describeEffects({ ...NO_WEATHER_EFFECTS, overlandFactor: 0.5, overlandReason: 'hard rain' })).toContain('overland move points at 50 % (hard rain)');
  });

  it('GIVEN /move to the army\'s own hex THEN the refusal names the option cross:true only where a river runs', () => {
    const state = campaign([army('arn', '0102')]);
    const dry = planMove(state, mapOf(['ccc', 'ccc']), NO_WEATHER_EFFECTS, 'arn', { ...MOVE, to: hx('0102') });
    expect(dry.ok).toBe(false);
    if (!dry.ok) {
      expect(dry.violation.message).toBe('Army of arn is already at 0102. Give another hex to move to.');
      expect(dry.violation.message).not.toMatch(/crossAtEnd|cross:/);
    }
    const wet = planMove(campaign([army('arn', '0202')]), mapOf(['ccc', 'ccc', 'ccc'], { rivers: [riverDownColumn2('minor', 'ford', '0202')] }), NO_WEATHER_EFFECTS, 'arn', { ...MOVE, to: hx('0202') });
    expect(wet.ok).toBe(false);
    if (!wet.ok) expect(wet.violation.message).toMatch(/add cross:true\.$/);
  });
});
