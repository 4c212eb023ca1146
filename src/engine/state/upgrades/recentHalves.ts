import type { Army, HalfActivity } from '../../forces/army.js';
import { BrokenData } from '../../result.js';
import type { LegacyArmy } from './legacyState.js';

const FROM_LETTER: Readonly<Record<string, HalfActivity>> = { m: 'moved', w: 'worked', r: 'rested', b: 'battle' };

/** A march log of letters ('mrrw') as the list of what the army did, oldest first. */
export function halvesFromLetters(letters: string): HalfActivity[] {
  return [...letters].map((letter) => {
    const activity = FROM_LETTER[letter];
    if (!activity) throw new BrokenData(`unknown letter "${letter}" in a march log "${letters}"`);
    return activity;
  });
}

/**
 * Upgrade step: MarchState.recentHalves from a string of letters to a list of HalfActivity, for
 * every army. An army already upgraded is left as it is.
 */
export function upgradeRecentHalves(armies: Readonly<Record<string, LegacyArmy | Army>>): Record<string, Army> {
  const out: Record<string, Army> = {};
  for (const [id, army] of Object.entries(armies)) {
    const log = army.march.recentHalves;
    out[id] = { ...army, march: { ...army.march, recentHalves: typeof log === 'string' ? halvesFromLetters(log) : log } };
  }
  return out;
}
