import sharp from 'sharp';

/**
 * The campaign's pictures that are not sent one by one: the time-lapse (an animated WebP of the
 * public map through the campaign, one frame per tick) and the campaign book's maps (stills in
 * WebP, a tenth of a PNG's size). The frames are drawn by the render pool like any map; libvips
 * joins and encodes them on its own threads, so the event loop does not wait on them.
 */

/** Lossy WebP quality: the map's flat colours and text stay clean, the file stays small. */
const QUALITY = 70;
const STILL_QUALITY = 55;

export interface AnimationOptions {
  /** How long each frame shows, in milliseconds. */
  readonly delayMs: number;
  /** How long the last frame stays before the loop starts again. */
  readonly lastDelayMs?: number;
}

/**
 * An animated WebP from frames (encoded pictures, all of one size), looping. libvips keeps the
 * unchanged parts of a frame out of the file (each frame stores what differs from the one before),
 * so a campaign's hundred maps of one land come to a few megabytes.
 */
export async function animatedWebp(frames: readonly Buffer[], opts: AnimationOptions): Promise<Buffer> {
  if (frames.length === 0) throw new Error('a time-lapse needs at least one frame');
  const delay = frames.map((_, i) => (i === frames.length - 1 ? (opts.lastDelayMs ?? opts.delayMs) : opts.delayMs));
  return sharp([...frames], { join: { animated: true } }).webp({ quality: QUALITY, effort: 4, loop: 0, delay }).toBuffer();
}

/** A still picture (a map of the campaign book) as WebP: a season's hundred maps stay under 10 MB. */
export async function stillWebp(picture: Buffer): Promise<Buffer> {
  return sharp(picture).webp({ quality: STILL_QUALITY, effort: 4 }).toBuffer();
}
