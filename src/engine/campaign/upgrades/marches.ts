import type { Army, FatigueReason, HalfActivity, MarchState } from '../../forces/index.js';
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

/** The sentences the movement rules and the referee's edit stored as the reason for fatigue. */
const REASON_FROM_TEXT: Readonly<Record<string, FatigueReason>> = {
  'forced march yesterday and no rest today': 'forcedMarch',
  'marched a seventh day in a row without a full day of rest': 'seventhDay',
  'moved in half periods for more than two periods without two consecutive half periods of rest': 'noLongRest',
  'set by the referee': 'referee',
};

const REASONS: readonly string[] = Object.values(REASON_FROM_TEXT);

function isFatigueReason(s: string): s is FatigueReason {
  return REASONS.includes(s);
}

/** The reason for fatigue as a code; a sentence no rule wrote is dropped (status then says "no reason recorded"). */
export function fatigueReasonFromText(text: string | undefined): FatigueReason | undefined {
  if (text === undefined || isFatigueReason(text)) return text;
  return REASON_FROM_TEXT[text];
}

/**
 * Upgrade step for every army's march books: MarchState.recentHalves from a string of letters to
 * a list of HalfActivity, and MarchState.fatigueReason from a sentence to a FatigueReason. An army
 * already upgraded is left as it is.
 */
export function upgradeMarches(armies: Readonly<Record<string, LegacyArmy | Army>>): Record<string, Army> {
  const out: Record<string, Army> = {};
  for (const [id, army] of Object.entries(armies)) {
    const { recentHalves: log, fatigueReason: text, ...books } = army.march;
    const reason = fatigueReasonFromText(text);
    const march: MarchState = { ...books, recentHalves: typeof log === 'string' ? halvesFromLetters(log) : log, ...(reason ? { fatigueReason: reason } : {}) };
    out[id] = { ...army, march };
  }
  return out;
}
