import type { Dice } from '../../engine/dice/index.js';
import { FRESH_STATUS, loneForce, type Army, type HomeTerrain, type MovementClass } from '../../engine/forces/index.js';
import { parseHex, type Hex } from '../../engine/hex/index.js';
import { buildMap, type CrossingSite, type MapData, type MapModel, type RiverSize } from '../../engine/map/index.js';
import type { WeatherEffects } from '../../engine/weather/index.js';

/**
 * Probes: a one-army, two-hex world on which the engine's own functions are asked what they
 * charge, so that the reference shows what the bot applies rather than numbers typed again.
 */

export const HERE = hexOf('0101');
export const THERE = hexOf('0201');

function hexOf(id: string): Hex {
  const h = parseHex(id);
  if (!h) throw new Error(`bad probe hex ${id}`);
  return h;
}

export function probeArmy(movementClass: MovementClass, extra: { homeTerrain?: HomeTerrain; fatigued?: boolean; flying?: boolean } = {}): Army {
  return loneForce({
    id: 'probe',
    name: 'probe',
    commander: 'probe',
    side: 'probe',
    hex: HERE,
    movementClass,
    status: { ...FRESH_STATUS, fatigued: extra.fatigued ?? false },
    ...(extra.homeTerrain ? { homeTerrain: extra.homeTerrain } : {}),
    ...(extra.flying ? { flying: true } : {}),
  });
}

const EMPTY: MapData = { width: 2, height: 1, terrain: ['cc'], roads: [], tracks: [], rivers: [], ports: [], channels: [], mudflats: [], towns: [], fortifications: [], regions: [], labels: [] };

/** Two hexes side by side, 0101 (clear) and 0201 of `letter`, joined by a road or track when asked. */
export function probeMap(letter: string, link: 'none' | 'road' | 'track' = 'none'): MapModel {
  const pair = [['0101', '0201']];
  return buildMap({ ...EMPTY, terrain: [`c${letter}`], roads: link === 'road' ? pair : [], tracks: link === 'track' ? pair : [] });
}

/** One clear hex with a river of `size` through it, with the crossing site when given. */
export function riverMap(size: RiverSize, site?: CrossingSite): MapModel {
  return buildMap({ ...EMPTY, rivers: [{ id: 'r', name: 'probe river', hexes: [{ hex: '0101', size, ...(site ? { crossing: site } : {}) }] }] });
}

/** Dice that always show `face`. */
export function fixedDice(face: number): Dice {
  return { d6: () => face, roll: () => face };
}

/** Weather effects with some flags changed. */
export function withEffects(base: WeatherEffects, changes: Partial<WeatherEffects>): WeatherEffects {
  return { ...base, ...changes };
}
