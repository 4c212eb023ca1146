import { GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { createRequire } from 'node:module';

/**
 * Fonts shipped with the project (the @fontsource packages), registered with the canvas under
 * our own family names. On a bare machine there is no system font and text would silently draw
 * nothing, so every font the renderer uses is one of these families.
 */
export const SERIF = 'Valormr Garamond';
export const SANS = 'Valormr Sans';

const FILES: readonly { pkg: string; file: string; family: string }[] = [
  { pkg: '@fontsource/eb-garamond', file: 'eb-garamond-latin-400-normal.woff2', family: SERIF },
  { pkg: '@fontsource/eb-garamond', file: 'eb-garamond-latin-400-italic.woff2', family: SERIF },
  { pkg: '@fontsource/eb-garamond', file: 'eb-garamond-latin-600-normal.woff2', family: SERIF },
  { pkg: '@fontsource/eb-garamond', file: 'eb-garamond-latin-700-normal.woff2', family: SERIF },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin-400-normal.woff2', family: SANS },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin-600-normal.woff2', family: SANS },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin-700-normal.woff2', family: SANS },
];

let registered = false;

/** Registers the fonts once per process; throws when a font file is missing (a broken install). */
export function ensureFonts(): void {
  if (registered) return;
  const require = createRequire(import.meta.url);
  for (const f of FILES) {
    const file = require.resolve(`${f.pkg}/files/${f.file}`);
    if (!GlobalFonts.registerFromPath(file, f.family)) throw new Error(`could not register font ${file}`);
  }
  registered = true;
}

/** A CSS font string using one of our families. */
export function font(px: number, family: 'serif' | 'sans', opts: { weight?: number; italic?: boolean } = {}): string {
  const style = opts.italic ? 'italic ' : '';
  const weight = opts.weight ?? 400;
  return `${style}${weight} ${Math.round(px * 10) / 10}px "${family === 'serif' ? SERIF : SANS}"`;
}

/**
 * Widths measured in this thread, by font and text. A width depends only on the two (the fonts are
 * ours and registered once), and a campaign's map measures the same names every tick: 800 army
 * labels cost ~30 ms of canvas `measureText` a picture. Cleared when full.
 */
const widths = new Map<string, number>();
const WIDTHS_KEPT = 8192;

/** The width of `text` in font `f` (may set the context's font: set it again before drawing). */
export function measure(ctx: SKRSContext2D, text: string, f: string): number {
  const key = `${f}\u0000${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  ctx.font = f;
  const width = ctx.measureText(text).width;
  if (widths.size >= WIDTHS_KEPT) widths.clear();
  widths.set(key, width);
  return width;
}
