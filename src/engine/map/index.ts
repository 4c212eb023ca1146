/** The static map of a scenario: terrain, roads, rivers and their banks, ports. @see 000 Terrain Effects; RULINGS 1 */
export { arrivalBank, type Bank, bankOfEdge, buildMap, crossingNeeded, type CrossingSite, defaultBank, hexGrid, type HexGrid, hexIndex, isWater, type MapData, type MapModel, type RiverSize, type Terrain, TERRAIN_LETTERS, TERRAINS } from './mapModel.js';
