import { DIRECTION_VECTORS, DIRECTIONS, type Direction, type Hex, formatHex, hexKey, hexToOffset, idWidth, offsetToHex, parseHex, directionTo } from '../hex/index.js';

/**
 * The strategic map: one terrain per hex, plus roads and tracks as links between neighbouring
 * hexes, rivers that run through hexes (splitting each into two banks), and map features.
 * @see RULINGS 1 Map and coordinates
 */
export const TERRAINS = ['clear', 'forest', 'hill', 'swamp', 'mountain', 'coast', 'sea'] as const;
export type Terrain = (typeof TERRAINS)[number];

/** One letter per hex in the scenario's terrain rows. */
export const TERRAIN_LETTERS: Readonly<Record<string, Terrain>> = {
  c: 'clear',
  f: 'forest',
  h: 'hill',
  s: 'swamp',
  m: 'mountain',
  w: 'coast',
  o: 'sea',
};

export type RiverSize = 'major' | 'minor';
export type CrossingSite = 'ford' | 'ferry' | 'bridge';

/** The map part of a scenario file, as written (hex ids are CCRR strings). */
export interface MapData {
  readonly width: number;
  readonly height: number;
  /** `height` strings of `width` letters (see TERRAIN_LETTERS). */
  readonly terrain: readonly string[];
  readonly roads: readonly (readonly string[])[];
  readonly tracks: readonly (readonly string[])[];
  readonly rivers: readonly RiverData[];
  readonly ports: readonly { readonly hex: string; readonly name: string }[];
  /** Coast hexes with a navigable channel through the mud flat. */
  readonly channels: readonly string[];
  /** Coast hexes of mud flat: vessels may only enter them through a channel. */
  readonly mudflats: readonly string[];
  readonly towns: readonly { readonly hex: string; readonly name: string }[];
  readonly fortifications: readonly { readonly hex: string; readonly name: string; readonly kind: 'citadel' | 'keep' | 'fort' }[];
  readonly regions: readonly { readonly id: string; readonly name: string; readonly hexes: readonly string[] }[];
  readonly labels: readonly { readonly hex: string; readonly text: string; readonly kind: 'region' | 'place' | 'water' }[];
}

export interface RiverData {
  readonly id: string;
  readonly name: string;
  /** Ordered from source to mouth. */
  readonly hexes: readonly RiverStepData[];
  /** The hex the river flows into after its last listed hex (sea, coast or another river). */
  readonly mouth?: string;
  /** False for a river boats cannot use at all. Default true. */
  readonly navigable?: boolean;
}

export interface RiverStepData {
  readonly hex: string;
  readonly size: RiverSize;
  readonly crossing?: CrossingSite;
  /** Falls that block boats in this hex. */
  readonly cataract?: boolean;
}

/** A river as it runs through one hex. */
export interface RiverHex {
  readonly riverId: string;
  readonly riverName: string;
  readonly size: RiverSize;
  readonly crossing?: CrossingSite;
  readonly cataract: boolean;
  readonly navigable: boolean;
  /** Edge the river enters by; undefined at its source (the river starts at the centre). */
  readonly entry?: Direction;
  /** Edge the river leaves by; undefined where it ends at the centre. */
  readonly exit?: Direction;
  /** Index of this hex along its river. */
  readonly index: number;
}

export type Bank = 'left' | 'right';

export interface MapModel {
  readonly width: number;
  readonly height: number;
  readonly idWidth: number;
  readonly data: MapData;
  terrainAt(h: Hex): Terrain | undefined;
  inBounds(h: Hex): boolean;
  riverAt(h: Hex): RiverHex | undefined;
  hasRoad(a: Hex, b: Hex): boolean;
  hasTrack(a: Hex, b: Hex): boolean;
  portAt(h: Hex): string | undefined;
  townAt(h: Hex): string | undefined;
  fortificationAt(h: Hex): { name: string; kind: string } | undefined;
  hasChannel(h: Hex): boolean;
  isMudflat(h: Hex): boolean;
  inRegion(h: Hex, regionId: string): boolean;
  /** Every hex of the map, row by row. */
  allHexes(): Hex[];
  format(h: Hex): string;
  parse(id: string): Hex | undefined;
}

const edgeKey = (a: Hex, b: Hex): string => {
  const ka = hexKey(a);
  const kb = hexKey(b);
  return ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
};

/**
 * Keys for what a map keeps by hex or by hex side: a hex's index (a number: no string built per
 * lookup, which a march or a search does for every hex it looks at), or its text for a hex off the map.
 */
function hexKeys(width: number, height: number) {
  const index = (h: Hex): number => {
    // hexToOffset, without the object: this runs for every hex a march or a search looks at.
    const col = h.q;
    const row = h.r + (col - (col & 1)) / 2;
    if (col < 0 || row < 0 || col >= width || row >= height) return -1;
    return row * width + col;
  };
  const spot = (h: Hex): number | string => {
    const i = index(h);
    return i < 0 ? hexKey(h) : i;
  };
  const cells = width * height;
  const edge = (a: Hex, b: Hex): number | string => {
    const i = index(a);
    const j = index(b);
    if (i < 0 || j < 0) return edgeKey(a, b);
    return i < j ? i * cells + j : j * cells + i;
  };
  const linkSet = (paths: readonly (readonly string[])[]): Set<number | string> => {
    const set = new Set<number | string>();
    for (const path of paths) {
      for (let i = 1; i < path.length; i++) {
        const a = parseHex(path[i - 1] ?? '');
        const b = parseHex(path[i] ?? '');
        if (a && b) set.add(edge(a, b));
      }
    }
    return set;
  };
  return { index, spot, edge, linkSet };
}

/** Builds the indexed map from scenario data. The data must already be validated. */
export function buildMap(data: MapData): MapModel {
  const width = data.width;
  const height = data.height;
  const terrain: Terrain[] = [];
  for (let row = 0; row < height; row++) {
    const line = data.terrain[row] ?? '';
    for (let col = 0; col < width; col++) terrain.push(TERRAIN_LETTERS[line[col] ?? 'c'] ?? 'clear');
  }
  const { index, spot, edge, linkSet } = hexKeys(width, height);

  const rivers = new Map<number | string, RiverHex>();
  for (const river of data.rivers) {
    const hexes = river.hexes.map((s) => parseHex(s.hex));
    const mouth = river.mouth ? parseHex(river.mouth) : undefined;
    river.hexes.forEach((step, i) => {
      const h = hexes[i];
      if (!h) return;
      const prev = i > 0 ? hexes[i - 1] : undefined;
      const next = i < hexes.length - 1 ? hexes[i + 1] : mouth;
      const entry = prev ? directionTo(h, prev) : undefined;
      const exit = next ? directionTo(h, next) : undefined;
      rivers.set(spot(h), {
        riverId: river.id,
        riverName: river.name,
        size: step.size,
        ...(step.crossing ? { crossing: step.crossing } : {}),
        cataract: step.cataract ?? false,
        navigable: river.navigable ?? true,
        ...(entry ? { entry } : {}),
        ...(exit ? { exit } : {}),
        index: i,
      });
    });
  }

  const roads = linkSet(data.roads);
  const tracks = linkSet(data.tracks);
  const byHex = <T extends { hex: string }>(items: readonly T[]): Map<number | string, T> =>
    new Map(items.flatMap((it) => {
      const h = parseHex(it.hex);
      return h ? [[spot(h), it] as const] : [];
    }));
  const ports = byHex(data.ports);
  const towns = byHex(data.towns);
  const forts = byHex(data.fortifications);
  const keySet = (ids: readonly string[]): Set<number | string> => new Set(ids.flatMap((id) => {
    const h = parseHex(id);
    return h ? [spot(h)] : [];
  }));
  const channels = keySet(data.channels);
  const mudflats = keySet(data.mudflats);
  const regions = new Map(data.regions.map((r) => [r.id, keySet(r.hexes)]));
  const w = idWidth(width, height);

  const all: Hex[] = [];
  for (let row = 1; row <= height; row++) for (let col = 1; col <= width; col++) all.push(offsetToHex({ col, row }));

  return {
    width,
    height,
    idWidth: w,
    data,
    terrainAt: (h) => {
      const i = index(h);
      return i < 0 ? undefined : terrain[i];
    },
    inBounds: (h) => index(h) >= 0,
    riverAt: (h) => rivers.get(spot(h)),
    hasRoad: (a, b) => roads.has(edge(a, b)),
    hasTrack: (a, b) => tracks.has(edge(a, b)),
    portAt: (h) => ports.get(spot(h))?.name,
    townAt: (h) => towns.get(spot(h))?.name,
    fortificationAt: (h) => {
      const f = forts.get(spot(h));
      return f ? { name: f.name, kind: f.kind } : undefined;
    },
    hasChannel: (h) => channels.has(spot(h)),
    isMudflat: (h) => mudflats.has(spot(h)),
    inRegion: (h, id) => regions.get(id)?.has(spot(h)) ?? false,
    allHexes: () => all,
    format: (h) => formatHex(h, w),
    parse: (id) => parseHex(id),
  };
}

export function isWater(t: Terrain | undefined): boolean {
  return t === 'sea' || t === 'coast';
}

/**
 * The bank an edge of a river hex belongs to. Walking with the flow, edges clockwise from the
 * entry edge up to the exit edge are the left bank, the others the right bank. The entry and exit
 * edges carry the river itself (`'river'`). A hex where the river starts or ends at the centre is
 * not split: every edge reports `undefined`.
 * @see RULINGS 1 (banks)
 */
export function bankOfEdge(river: RiverHex, edge: Direction): Bank | 'river' | undefined {
  if (river.entry === undefined || river.exit === undefined) return undefined;
  if (edge === river.entry || edge === river.exit) return 'river';
  const e = DIRECTIONS.indexOf(river.entry);
  const x = DIRECTIONS.indexOf(river.exit);
  const d = DIRECTIONS.indexOf(edge);
  const cwFromEntry = (d - e + 6) % 6;
  const exitFromEntry = (x - e + 6) % 6;
  return cwFromEntry < exitFromEntry ? 'left' : 'right';
}

/**
 * The bank a force stands on when it is put into a hex by hand (scenario start, a referee's
 * correction) without saying which: the left bank of a river that splits the hex, else none.
 */
export function defaultBank(map: MapModel, h: Hex): Bank | undefined {
  const river = map.riverAt(h);
  return river?.entry !== undefined && river.exit !== undefined ? 'left' : undefined;
}

/** The bank a force arrives on when it enters river hex `to` from the adjacent hex `from`. */
export function arrivalBank(map: MapModel, from: Hex, fromBank: Bank | undefined, to: Hex): Bank | undefined {
  const river = map.riverAt(to);
  if (!river) return undefined;
  const edge = directionTo(to, from);
  if (!edge) return undefined;
  const side = bankOfEdge(river, edge);
  if (side === 'left' || side === 'right') return side;
  if (side === 'river') {
    // Coming along the river from the neighbouring river hex: keep the same side of the water.
    const upstream = map.riverAt(from);
    if (upstream && upstream.riverId === river.riverId && fromBank) return fromBank;
    return 'left';
  }
  return undefined;
}

/**
 * Whether leaving river hex `at` (standing on `bank`) towards neighbour `to` means crossing the
 * river there. Along the river (through its entry or exit edge) there is no crossing.
 */
export function crossingNeeded(map: MapModel, at: Hex, bank: Bank | undefined, to: Hex): boolean {
  const river = map.riverAt(at);
  if (!river || !bank) return false;
  const edge = directionTo(at, to);
  if (!edge) return false;
  const side = bankOfEdge(river, edge);
  return side === 'left' || side === 'right' ? side !== bank : false;
}


/**
 * The map as integer hex indices, for searches that must not build strings or objects per step.
 * Index `i` is the hex `hexes[i]` (row by row, as `allHexes()`); its neighbour across direction
 * `d` (the order of DIRECTIONS) is `neighbour[i * 6 + d]`, or -1 off the map.
 */
export interface HexGrid {
  readonly size: number;
  readonly width: number;
  readonly hexes: readonly Hex[];
  readonly q: Int32Array;
  readonly r: Int32Array;
  readonly neighbour: Int32Array;
  /** Terrain of each hex as its position in TERRAINS. */
  readonly terrain: Uint8Array;
  /** The link along each edge `i * 6 + d`: 0 none, 1 track, 2 road (a road beats a track). */
  readonly link: Uint8Array;
  /** 1 where a river runs through the hex. */
  readonly river: Uint8Array;
}

/** Link codes of HexGrid.link (0: no road or track). */
export const LINK_TRACK = 1;
export const LINK_ROAD = 2;

const grids = new WeakMap<MapModel, HexGrid>();

/** Index of a hex in `hexGrid(map)`, or -1 off the map. */
export function hexIndex(map: Pick<MapModel, 'width' | 'height'>, h: Hex): number {
  const { col, row } = hexToOffset(h);
  if (col < 1 || row < 1 || col > map.width || row > map.height) return -1;
  return (row - 1) * map.width + (col - 1);
}

/**
 * The integer view of a map, built once per MapModel (the model is immutable, so the view is
 * cached with it and shared by every search on that map).
 */
export function hexGrid(map: MapModel): HexGrid {
  const hit = grids.get(map);
  if (hit) return hit;
  const hexes = map.allHexes();
  const size = hexes.length;
  const q = new Int32Array(size);
  const r = new Int32Array(size);
  const neighbour = new Int32Array(size * 6);
  const terrain = new Uint8Array(size);
  const river = new Uint8Array(size);
  // Neighbours by offset arithmetic (hexIndex without a Hex per edge: 240,000 edges on a 200 x 200 map).
  const vq = DIRECTIONS.map((d) => DIRECTION_VECTORS[d].q);
  const vr = DIRECTIONS.map((d) => DIRECTION_VECTORS[d].r);
  const { width, height } = map;
  for (let i = 0; i < size; i++) {
    const h = hexes[i] as Hex;
    q[i] = h.q;
    r[i] = h.r;
    terrain[i] = TERRAINS.indexOf(map.terrainAt(h) ?? 'clear');
    for (let k = 0; k < 6; k++) {
      const nq = h.q + (vq[k] as number);
      const col = nq + 1;
      const row = h.r + (vr[k] as number) + (nq - (nq & 1)) / 2 + 1;
      neighbour[i * 6 + k] = col < 1 || row < 1 || col > width || row > height ? -1 : (row - 1) * width + (col - 1);
    }
  }
  // River hexes from the rivers' own lists (what riverAt answers for), not a lookup per hex.
  for (const rv of map.data.rivers) {
    for (const step of rv.hexes) {
      const h = parseHex(step.hex);
      const i = h ? hexIndex(map, h) : -1;
      if (h && i >= 0 && map.riverAt(h)) river[i] = 1;
    }
  }
  const link = new Uint8Array(size * 6);
  const mark = (paths: readonly (readonly string[])[], code: number): void => {
    for (const path of paths) {
      for (let k = 1; k < path.length; k++) {
        const a = parseHex(path[k - 1] ?? '');
        const b = parseHex(path[k] ?? '');
        if (!a || !b) continue;
        const ia = hexIndex(map, a);
        const ib = hexIndex(map, b);
        const da = directionTo(a, b);
        const db = directionTo(b, a);
        if (ia < 0 || ib < 0 || !da || !db) continue;
        const ea = ia * 6 + DIRECTIONS.indexOf(da);
        const eb = ib * 6 + DIRECTIONS.indexOf(db);
        link[ea] = Math.max(link[ea] ?? 0, code);
        link[eb] = Math.max(link[eb] ?? 0, code);
      }
    }
  };
  mark(map.data.tracks, LINK_TRACK);
  mark(map.data.roads, LINK_ROAD);
  const grid: HexGrid = { size, width: map.width, hexes, q, r, neighbour, terrain, link, river };
  grids.set(map, grid);
  return grid;
}
