import type { Hex } from './hex.js';

/**
 * Offset ids: `CCRR`, column then row, 1-based, `0101` top left. Even-numbered columns (1-based)
 * sit half a hex lower, which is "odd-q" for zero-based columns. Maps wider or taller than 99 use
 * three digits per part (`CCCRRR`).
 * @see RULINGS 1 Map and coordinates
 */
export interface Offset {
  readonly col: number; // 1-based
  readonly row: number; // 1-based
}

export function offsetToHex({ col, row }: Offset): Hex {
  const c = col - 1;
  const r0 = row - 1;
  const q = c;
  const r = r0 - (c - (c & 1)) / 2;
  return { q, r };
}

export function hexToOffset(h: Hex): Offset {
  const c = h.q;
  const row0 = h.r + (c - (c & 1)) / 2;
  return { col: c + 1, row: row0 + 1 };
}

/** Digits per part for a map of the given size. */
export function idWidth(cols: number, rows: number): number {
  return Math.max(cols, rows) > 99 ? 3 : 2;
}

export function formatHex(h: Hex, width = 2): string {
  const { col, row } = hexToOffset(h);
  return String(col).padStart(width, '0') + String(row).padStart(width, '0');
}

/** Parses a `CCRR` (or `CCCRRR`) id. Returns undefined when the text is not an id. */
export function parseHex(text: string): Hex | undefined {
  const t = text.trim();
  if (!/^\d{4}$|^\d{6}$/.test(t)) return undefined;
  const half = t.length / 2;
  const col = Number(t.slice(0, half));
  const row = Number(t.slice(half));
  if (col < 1 || row < 1) return undefined;
  return offsetToHex({ col, row });
}

/** A string key for maps and sets (not shown to users). */
export function hexKey(h: Hex): string {
  return `${h.q},${h.r}`;
}
