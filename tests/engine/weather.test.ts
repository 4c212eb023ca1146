import { describe, expect, it } from 'vitest';
import table from '../../assets/rules/weather-table.json' with { type: 'json' };
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import { defaultWeatherTable, FIRST_MORNING, type Sky, type WeatherState } from '../../src/engine/weather/index.js';
import { parseWeatherTable, weatherColumn, type WeatherTable } from '../../src/engine/weather/weatherTable.js';
import { rollHalfPersistence } from '../../src/engine/weather/rollHalfPersistence.js';
import { rollPeriodWeather } from '../../src/engine/weather/rollPeriodWeather.js';

const scripted = (...faces: number[]): SeededDice => new SeededDice(createRngState(7), faces);
const sky = (s: Sky, extra: Partial<WeatherState> = {}): WeatherState => ({ ...FIRST_MORNING, sky: s, ...extra });

describe('RULINGS 2a weather table as data', () => {
  it('GIVEN the bundled JSON WHEN parsed THEN it is the default table, six rows a column', () => {
    const parsed = parseWeatherTable(table);
    expect(parsed.ok).toBe(true);
    expect(defaultWeatherTable()).toEqual(table);
    for (const col of ['clear', 'cloudy', 'rainy'] as const) expect(defaultWeatherTable().columns[col]).toHaveLength(6);
  });

  it('GIVEN the default table, checked on first use THEN every use gets the one checked table', () => {
    const first = defaultWeatherTable();
    expect(first).not.toBe(table); // zod's checked copy, not the raw JSON
    expect(defaultWeatherTable()).toBe(first);
  });

  it('GIVEN the default table THEN its rows are those of RULINGS 2a', () => {
    const results = (col: 'clear' | 'cloudy' | 'rainy') => defaultWeatherTable().columns[col].map((r) => `${r.result}${r.change ? '>' : ''}`);
    expect(results('clear')).toEqual(['noChange', 'noChange', 'noChange', 'noChange', 'noChange', 'cloudy>']);
    expect(results('cloudy')).toEqual(['noChange', 'noChange', 'clears>', 'noChange', 'noChange', 'rain>']);
    expect(results('rainy')).toEqual(['lightRain', 'lightRain', 'cloudy>', 'cloudy>', 'hardRain', 'hardRain']);
    expect(defaultWeatherTable().fogWindDie).toEqual(['fog', 'none', 'none', 'none', 'none', 'wind']);
    expect(defaultWeatherTable().windTypeDie).toEqual(['calm', 'none', 'none', 'none', 'highWinds', 'gale']);
    expect(defaultWeatherTable().persistence).toEqual({ sides: 6, fog: [1, 2], wind: [1] });
  });

  it('GIVEN a table whose rainy column says "rain" WHEN parsed THEN it is refused as weather.badTable', () => {
    const bad = { ...table, columns: { ...table.columns, rainy: [...table.columns.rainy.slice(0, 5), { result: 'rain', change: true }] } };
    const parsed = parseWeatherTable(bad);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.violation.code).toBe('weather.badTable');
      expect(parsed.violation.message).toContain('columns.rainy');
    }
  });

  it('GIVEN persistence faces beyond the die or an unknown result WHEN parsed THEN both are refused', () => {
    expect(parseWeatherTable({ ...table, persistence: { sides: 6, fog: [1, 7], wind: [1] } }).ok).toBe(false);
    expect(parseWeatherTable({ ...table, columns: { ...table.columns, clear: [{ result: 'snow' }, { result: 'noChange' }] } }).ok).toBe(false);
  });

  it('GIVEN light or hard rain THEN the rainy column is read', () => {
    expect(weatherColumn('clear')).toBe('clear');
    expect(weatherColumn('cloudy')).toBe('cloudy');
    expect(weatherColumn('lightRain')).toBe('rainy');
    expect(weatherColumn('hardRain')).toBe('rainy');
  });
});

describe('000 Determining Weather: rolling a period', () => {
  it('GIVEN clear WHEN the die shows 1-5 THEN no change and no fog/wind die', () => {
    for (const face of [1, 2, 3, 4, 5]) {
      const dice = scripted(face, 6);
      const r = rollPeriodWeather(sky('clear'), dice);
      expect(r.weather.sky).toBe('clear');
      expect(r.change).toBe(false);
      expect(dice.rolls.map((x) => x.purpose)).toEqual(['weather (clear column)']);
    }
  });

  it('GIVEN clear WHEN the die shows 6 THEN cloudy, a change, and the fog/wind die is rolled', () => {
    const dice = scripted(6, 1);
    const r = rollPeriodWeather(sky('clear'), dice);
    expect(r.weather).toMatchObject({ sky: 'cloudy', fog: true, wind: 'none' });
    expect(r.change).toBe(true);
    expect(r.newPhenomenon).toBe('fog');
    expect(dice.rolls.map((x) => x.purpose)).toEqual(['weather (clear column)', 'fog/wind die (weather changed)']);
  });

  it('GIVEN cloudy WHEN 3 THEN it clears (change)', () => {
    const r = rollPeriodWeather(sky('cloudy'), scripted(3, 4));
    expect(r.weather.sky).toBe('clear');
    expect(r.change).toBe(true);
    expect(r.newPhenomenon).toBeUndefined();
  });

  it('GIVEN cloudy WHEN 6 (Rain) THEN the rainy column is rolled at once: 1-2 light, 3-4 only clouds, 5-6 hard', () => {
    const expected: Record<number, Sky> = { 1: 'lightRain', 2: 'lightRain', 3: 'cloudy', 4: 'cloudy', 5: 'hardRain', 6: 'hardRain' };
    for (const [face, want] of Object.entries(expected)) {
      const dice = scripted(6, Number(face), 3);
      const r = rollPeriodWeather(sky('cloudy'), dice);
      expect(r.weather.sky).toBe(want);
      expect(r.change).toBe(true);
      expect(r.tableRolls.map((t) => t.column)).toEqual(['cloudy', 'rainy']);
      expect(dice.rolls.map((x) => x.purpose)).toEqual(['weather (cloudy column)', 'weather (rainy column, after Rain)', 'fog/wind die (weather changed)']);
    }
  });

  it('GIVEN light rain WHEN 5 THEN hard rain without a change: no fog/wind die', () => {
    const dice = scripted(5);
    const r = rollPeriodWeather(sky('lightRain'), dice);
    expect(r.weather.sky).toBe('hardRain');
    expect(r.change).toBe(false);
    expect(dice.rolls).toHaveLength(1);
  });

  it('GIVEN hard rain WHEN 3 THEN cloudy (change)', () => {
    const r = rollPeriodWeather(sky('hardRain'), scripted(3, 2));
    expect(r.weather.sky).toBe('cloudy');
    expect(r.change).toBe(true);
  });

  it('000 Fog and Wind Dice: GIVEN a change WHEN the fog/wind die shows 6 THEN the wind type die gives 1 calm, 5 high winds, 6 gale, else nothing', () => {
    const expected = { 1: 'calm', 2: 'none', 3: 'none', 4: 'none', 5: 'highWinds', 6: 'gale' } as const;
    for (const [face, wind] of Object.entries(expected)) {
      const dice = scripted(6, 6, Number(face));
      const r = rollPeriodWeather(sky('clear'), dice);
      expect(r.weather.wind).toBe(wind);
      expect(r.weather.fog).toBe(false);
      expect(dice.rolls.at(-1)?.purpose).toBe('wind type die');
    }
  });

  it('000 Fog and Wind Dice: GIVEN fog WHEN the weather dice show another change THEN the fog lifts and the new fog/wind die decides', () => {
    const r = rollPeriodWeather(sky('cloudy', { fog: true }), scripted(3, 4));
    expect(r.weather).toMatchObject({ sky: 'clear', fog: false, wind: 'none' });
    expect(r.endedByChange).toBe('fog');
  });

  it('000 Fog and Wind Dice: GIVEN high winds and no change THEN the wind rolls for persistence at the period start', () => {
    const holds = rollPeriodWeather(sky('clear', { wind: 'highWinds' }), scripted(2, 1));
    expect(holds.weather.wind).toBe('highWinds');
    expect(holds.persistence?.persisted).toBe(true);
    const ends = rollPeriodWeather(sky('clear', { wind: 'highWinds' }), scripted(2, 2));
    expect(ends.weather.wind).toBe('none');
    expect(ends.persistence?.persisted).toBe(false);
  });
});

describe('000 Fog and Wind Dice: persistence at each half period', () => {
  it('GIVEN fog WHEN the persistence die shows 1-2 THEN it holds; 3-6 THEN it lifts', () => {
    for (const face of [1, 2, 3, 4, 5, 6]) {
      const dice = scripted(face);
      const r = rollHalfPersistence(sky('cloudy', { fog: true }), dice);
      expect(r.persisted).toBe(face <= 2);
      expect(r.weather.fog).toBe(face <= 2);
      expect(dice.rolls[0]?.purpose).toBe('fog persistence (goes on on 1 or 2)');
    }
  });

  it('GIVEN calm, high winds or a gale WHEN the die shows 1 THEN it holds; 2-6 THEN it ends', () => {
    for (const wind of ['calm', 'highWinds', 'gale'] as const) {
      for (const face of [1, 2, 3, 4, 5, 6]) {
        const r = rollHalfPersistence(sky('clear', { wind }), scripted(face));
        expect(r.weather.wind).toBe(face === 1 ? wind : 'none');
      }
    }
  });

  it('GIVEN neither fog nor wind THEN no die is rolled', () => {
    const dice = scripted();
    const r = rollHalfPersistence(sky('hardRain'), dice);
    expect(r.phenomenon).toBeUndefined();
    expect(dice.rolls).toHaveLength(0);
  });

  it('GIVEN a replacement table (fog goes on on 1-4) THEN its faces are used', () => {
    const custom: WeatherTable = { ...defaultWeatherTable(), persistence: { sides: 6, fog: [1, 2, 3, 4], wind: [1] } };
    expect(rollHalfPersistence(sky('clear', { fog: true }), scripted(4), custom).persisted).toBe(true);
    expect(rollHalfPersistence(sky('clear', { fog: true }), scripted(4)).persisted).toBe(false);
  });
});

describe('RULINGS 2a distribution over many seeded rolls', () => {
  const N = 20_000;
  const TOL = 0.012;
  function frequencies(start: WeatherState, seed: number) {
    const dice = new SeededDice(createRngState(seed));
    const counts = { clear: 0, cloudy: 0, lightRain: 0, hardRain: 0, change: 0, fog: 0, wind: 0, gale: 0 };
    for (let i = 0; i < N; i++) {
      const r = rollPeriodWeather(start, dice);
      counts[r.weather.sky]++;
      if (r.change) counts.change++;
      if (r.weather.fog) counts.fog++;
      if (r.weather.wind !== 'none') counts.wind++;
      if (r.weather.wind === 'gale') counts.gale++;
    }
    return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / N])) as Record<keyof typeof counts, number>;
  }

  it('GIVEN clear THEN it turns cloudy 1/6 of the time, and fog/wind come only with the change', () => {
    const f = frequencies(sky('clear'), 11);
    expect(Math.abs(f.cloudy - 1 / 6)).toBeLessThan(TOL);
    expect(Math.abs(f.fog - 1 / 36)).toBeLessThan(TOL / 2);
    expect(f.lightRain + f.hardRain).toBe(0);
  });

  it('GIVEN cloudy THEN clears 1/6, rain 1/6 (light 1/18, hard 1/18, clouds only 1/18), stays cloudy 2/3 + 1/18', () => {
    const f = frequencies(sky('cloudy'), 12);
    expect(Math.abs(f.clear - 1 / 6)).toBeLessThan(TOL);
    expect(Math.abs(f.lightRain - 1 / 18)).toBeLessThan(TOL);
    expect(Math.abs(f.hardRain - 1 / 18)).toBeLessThan(TOL);
    expect(Math.abs(f.cloudy - (4 / 6 + 1 / 18))).toBeLessThan(TOL);
    expect(Math.abs(f.change - 2 / 6)).toBeLessThan(TOL);
    // wind 1/6 of changes, gale 1/6 of those
    expect(Math.abs(f.wind - (2 / 6) * (1 / 6) * (3 / 6))).toBeLessThan(TOL / 2);
  });

  it('GIVEN rain THEN light 1/3, cloudy 1/3, hard 1/3', () => {
    const f = frequencies(sky('hardRain'), 13);
    expect(Math.abs(f.lightRain - 1 / 3)).toBeLessThan(TOL);
    expect(Math.abs(f.cloudy - 1 / 3)).toBeLessThan(TOL);
    expect(Math.abs(f.hardRain - 1 / 3)).toBeLessThan(TOL);
    expect(f.clear).toBe(0);
  });
});
