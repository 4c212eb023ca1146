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

/** The width of `text` in font `f` (sets the context's font). */
export function measure(ctx: SKRSContext2D, text: string, f: string): number {
  ctx.font = f;
  return ctx.measureText(text).width;
}
