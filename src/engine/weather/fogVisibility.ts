import type { Dice } from '../dice/index.js';
import { FOG_YARDS_PER_PIP } from './weatherEffects.js';

/**
 * Rolls the visibility on a fogbound battlefield: one die times 30 yards (30 to 180).
 * @see 000 Strategic Movement Under Fog (Battlefield)
 */
export function rollFogVisibility(dice: Dice): number {
  return dice.d6(`fog visibility (die x ${FOG_YARDS_PER_PIP} yards)`) * FOG_YARDS_PER_PIP;
}
