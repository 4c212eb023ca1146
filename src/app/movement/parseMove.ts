import type { Hex } from '../../engine/hex/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { MovePeriod } from '../../engine/movement/index.js';
import { UserError } from '../errors.js';

/** Parses a path option: hex ids separated by spaces, commas or arrows ("0712 0713 0813"). */
export function parsePath(map: MapModel, text: string): Hex[] {
  const ids = text.split(/[\s,;>-]+/).filter(Boolean);
  if (ids.length === 0) throw new UserError('move.badPath', 'path takes hex ids in order, e.g. `path:"0712 0713 0813"`.');
  return ids.map((id) => parseOneHex(map, id, 'path'));
}

export function parseOneHex(map: MapModel, id: string, option: string): Hex {
  const h = map.parse(id);
  if (!h || !map.inBounds(h)) {
    throw new UserError('move.badHex', `${option}: "${id}" is not a hex of this map (ids like 0712: column then row, columns 01-${String(map.width).padStart(2, '0')}, rows 01-${String(map.height).padStart(2, '0')}).`);
  }
  return h;
}

export function parsePeriod(text: string | undefined): MovePeriod | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === 'day' || t === 'night' || t === 'split') return t;
  throw new UserError('move.badPeriod', 'period must be `day`, `night` or `split` (split: dark-seeing forces only, half the move by day and half by night).');
}
