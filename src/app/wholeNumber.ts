import { wholeNumber } from '../engine/state/index.js';

/**
 * A whole number typed inside a text option (`r1=14`), checked by the same schema as the
 * settings' numbers: digits only, whole, within `range`. Undefined when it is not (the caller
 * refuses, naming the range); never Infinity, never a fraction, never 1e20.
 */
export function parseWholeNumber(text: string, range: { readonly min: number; readonly max: number }): number | undefined {
  const t = text.trim();
  if (!/^-?\d{1,15}$/.test(t)) return undefined;
  const r = wholeNumber(range.min, range.max).safeParse(Number(t));
  return r.success ? r.data : undefined;
}
