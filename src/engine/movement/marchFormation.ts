import type { Army } from '../forces/index.js';
import { type Hex, neighbours } from '../hex/index.js';
import type { MapModel } from '../map/index.js';

/**
 * Tactical march formations (same ids as the contact rules' deployment schedule).
 * @see 000 Orders of March: Tactical March Formations
 */
const MARCH_FORMATIONS = {
  figures2x20: 'column of figures, two files by twenty ranks',
  figures4x10: 'column of figures, four files by ten ranks',
  companies: 'column of companies',
  battalions: 'column of battalions',
} as const;
export type MarchFormationId = keyof typeof MARCH_FORMATIONS;

/** Whether any road (or track) leads out of the hex. */
function hexHasLink(map: MapModel, h: Hex, kind: 'road' | 'track'): boolean {
  return neighbours(h).some((n) => (kind === 'road' ? map.hasRoad(h, n) : map.hasTrack(h, n)));
}

/**
 * The march formation a force takes from the ground it stands on: on a road a column of figures
 * four abreast; on a track or in mountains a column of figures two abreast; in forest, swamp or
 * hills a column of companies; in the clear a column of battalions. A road or track counts when
 * one leads out of the army's hex; a road beats a track, a track beats the terrain.
 * @see 000 Orders of March: Tactical March Formations
 */
export function marchFormation(map: MapModel, army: Army): MarchFormationId {
  if (hexHasLink(map, army.hex, 'road')) return 'figures4x10';
  if (hexHasLink(map, army.hex, 'track')) return 'figures2x20';
  switch (map.terrainAt(army.hex)) {
    case 'mountain':
      return 'figures2x20';
    case 'forest':
    case 'swamp':
    case 'hill':
      return 'companies';
    default:
      return 'battalions';
  }
}

/** The formation's description for status lines. */
export function describeMarchFormation(id: MarchFormationId): string {
  return MARCH_FORMATIONS[id];
}
