import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import { readCacheFile, sourcesVersion, writeCacheFile } from '../cacheFile.js';
import { layerCacheDir } from './layerCacheDir.js';
import type { MapLayout } from './layout.js';
import { pixelSize, type StaticLayer } from './staticLayer.js';

/**
 * Static layers kept on disk, beside the database, so that a new render thread or a restarted
 * process finds the layer the first render of a map drew instead of drawing it again (the
 * terrain, rivers, roads, symbols, hex ids and legend of the Valormr map take about a second; the
 * file is read back in a few milliseconds).
 *
 * A file is named after its key: the map's content-addressed key (the scenario document's hash),
 * the picture variant and the drawing code's version (a hash of the render sources that draw the
 * layer), so a new version of the renderer never reads an old layer. Its content is checked before
 * it is trusted: magic and format, the key again, the size, the pixels' length and CRC-32. A file
 * that fails any check (stale, truncated, another version, damaged) is ignored and rebuilt.
 *
 * Format: `VLAYER1\n`, a 4-byte big-endian header length, a JSON header, the RGBA pixels.
 */
const MAGIC = Buffer.from('VLAYER1\n', 'latin1');
const FORMAT = 1;

/** The drawing code's version: a hash of the sources that draw a static layer. */
let codeVersion: string | undefined;
function drawingVersion(): string {
  if (codeVersion !== undefined) return codeVersion;
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  codeVersion = sourcesVersion(String(FORMAT), ['staticLayer', 'layout', 'palette', 'glyphs', 'fonts', 'layerFile'].map((f) => new URL(`./${f}.${ext}`, import.meta.url)));
  return codeVersion;
}

interface Header {
  readonly format: number;
  readonly version: string;
  readonly key: string;
  readonly width: number;
  readonly height: number;
  readonly crc: number;
  readonly labels: StaticLayer['labels'];
  readonly obstacles: StaticLayer['obstacles'];
  readonly hexIds: StaticLayer['hexIds'];
}

/** The file of a layer key, or undefined when no cache directory is set. */
export function layerFilePath(key: string): string | undefined {
  const dir = layerCacheDir();
  if (dir === undefined) return undefined;
  return join(dir, `${createHash('sha1').update(`${drawingVersion()}|${key}`).digest('hex')}.layer`);
}

/** The layer stored under `key` for this layout at this scale, or undefined when there is none or the file fails a check. */
export function readLayerFile(key: string, layout: MapLayout, scale = 1): StaticLayer | undefined {
  const path = layerFilePath(key);
  if (path === undefined) return undefined;
  const file = readCacheFile(path, MAGIC);
  if (!file) return undefined;
  const h = file.header as unknown as Header;
  const pixels = file.body;
  if (h.format !== FORMAT || h.version !== drawingVersion() || h.key !== key) return undefined;
  const size = pixelSize(layout, scale);
  if (h.width !== size.width || h.height !== size.height || pixels.length !== h.width * h.height * 4) return undefined;
  if (crc32(pixels) !== h.crc) return undefined;
  const canvas = createCanvas(h.width, h.height);
  canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.length), h.width, h.height), 0, 0);
  return { canvas, layout, scale, labels: h.labels, obstacles: h.obstacles, hexIds: h.hexIds };
}

/**
 * Stores a layer under `key` (written to a temporary file, then renamed: a reader never sees half
 * a file). The layer must be opaque (a static layer paints its whole picture). A failure to write
 * (read-only directory, full disk) only costs the next render thread a rebuild.
 */
export function writeLayerFile(key: string, layer: StaticLayer): void {
  const path = layerFilePath(key);
  if (path === undefined) return;
  const pixels = layer.canvas.data();
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) return;
  const header: Header = { format: FORMAT, version: drawingVersion(), key, width: layer.canvas.width, height: layer.canvas.height, crc: crc32(pixels), labels: layer.labels, obstacles: layer.obstacles, hexIds: layer.hexIds };
  // Only a cache: a failed write costs the next render thread a redraw (src/cacheFile.ts).
  writeCacheFile(path, MAGIC, header, pixels);
}
