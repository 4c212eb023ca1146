import { describe, expect, it } from 'vitest';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import { closeDroughtPeriod, closeDroughtWeek, rollDroughtCasualties } from '../../src/engine/weather/drought.js';
import { describeWeather, droughtTrack, FIRST_MORNING, weatherEffects, type Sky, type WeatherState } from '../../src/engine/weather/index.js';

const ON = { drought: true, profile: 'valormr' as const };
const OFF = { drought: false, profile: 'valormr' as const };

/** Runs whole weeks: each week is a list of the skies of its periods that rained (the rest dry). */
function weeks(list: readonly (readonly Sky[])[], settings = ON, start: WeatherState = FIRST_MORNING): WeatherState {
  let w = start;
  for (const rains of list) {
    for (const s of rains) w = closeDroughtPeriod({ ...w, sky: s }, settings).weather;
    w = closeDroughtWeek(w, settings).weather;
  }
  return w;
}
const dryWeeks = (n: number): Sky[][] => Array.from({ length: n }, () => []);
const inWeek = (week: number): WeatherState => ({ ...FIRST_MORNING, track: { 'drought.week': week, 'drought.dryWeeks': 4, 'drought.rainPeriods': 0 } });

describe('000 Advanced: Drought (optional rule on)', () => {
  it('GIVEN four dry weeks THEN the fifth week is a drought: overland 75 %, major rivers as minor, minor rivers fordable', () => {
    expect(droughtTrack(weeks(dryWeeks(3))).week).toBe(0);
    const w = weeks(dryWeeks(4));
    expect(droughtTrack(w).week).toBe(5);
    expect(weatherEffects(w, ON)).toMatchObject({ overlandFactor: 0.75, overlandReason: 'drought', majorAsMinor: true, minorFordable: true, majorFordable: false, minorNavigable: true });
    expect(weatherEffects(w, ON).droughtCasualties).toBeUndefined();
  });

  it('GIVEN a week with three periods of rain THEN it still counts as dry; four periods break the count', () => {
    expect(droughtTrack(weeks([...dryWeeks(3), ['lightRain', 'hardRain', 'lightRain']])).week).toBe(5);
    const w = weeks([...dryWeeks(3), ['lightRain', 'lightRain', 'lightRain', 'lightRain']]);
    expect(droughtTrack(w)).toMatchObject({ week: 0, dryWeeks: 0 });
  });

  it('GIVEN the sixth week THEN overland movement is halved', () => {
    expect(weatherEffects(weeks(dryWeeks(5)), ON).overlandFactor).toBe(0.5);
  });

  it('GIVEN the seventh week THEN 25 %, major rivers fordable, minor rivers not navigable, losses half-dice x 5 %', () => {
    const e = weatherEffects(weeks(dryWeeks(6)), ON);
    expect(e).toMatchObject({ overlandFactor: 0.25, majorFordable: true, minorNavigable: false, droughtCasualties: 'halfDice' });
    expect(rollDroughtCasualties(e, new SeededDice(createRngState(1), [5]), 'the Host')).toBe(15);
  });

  it('GIVEN the eighth week and later THEN losses dice x 5 %, and the conditions stop at the eighth week', () => {
    const w = weeks(dryWeeks(10));
    expect(droughtTrack(w).week).toBe(8);
    const e = weatherEffects(w, ON);
    expect(e.droughtCasualties).toBe('dice');
    expect(rollDroughtCasualties(e, new SeededDice(createRngState(1), [5]), 'the Host')).toBe(25);
  });

  it('Curing: GIVEN the sixth week WHEN a light rain falls THEN conditions are those of the fifth week', () => {
    const w = closeDroughtPeriod({ ...inWeek(6), sky: 'lightRain' }, ON).weather;
    expect(droughtTrack(w).week).toBe(5);
    expect(weatherEffects(w, ON).overlandFactor).toBe(0.75);
  });

  it('Curing: GIVEN the sixth week WHEN a hard rain falls THEN the fourth week (no effects), and another light rain ends the drought', () => {
    const hard = closeDroughtPeriod({ ...inWeek(6), sky: 'hardRain' }, ON);
    expect(hard.after).toBe(4);
    expect(weatherEffects({ ...hard.weather, sky: 'cloudy' }, ON).overlandFactor).toBe(1);
    const light = closeDroughtPeriod({ ...hard.weather, sky: 'lightRain' }, ON);
    expect(light.after).toBe(0);
    expect(droughtTrack(light.weather)).toMatchObject({ week: 0, dryWeeks: 0 });
  });

  it('GIVEN a drought eased to its fifth week WHEN the week ends dry THEN it deepens again', () => {
    const eased = closeDroughtPeriod({ ...inWeek(6), sky: 'lightRain' }, ON).weather;
    expect(closeDroughtWeek(eased, ON).after).toBe(6);
  });

  it('GIVEN drought and rain level 1 THEN rain-closed fords beat drought-fordable rivers', () => {
    const e = weatherEffects({ ...weeks(dryWeeks(6)), rainLevel: 1 }, ON);
    expect(e).toMatchObject({ fordsClosed: true, minorFordable: false, majorFordable: false });
  });

  it('GIVEN drought and hard rain THEN the largest reduction applies', () => {
    expect(weatherEffects({ ...weeks(dryWeeks(4)), sky: 'hardRain' }, ON).overlandFactor).toBe(0.75);
    expect(weatherEffects({ ...weeks(dryWeeks(5)), sky: 'hardRain' }, ON).overlandFactor).toBe(0.5);
  });

  it('GIVEN a drought THEN the description names its week', () => {
    expect(describeWeather(weeks(dryWeeks(4)), ON)).toBe('Clear skies; drought, week 5. Overland move points at 75 % (drought); major rivers count as minor; minor rivers fordable anywhere.');
  });
});

describe('000 Advanced: Drought (optional rule off, the default)', () => {
  it('GIVEN ten dry weeks with the rule off THEN nothing is tracked and nothing changes', () => {
    const w = weeks(dryWeeks(10), OFF);
    expect(w.track).toEqual({});
    expect(weatherEffects(w, OFF).overlandFactor).toBe(1);
  });

  it('GIVEN drought bookkeeping left from when the rule was on WHEN the rule is off THEN no drought effects', () => {
    const w = weeks(dryWeeks(6), ON);
    expect(weatherEffects(w, OFF)).toMatchObject({ overlandFactor: 1, majorAsMinor: false, minorNavigable: true });
    expect(weatherEffects(w, OFF).droughtCasualties).toBeUndefined();
    expect(describeWeather(w, OFF)).toBe('Clear skies.');
  });
});
