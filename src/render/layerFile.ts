import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { type Canvas, Image } from '@napi-rs/canvas';
import { readCacheFile, sourcesVersion, writeCacheFile } from '../cacheFile.js';
import { encodeRgbPng, rgbInPlace } from './encodePng.js';
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
 * it is trusted: magic and format, the key again, the size (the header's, then the PNG's own), and
 * the PNG's CRC-32. A file
 * that fails any check (stale, truncated, another version, damaged) is ignored and rebuilt.
 *
 * Format: `VLAYER1\n`, a 4-byte big-endian header length, a JSON header, the layer as a PNG
 * (RGB: a layer is opaque; the map pictures' encoder settings, encodePng.ts). The CRC-32 in the
 * header is the PNG's: the canvas library decodes a cut or damaged PNG without an error (the rows
 * it could not read left transparent), so the bytes are checked before they are decoded.
 *
 * Why a PNG and not the raw pixels (format 1, until 29 Nov 2026): a layer read back is drawn onto
 * every picture, so it stays in the render thread's memory. Pixels put into a canvas
 * (`putImageData`) stayed there twice: the canvas keeps the put pixels in its recording, and
 * makes a raster of them when first drawn (about 20 MB for the Valormr map, 1600 x 1604). An
 * `Image` keeps its source bytes (the 1.2 MB PNG) and the pixels it decodes at its first drawing
 * (10 MB), no second copy. Measured in one thread, 6 pictures after the layer was read, 1 run
 * each at load 6 (tmp scripts, not kept): 42.6 MB held (raw file) against 33.2 (PNG, level 1) and 31.7
 * (level 6, slower to decode); the same picture bytes; the read and decode 13-19 ms CPU against
 * 13.5-16 for the raw file, CRC and `putImageData` (8 alternated reads, 2 runs); a picture drawn
 * over either the same CPU (30.6 / 31.3 / 48.1 ms for the canvas against 31.2 / 30.5 / 40.3 for the
 * image, medians of 20 alternated pictures, 3 runs); the read and the first picture together
 * 62.5 ms CPU against 77.8 (the canvas's raster made at its first drawing; medians of 6 alternated
 * processes). A PNG at level 0 (7.7 MB held as the source) held 39.
 */
const MAGIC = Buffer.from('VLAYER1\n', 'latin1');
const FORMAT = 2;

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
  const png = file.body;
  if (h.format !== FORMAT || h.version !== drawingVersion() || h.key !== key) return undefined;
  const size = pixelSize(layout, scale);
  if (h.width !== size.width || h.height !== size.height) return undefined;
  if (crc32(png) !== h.crc) return undefined;
  // Read from the PNG's header at once; the pixels are decoded at the first drawing, and kept.
  const image = new Image();
  image.src = png;
  if (image.width !== h.width || image.height !== h.height) return undefined;
  return { canvas: image, layout, scale, labels: h.labels, obstacles: h.obstacles, hexIds: h.hexIds };
}

/**
 * Stores a layer drawn on its canvas under `key`: encoded as a PNG on libvips's threads (the pixels
 * copied first, so the canvas may be drawn on meanwhile), then written to a temporary file and
 * renamed (a reader never sees half a file); resolves once written or given up, never rejects.
 * The layer must be opaque (a static layer paints its whole picture); one that is not is not
 * stored. A failure to encode or write (read-only directory, full disk) only costs the next
 * render thread a rebuild.
 */
export function writeLayerFile(key: string, layer: StaticLayer & { readonly canvas: Canvas }): Promise<void> {
  const path = layerFilePath(key);
  if (path === undefined) return Promise.resolve();
  const { width, height } = layer.canvas;
  const pixels = layer.canvas.data();
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) return Promise.resolve();
  return encodeRgbPng(rgbInPlace(pixels), width, height).then((png) => {
    const header: Header = { format: FORMAT, version: drawingVersion(), key, width, height, crc: crc32(png), labels: layer.labels, obstacles: layer.obstacles, hexIds: layer.hexIds };
    // Only a cache: a failed write costs the next render thread a redraw (src/cacheFile.ts).
    writeCacheFile(path, MAGIC, header, png);
  }, () => undefined);
}
