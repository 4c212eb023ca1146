import { describe, expect, it } from 'vitest';
import type { Army, MarchState } from '../../src/engine/forces/army.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { upgradeState } from '../../src/engine/campaign/upgrade.js';
import { logRecentDays } from '../../src/engine/campaign/upgrades/dayLog.js';
import { army, campaign } from './movementFixtures.js';

/** A state as version 5 stored it: march books without the day log, settings without the profiles. */
function versionFive(daysMarched: number): object {
  const a = army('a', '0101');
  const { recentDays: _d, ...march } = { ...a.march, daysMarched };
  const s = campaign([{ ...a, march: march as MarchState }]);
  const { profile: _p, tactical: _t, brigadesPerRegiment: _b, commanderDivisions: _c, ...settings } = s.settings;
  return { ...s, settings };
}

describe('upgrade 5 -> 6: movement profiles', () => {
  it.each([
    [0, []],
    [3, [false, true, true, true]],
    [20, [false, ...Array.from({ length: 13 }, () => true)]],
  ])('GIVEN %i consecutive days marched THEN the day log holds them after a day without a march', (n, log) => {
    const s = upgradeState(versionFive(n), 5);
    expect((s.armies['a'] as Army).march.recentDays).toEqual(log);
    expect((s.armies['a'] as Army).march.daysMarched).toBe(n);
  });

  it('GIVEN settings stored before the profiles THEN they read as the Valormr profiles with the defaults', () => {
    const s = upgradeState(versionFive(0), 5);
    expect(s.settings).toMatchObject({ profile: 'valormr', tactical: 'valormr', brigadesPerRegiment: 1, commanderDivisions: false });
    expect(s.settings.terrainCosts).toBeUndefined();
    expect(s.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('GIVEN a state that already logs its days THEN the step leaves it as it is', () => {
    const s = campaign([army('a', '0101')]);
    const logged = { ...s, armies: { a: { ...(s.armies['a'] as Army), march: { ...(s.armies['a'] as Army).march, recentDays: [true, false] } } } };
    expect(logRecentDays(logged)).toEqual(logged);
  });
});
