import type { Hex } from '../../engine/hex/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { MovePeriod } from '../../engine/movement/index.js';
import { UserError } from '../errors.js';
import { hexOrPlace, pathOfPlaces } from '../places.js';

/** Parses a path option: hex ids or place names separated by spaces, commas or arrows ("0712 0713 Valdheim"). */
export function parsePath(map: MapModel, text: string): Hex[] {
  return pathOfPlaces(map, text, 'path', 'move.badHex');
}

/** One hex: its id, or a place's name ("Valdheim", "east port"). */
export function parseOneHex(map: MapModel, text: string, option: string): Hex {
  return hexOrPlace(map, text, option, 'move.badHex');
}

export function parsePeriod(text: string | undefined): MovePeriod | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === 'day' || t === 'night' || t === 'split') return t;
  throw new UserError('move.badPeriod', 'period must be `day`, `night` or `split` (split: dark-seeing forces only, half the move by day and half by night).');
}
