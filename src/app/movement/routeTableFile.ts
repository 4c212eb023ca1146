import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readCacheFile, sourcesVersion, writeCacheFile } from '../../cacheFile.js';
import type { MapModel } from '../../engine/map/index.js';
import { keepRouteTables, type RouteTables, type RouteTableStore } from '../../engine/movement/index.js';
import type { App } from '../app.js';

/**
 * The route tables of a map's movement profiles (src/engine/movement/routeProfile.ts: prices,
 * components, landmark distances) kept on disk beside the database, so that a restarted process
 * answers its first long `/move` without building them again (on a 200 x 200 map the landmarks
 * alone are sixteen Dijkstra runs over 40,000 hexes, most of a first `/move`'s time).
 *
 * A file is named after its key: the code's version (a hash of the engine sources the tables
 * come from), the map's content key (the scenario document's hash) and the profile's key. Its
 * content is checked before it is trusted: magic, format, byte order, version and key again,
 * lengths and a CRC-32 of the arrays; the engine then checks the shapes against the map. A file
 * that fails a check (stale, truncated, another version, damaged) is ignored and rebuilt. Files
 * are written to a temporary name and renamed, so a reader (another process, another thread)
 * never sees half a file; two processes building the same tables both write the same bytes.
 *
 * Format: `VROUTE1\n`, a 4-byte big-endian header length, a JSON header, the arrays in the
 * machine's byte order (classCost, home, comp, compStart, compAdj, landmarks from, to).
 */
const MAGIC = Buffer.from('VROUTE1\n', 'latin1');
const FORMAT = 1;

/** Engine folders whose code the tables depend on (entry costs, profiles, map and hex geometry). */
const SOURCES = ['movement', 'profiles', 'map', 'hex', 'forces'];

let version: string | undefined;
/** A hash of the engine sources the tables come from: a new version of them never reads old tables. */
function codeVersion(): string {
  if (version !== undefined) return version;
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const files = [new URL(import.meta.url)];
  const names: string[] = [];
  for (const folder of SOURCES) {
    const dir = new URL(`../../engine/${folder}/`, import.meta.url);
    let found: string[];
    try {
      found = readdirSync(dir).filter((f) => f.endsWith(ext)).sort();
    } catch {
      found = [];
    }
    names.push(`${folder}:${found.join(',')}`);
    files.push(...found.map((f) => new URL(f, dir)));
  }
  version = sourcesVersion(`${FORMAT}|${names.join('|')}`, files);
  return version;
}

interface Header {
  readonly format: number;
  readonly endian: string;
  readonly version: string;
  readonly key: string;
  readonly minStep: number;
  /** Lengths of the arrays, in elements (home: 0 when the profile has none). */
  readonly classCost: number;
  readonly home: number;
  readonly comp: number;
  readonly compStart: number;
  readonly compAdj: number;
  /** Landmarks: -1 when not built yet. */
  readonly landmarks: number;
  readonly landmarkLength: number;
  readonly crc: number;
}

/** The route tables' folder of each app (createApp sets it). */
const folders = new WeakMap<App, string>();

/** Keeps this app's route tables in `dir` (a folder beside the database; created on first write). */
export function keepRouteTablesIn(app: App, dir: string): void {
  folders.set(app, dir);
}

/** Gives this map (content key `mapKey`) a store of its route tables in the app's folder, if it has one. */
export function attachRouteTables(app: App, map: MapModel, mapKey: string): void {
  const dir = folders.get(app);
  if (dir !== undefined) keepRouteTables(map, routeTableStore(dir, mapKey));
}

/** The store of one map's route tables in `dir`. */
export function routeTableStore(dir: string, mapKey: string): RouteTableStore {
  return {
    load: (key) => readTables(dir, `${mapKey}|${key}`),
    save: (key, tables) => writeTables(dir, `${mapKey}|${key}`, tables),
  };
}

/** The file of a full key (map and profile). */
export function routeTablePath(dir: string, key: string): string {
  return join(dir, `${createHash('sha1').update(`${codeVersion()}|${key}`).digest('hex')}.routes`);
}

function readTables(dir: string, key: string): RouteTables | undefined {
  const file = readCacheFile(routeTablePath(dir, key), MAGIC);
  if (!file) return undefined;
  const h = file.header as unknown as Header;
  if (h.format !== FORMAT || h.endian !== endianness() || h.version !== codeVersion() || h.key !== key) return undefined;
  const counts = [h.classCost, h.home, h.comp, h.compStart, h.compAdj, h.landmarkLength, h.landmarkLength];
  if (!counts.every((c) => Number.isInteger(c) && c >= 0) || !Number.isInteger(h.landmarks) || typeof h.minStep !== 'number') return undefined;
  const body = file.body;
  const size = 8 * h.classCost + h.home + 4 * (h.comp + h.compStart + h.compAdj) + 8 * h.landmarkLength;
  if (body.length !== size || crc32(body) !== h.crc) return undefined;
  let at = 0;
  // Copies (the body is not aligned for the typed arrays, and a copy frees the file's buffer).
  const take = (bytesEach: number, count: number): ArrayBuffer => {
    const part = new Uint8Array(body.subarray(at, at + bytesEach * count));
    at += bytesEach * count;
    return part.buffer;
  };
  const classCost = new Float64Array(take(8, h.classCost));
  const home = h.home > 0 ? new Uint8Array(take(1, h.home)) : undefined;
  const comp = new Int32Array(take(4, h.comp));
  const compStart = new Int32Array(take(4, h.compStart));
  const compAdj = new Int32Array(take(4, h.compAdj));
  const from = new Float32Array(take(4, h.landmarkLength));
  const to = new Float32Array(take(4, h.landmarkLength));
  const landmarks = h.landmarks >= 0 ? { count: h.landmarks, from, to } : undefined;
  return { classCost, home, minStep: h.minStep, comp, compStart, compAdj, landmarks };
}

/**
 * Stores the tables under `key` (a temporary file, then renamed). A failure to write (read-only
 * folder, full disk) only costs the next process a rebuild.
 */
function writeTables(dir: string, key: string, t: RouteTables): void {
  const parts = [t.classCost, t.home ?? new Uint8Array(0), t.comp, t.compStart, t.compAdj, t.landmarks?.from ?? new Float32Array(0), t.landmarks?.to ?? new Float32Array(0)].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  const body = Buffer.concat(parts);
  const header: Header = {
    format: FORMAT,
    endian: endianness(),
    version: codeVersion(),
    key,
    minStep: t.minStep,
    classCost: t.classCost.length,
    home: t.home?.length ?? 0,
    comp: t.comp.length,
    compStart: t.compStart.length,
    compAdj: t.compAdj.length,
    landmarks: t.landmarks?.count ?? -1,
    landmarkLength: t.landmarks?.from.length ?? 0,
    crc: crc32(body),
  };
  // Only a cache: a failed write costs the next process a rebuild (src/cacheFile.ts).
  writeCacheFile(routeTablePath(dir, key), MAGIC, header, body);
}
