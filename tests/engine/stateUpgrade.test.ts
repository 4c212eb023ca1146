import { describe, expect, it } from 'vitest';
import { movementStep } from '../../src/engine/movement/index.js';
import { DEFAULT_SETTINGS, readSettings } from '../../src/engine/state/settings.js';
import { STATE_VERSION, StateVersionError, upgradeState, type UpgradeSource } from '../../src/engine/campaign/upgrade.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, at, campaign, dice, hx, mapOf } from './movementFixtures.js';

/** A state as version 1 stored it: march bookkeeping of an older shape, settings of an older release. */
function versionOne(): object {
  const a = army('a', '0101');
  const s = campaign([a]);
  const { weather: _w, ...rest } = s;
  return {
    ...rest,
    settings: { cadence: '0 8,20 * * *', timezone: 'UTC', tableWidth: 1e308, shortBowRange: 1e-9, catchUp: 'all' },
    armies: { a: { ...a, march: { pointsLeft: 12, savedPoints: 0, daysMarched: 0, recentHalves: '', restDays: 0, stragglers: {} } } },
  };
}

describe('state upgrade chain (RULINGS: a campaign saved by an older version opens without loss)', () => {
  it('GIVEN a version 1 state WHEN upgraded THEN march bookkeeping is complete and the movement rules run on it', () => {
    const s = upgradeState(versionOne(), 1);
    const march = s.armies['a']?.march;
    expect(march?.stragglers).toEqual([]);
    expect(march?.noRaftHexes).toEqual([]);
    expect(march?.spentToday).toBe(0);
    expect(s.weather.sky).toBe('clear');
    const m = mapOf(['cc']);
    const out = movementStep({ state: { ...s, orders: { a: { armyId: 'a', kind: 'move', period: 'day', path: [hx('0201')], forced: false, unformed: false, save: false, givenBy: 'u', givenAt: s.clock } } }, map: m, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(at(out.state, m, 'a')).toBe('0201');
  });

  it('GIVEN settings an older version accepted out of range WHEN upgraded THEN they take their defaults and missing ones are filled', () => {
    const s = upgradeState(versionOne(), 1);
    expect(s.settings.tableWidth).toBe(DEFAULT_SETTINGS.tableWidth);
    expect(s.settings.shortBowRange).toBe(DEFAULT_SETTINGS.shortBowRange);
    expect(s.settings.undoDepth).toBe(DEFAULT_SETTINGS.undoDepth);
    expect(s.settings.catchUpCap).toBe(DEFAULT_SETTINGS.catchUpCap);
  });

  it('GIVEN a version 3 state (one dice stream from a numeric seed) WHEN upgraded THEN its dice come in periods with two secret seeds, and manual dice and knowledge start empty', () => {
    const { manualDice: _m, knowledge: _k, ...v4 } = campaign([army('a', '0101')]);
    const v3 = { ...v4, rng: { seed: 5, draws: 10, s: [1, 2, 3, 4] } };
    const s = upgradeState(v3, 3);
    expect(s.rng.period).toBe(0);
    expect(s.rng.draws).toBe(0);
    expect(s.rng.seed).toMatch(/^[0-9a-f]{32}$/);
    expect(s.rng.next).toMatch(/^[0-9a-f]{32}$/);
    expect(s.rng.next).not.toBe(s.rng.seed);
    expect(s.manualDice).toEqual({ nextId: 1, requests: [], holds: {} });
    expect(s.knowledge).toEqual({ armies: {}, reports: {} });
    // The seeds come from the old stream's secret state: another stream, other seeds.
    expect(upgradeState({ ...v3, rng: { seed: 5, draws: 11, s: [1, 2, 3, 5] } }, 3).rng.seed).not.toBe(s.rng.seed);
    // A state already in periods is left as it is.
    expect(upgradeState({ ...v4, rng: s.rng }, 3).rng).toEqual(s.rng);
  });

  it('GIVEN a current state WHEN loaded THEN it is returned as it is', () => {
    const s = campaign([army('a', '0101')]);
    expect(upgradeState(s, STATE_VERSION)).toEqual(s);
  });

  it('GIVEN a state of a future version THEN it is refused with a sentence, never half-read', () => {
    expect(() => upgradeState(campaign([]), STATE_VERSION + 1)).toThrow(StateVersionError);
    expect(() => upgradeState(campaign([]), STATE_VERSION + 1)).toThrow(/newer version of the bot/);
    expect(() => upgradeState(campaign([]), 0)).toThrow(StateVersionError);
  });

  it('GIVEN stored settings that are not an object THEN every setting takes its default', () => {
    expect(readSettings('garbage')).toEqual(DEFAULT_SETTINGS);
    expect(readSettings({ ...DEFAULT_SETTINGS, refereeRoleId: '123' }).refereeRoleId).toBe('123');
  });
});

describe('8 -> 9: regiment speeds lost on save come back from the scenario', () => {
  // What the scenario says of the regiments: a-r1 at 150', a-r2 with no speed, b-r1 at 60'.
  const scenario = { armies: [
    { id: 'a', regiments: [{ id: 'a-r1', speed: 150 }, { id: 'a-r2' }] },
    { id: 'b', regiments: [{ id: 'b-r1', speed: 60 }] },
  ] } as unknown as UpgradeSource['scenario'];
  const speeds = (s: ReturnType<typeof upgradeState>): Record<string, number | undefined> =>
    Object.fromEntries(Object.values(s.armies).flatMap((x) => x.regiments.map((r) => [r.id, r.speed])));

  it('GIVEN a version-8 state whose regiments lost their speeds THEN the scenario\'s come back; a regiment the scenario gives none stays without', () => {
    const s = campaign([army('a', '0101', { figures: [10, 10] }), army('b', '0301')]);
    expect(speeds(upgradeState(s, 8, { scenario }))).toEqual({ 'a-r1': 150, 'a-r2': undefined, 'b-r1': 60 });
  });

  it('GIVEN a speed the state has THEN it is never changed; GIVEN no scenario THEN nothing is restored', () => {
    const s = campaign([army('a', '0101', { figures: [10, 10] })]);
    const kept = { ...s, armies: { a: { ...s.armies['a']!, regiments: s.armies['a']!.regiments.map((r) => ({ ...r, speed: 90 })) } } };
    expect(speeds(upgradeState(kept, 8, { scenario }))).toEqual({ 'a-r1': 90, 'a-r2': 90 });
    expect(speeds(upgradeState(s, 8))).toEqual({ 'a-r1': undefined, 'a-r2': undefined });
  });

  it('GIVEN a division split from its army, and a regiment merged into another army THEN each gets its own scenario regiment\'s speed', () => {
    const s = campaign([army('a', '0101', { figures: [10, 10] }), army('b', '0301')]);
    const div = { ...army('a-2', '0201'), divisionOf: 'a', regiments: [s.armies['a']!.regiments[0]!] };
    const merged = { ...s.armies['b']!, regiments: [...s.armies['b']!.regiments, s.armies['a']!.regiments[1]!] };
    const split = { ...s, armies: { 'a-2': div, b: merged } };
    const out = upgradeState(split, 8, { scenario });
    expect(out.armies['a-2']!.regiments.map((r) => r.speed)).toEqual([150]);
    expect(out.armies['b']!.regiments.map((r) => r.speed)).toEqual([60, undefined]);
  });
});
