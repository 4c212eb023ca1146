/**
 * Whether two values are stored as the same JSON: `x === y || JSON.stringify(x) ===
 * JSON.stringify(y)`, answered by walking both together instead of building both strings.
 * saveState (src/db/stateRepo.ts) asks it of every army, order and knowledge row whose object
 * changed (a tick of 800 armies changes them all, most of them early in the walk), and a tick asks
 * it of the public map's tokens before and after; the first difference ends the walk.
 * Anything `JSON.stringify` treats specially beyond plain data (`toJSON`, boxed primitives, a
 * bigint, a walk deeper than any state) is left to `JSON.stringify` itself, for the same answer or
 * the same error.
 */
export function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  // Written as nothing at all (stringify answers undefined for both).
  if (isSkipped(x) || isSkipped(y)) return isSkipped(x) && isSkipped(y);
  try {
    return same(x, y, 0);
  } catch (e) {
    if (e !== UNUSUAL) throw e;
    return JSON.stringify(x) === JSON.stringify(y);
  }
}

/** Thrown inside the walk when a value needs `JSON.stringify`'s own rules. */
const UNUSUAL = Symbol('unusual');
const MAX_DEPTH = 200;

/** What stringify writes nothing for as an object's field (and `null` for as an array's element). */
const isSkipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A scalar as JSON writes it, or the value itself for an object; throws UNUSUAL for what needs stringify. */
function scalar(v: unknown): unknown {
  switch (typeof v) {
    case 'number': return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'bigint': throw UNUSUAL;
    case 'object':
      if (v === null) return null;
      if (('toJSON' in v && typeof v.toJSON === 'function') || v instanceof Number || v instanceof String || v instanceof Boolean) throw UNUSUAL;
      return v;
    default: return v;
  }
}

function same(a: unknown, b: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) throw UNUSUAL;
  const x = scalar(a);
  const y = scalar(b);
  if (x === y) return true;
  if (Array.isArray(x)) return Array.isArray(y) && sameArray(x, y, depth);
  return isRecord(x) && isRecord(y) && sameRecord(x, y, depth);
}

/** Element by element: stringify writes `null` for a skipped element. */
function sameArray(xs: readonly unknown[], ys: readonly unknown[], depth: number): boolean {
  if (xs.length !== ys.length) return false;
  for (let i = 0; i < xs.length; i++) {
    const xi = isSkipped(xs[i]) ? null : xs[i];
    const yi = isSkipped(ys[i]) ? null : ys[i];
    if (xi !== yi && !same(xi, yi, depth + 1)) return false;
  }
  return true;
}

/**
 * The fields written, in order: stringify follows Object.keys and leaves out the skipped ones.
 * Both key lists are walked together, a skipped field stepped over (no filtered copies: a tick
 * compares every army's records).
 */
function sameRecord(xo: Record<string, unknown>, yo: Record<string, unknown>, depth: number): boolean {
  const xk = Object.keys(xo);
  const yk = Object.keys(yo);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < xk.length && isSkipped(xo[xk[i] ?? ''])) i++;
    while (j < yk.length && isSkipped(yo[yk[j] ?? ''])) j++;
    const k = xk[i];
    if (k === undefined || j >= yk.length) return k === undefined && j >= yk.length;
    if (k !== yk[j]) return false;
    const xv = xo[k];
    const yv = yo[k];
    if (xv !== yv && !same(xv, yv, depth + 1)) return false;
    i++;
    j++;
  }
}
