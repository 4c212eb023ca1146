import type { Sharp } from 'sharp';
import type sharpModule from 'sharp';
import { MapCache } from './mapCache.js';
import type { StoredViews } from './storedViews.js';

/**
 * The page's map as deep-zoom tiles (OpenSeadragon's pyramid: level L is the picture scaled by
 * 2^(L - maxLevel), cut in 512 px squares). The first paint needs only the levels up to the
 * "first" picture (1,600 px wide, drawn at that width: cheap); the levels above it are cut from
 * the 3,200 px picture, drawn only when someone zooms in that far. Each level up to the first
 * picture is scaled from it once (a level picture) and its tiles cut from that; the level 800 px
 * wide is also the page's first view (`first.png`: the whole map fitted to a screen, shown before
 * the deep-zoom viewer has loaded). Every picture, level and tile is kept after its first render
 * (a least-recently-used cache), so each request after the first costs no drawing and no cutting.
 * The levels below the first view are scaled from it, so the viewer's first view needs only the
 * first view's picture. With `stored` (storedViews.ts), a first view is kept on disk when made and
 * read from there by a later process: its first view and pyramid then cost no drawing at all.
 */

/**
 * sharp (libvips), loaded on the first level scaled or tile cut, not with the web page: about
 * 25 MB of resident memory an idle bot does not hold (a stored first view needs none of it).
 */
let libvips: Promise<typeof sharpModule> | undefined;
async function sharp(input: Buffer): Promise<Sharp> {
  libvips ??= import('sharp').then((m) => m.default);
  return (await libvips)(input);
}

const TILE_SIZE = 512;
/** Width of the first picture: the pyramid's level below the top. */
const FIRST_WIDTH = 1600;
/** How many levels below the top `warm` stops (the top is the full picture, the next the first: 2 stops at 800 px wide). */
const WARM_BELOW_TOP = 2;
/** Levels below this many pixels wide are not offered (tiny tiles nobody needs). */
const MIN_LEVEL_WIDTH = 150;

/**
 * How the first view is encoded: a palette PNG (256 colours, no dithering), about 240 KB where the
 * full-colour PNG was 770 KB (the soak's map at 800 px), so the page's first paint waits for a
 * third of the bytes and a faster decode. Side by side at twice its size the two read the same
 * (hex ids, labels, tokens; the mean difference is about 1 of 255 a channel). Its level's tiles
 * are cut from these pixels and the levels below scaled from them, so the viewer that replaces
 * the first view shows exactly its pixels (tests/web/tiles.test.ts). Effort 3 of 10: about a
 * fifth of a second, once per view (drawn ahead after a tick).
 */
const FIRST_VIEW_PNG = { palette: true, colors: 256, quality: 100, dither: 0, effort: 3, compressionLevel: 9 } as const;

/** What the viewer needs to ask for tiles. */
export interface Pyramid {
  readonly width: number;
  readonly height: number;
  readonly tileSize: number;
  readonly minLevel: number;
  readonly maxLevel: number;
}

/** How a view's pictures are drawn: at the first width, or full (the 3,200 px picture). */
export type DrawAt = (width: number) => Promise<Buffer>;

/** A render, a level scaled from the first picture, or a tile cut (a cache miss): for tests to count. */
export type Drawn = (what: 'picture' | 'level' | 'tile', key: string) => void;

/** The pyramid's levels for a full picture's size: the top is the picture, each level below half the one above, down to MIN_LEVEL_WIDTH. */
function levelsOf(size: { readonly width: number; readonly height: number }): { minLevel: number; maxLevel: number } {
  const maxLevel = Math.ceil(Math.log2(Math.max(size.width, size.height)));
  let minLevel = maxLevel;
  while (minLevel > 0 && size.width / 2 ** (maxLevel - minLevel + 1) >= MIN_LEVEL_WIDTH) minLevel--;
  return { minLevel, maxLevel };
}

export class TileCache {
  private readonly pictures: MapCache;
  private readonly tiles: MapCache;
  private readonly sizes = new Map<string, { width: number; height: number }>();

  constructor(private readonly fullWidth: number, opts: { pictures: number; tiles: number; drawn?: Drawn; stored?: StoredViews }) {
    this.pictures = new MapCache(opts.pictures);
    this.tiles = new MapCache(opts.tiles);
    this.drawn = opts.drawn ?? (() => undefined);
    this.stored = opts.stored;
  }

  private readonly drawn: Drawn;
  private readonly stored: StoredViews | undefined;

  /** The view's picture at a width (the first, or the full one), drawn once. */
  picture(key: string, width: number, draw: DrawAt): Promise<Buffer> {
    return this.pictures.get(`${key}|w${width}`, async () => {
      this.drawn('picture', `${key}|w${width}`);
      return draw(width);
    });
  }

  /**
   * The pyramid of a view: the full picture's real size, read from the first picture without
   * drawing the full one. Both are one layout drawn at two scales (webMapScale), so the full
   * picture is exactly `fullWidth / FIRST_WIDTH` times the first in both directions, and every
   * level below has the full picture's aspect.
   */
  async pyramid(key: string, draw: DrawAt): Promise<Pyramid> {
    let size = this.sizes.get(key);
    if (!size) {
      const kept = this.stored?.read(key);
      if (kept) {
        size = { width: kept.width, height: kept.height };
        // The stored first view is the first view's level picture, as drawn and scaled before.
        this.pictures.get(`${key}|L${levelsOf(size).maxLevel - WARM_BELOW_TOP}`, () => Promise.resolve(kept.png));
      } else {
        const meta = await (await sharp(await this.picture(key, FIRST_WIDTH, draw))).metadata();
        const scale = this.fullWidth / FIRST_WIDTH;
        size = { width: Math.round(meta.width * scale), height: Math.round(meta.height * scale) };
      }
      this.sizes.set(key, size);
      if (this.sizes.size > 256) this.sizes.delete(this.sizes.keys().next().value as string);
    }
    return { width: size.width, height: size.height, tileSize: TILE_SIZE, ...levelsOf(size) };
  }

  /**
   * Draws a view's first picture and cuts the tiles of a first view ahead of the viewer's asks:
   * the first view's picture, then every tile of the levels up to half the first picture's width
   * (800 px: the map fitted to a desktop or phone screen), smallest level first, one after another.
   * An ask for a tile being cut waits for that cut instead of starting another.
   */
  async warm(key: string, draw: DrawAt): Promise<void> {
    const p = await this.pyramid(key, draw);
    await this.first(key, draw);
    for (let level = p.minLevel; level <= p.maxLevel - WARM_BELOW_TOP; level++) {
      const { across, down } = this.grid(p, level);
      for (let y = 0; y < down; y++) for (let x = 0; x < across; x++) await this.tile(key, draw, level, x, y);
    }
  }

  /** The first view: the whole map at the level 800 px wide (the picture the viewer's home view shows on a desktop), as one PNG. */
  async first(key: string, draw: DrawAt): Promise<Buffer> {
    const p = await this.pyramid(key, draw);
    const level = p.maxLevel - WARM_BELOW_TOP;
    const levelKey = `${key}|L${level}`;
    const known = this.pictures.has(levelKey);
    const png = await this.level(key, draw, p, level);
    // Made here (not read from the store): kept for a later process.
    if (!known) this.stored?.write(key, { png, width: p.width, height: p.height });
    return png;
  }

  private grid(p: Pyramid, level: number): { lw: number; lh: number; across: number; down: number } {
    const scale = 2 ** (p.maxLevel - level);
    const lw = Math.ceil(p.width / scale);
    const lh = Math.ceil(p.height / scale);
    return { lw, lh, across: Math.ceil(lw / TILE_SIZE), down: Math.ceil(lh / TILE_SIZE) };
  }

  /**
   * A level up to the first picture's width, whole: the first view's level scaled once from the
   * first picture, and each level below it scaled once from the first view's (the first picture
   * itself at its own width).
   */
  private level(key: string, draw: DrawAt, p: Pyramid, level: number): Promise<Buffer> {
    const { lw, lh } = this.grid(p, level);
    if (lw >= FIRST_WIDTH) return this.picture(key, FIRST_WIDTH, draw);
    const levelKey = `${key}|L${level}`;
    const firstView = p.maxLevel - WARM_BELOW_TOP;
    return this.pictures.get(levelKey, async () => {
      this.drawn('level', levelKey);
      const from = level < firstView ? await this.level(key, draw, p, firstView) : await this.picture(key, FIRST_WIDTH, draw);
      const scaled = (await sharp(from)).resize(lw, lh, { fit: 'fill', kernel: 'lanczos3' });
      return (level === firstView ? scaled.png(FIRST_VIEW_PNG) : scaled.png({ compressionLevel: 6 })).toBuffer();
    });
  }

  /** One tile, cut once from its level's picture (the 3,200 px picture scaled, above the first picture); undefined when there is no such tile. */
  async tile(key: string, draw: DrawAt, level: number, x: number, y: number): Promise<Buffer | undefined> {
    const p = await this.pyramid(key, draw);
    if (level < p.minLevel || level > p.maxLevel) return undefined;
    const { lw, lh } = this.grid(p, level);
    const left = x * TILE_SIZE;
    const top = y * TILE_SIZE;
    if (left >= lw || top >= lh) return undefined;
    const tileKey = `${key}|t${level}/${x}/${y}`;
    return this.tiles.get(tileKey, async () => {
      this.drawn('tile', tileKey);
      const cut = { left, top, width: Math.min(TILE_SIZE, lw - left), height: Math.min(TILE_SIZE, lh - top) };
      const source = lw <= FIRST_WIDTH
        ? await sharp(await this.level(key, draw, p, level))
        : (await sharp(await this.picture(key, this.fullWidth, draw))).resize(lw, lh, { fit: 'fill', kernel: 'lanczos3' });
      return source.extract(cut).png({ compressionLevel: 6 }).toBuffer();
    });
  }
}
