/**
 * Changes between two plain-JSON values as path operations: what a journal entry stores of the
 * state it changed, and how replay finds the first field where two states differ. Pure.
 * @see docs/replay.md
 */

/** A JSON value as the state is made of (no undefined inside arrays; absent object keys). */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** One operation: set the value at `p` (object keys and array indexes), or remove it (`v` absent). */
export interface PathOp {
  readonly p: readonly (string | number)[];
  readonly v?: Json;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The value as JSON would store it (undefined fields dropped), for a value about to go into an op.
 * A string, a boolean or a finite number is its own JSON (-0 is written 0): most of a tick's
 * operations set one of those, and need no round trip through a string.
 */
function plain(x: unknown): Json {
  if (typeof x === 'string' || typeof x === 'boolean' || x === null) return x;
  if (typeof x === 'number' && Number.isFinite(x)) return x === 0 ? 0 : x;
  return JSON.parse(JSON.stringify(x)) as Json;
}

const isScalar = (x: unknown): boolean => x === null || typeof x !== 'object';

/**
 * Whether setting a list of scalars whole is shorter, as JSON, than its elements' operations: a
 * sliding window (an army's last halves, shifted by each tick) changes most of its elements at once.
 */
function wholeIsShorter(ops: readonly PathOp[], path: readonly (string | number)[], b: readonly unknown[]): boolean {
  // Each operation's JSON and one separator: the list's JSON less its closing bracket.
  const apart = JSON.stringify(ops).length - 1;
  return JSON.stringify({ p: path, v: b }).length < apart;
}

/**
 * Walks `a` and `b` together. `path` is one stack pushed and popped on the way down (a copy is taken
 * only for an operation): a tick of 800 armies walks tens of thousands of fields, most unchanged.
 */
function walk(a: unknown, b: unknown, path: (string | number)[], out: PathOp[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) {
    walkRecord(a, b, path, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const ops: PathOp[] = [];
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      path.push(i);
      walk(a[i], b[i], path, ops);
      path.pop();
    }
    if (ops.length > 1 && b.every(isScalar) && wholeIsShorter(ops, path, b)) out.push({ p: [...path], v: plain(b) });
    else out.push(...ops);
    return;
  }
  if (typeof a === 'number' && typeof b === 'number' && Object.is(a, b)) return;
  out.push({ p: [...path], v: plain(b) });
}

/**
 * Two records in one pass over `b`'s keys; `a`'s keys are walked for removed fields only when
 * some of them were not met there (a field removed, or one of `a`'s set to undefined).
 */
function walkRecord(a: Record<string, unknown>, b: Record<string, unknown>, path: (string | number)[], out: PathOp[]): void {
  const aKeys = Object.keys(a);
  const removedAt = out.length;
  let met = 0;
  for (const k of Object.keys(b)) {
    const bv = b[k];
    if (bv === undefined) continue;
    const av = a[k];
    if (av === bv) {
      met++;
    } else if (av === undefined || !Object.hasOwn(a, k)) {
      out.push({ p: [...path, k], v: plain(bv) });
    } else {
      met++;
      path.push(k);
      walk(av, bv, path, out);
      path.pop();
    }
  }
  if (met === aKeys.length) return;
  const removed: PathOp[] = [];
  for (const k of aKeys) {
    if (a[k] !== undefined && (!Object.hasOwn(b, k) || b[k] === undefined)) removed.push({ p: [...path, k] });
  }
  out.splice(removedAt, 0, ...removed);
}

/**
 * The operations that turn `a` into `b`. Parts shared by reference (a use-case returns its new
 * state with the untouched parts shared) cost nothing, so a command's diff is as small as its change.
 * An array whose length changed is set whole, and so is a list of scalars when that is shorter
 * than its elements' operations (a window shifted by one: most of its elements change).
 */
export function diffJson(a: unknown, b: unknown): PathOp[] {
  const out: PathOp[] = [];
  walk(a, b, [], out);
  return out;
}

/** `value` with the operations applied (a new value; `value` is not changed). */
export function applyOps(value: Json, ops: readonly PathOp[]): Json {
  let root: unknown = structuredClone(value);
  for (const op of ops) {
    if (op.p.length === 0) {
      root = op.v === undefined ? null : structuredClone(op.v);
      continue;
    }
    let at: unknown = root;
    for (const key of op.p.slice(0, -1)) {
      if (!(isObject(at) || Array.isArray(at))) throw new Error(`no value at ${formatPath(op.p)}`);
      at = (at as Record<string | number, unknown>)[key];
    }
    const last = op.p[op.p.length - 1] as string | number;
    if (Array.isArray(at) && typeof last === 'number') {
      if (op.v === undefined) at.splice(last, 1);
      else at[last] = structuredClone(op.v);
    } else if (isObject(at)) {
      if (op.v === undefined) delete at[String(last)];
      else Object.defineProperty(at, String(last), { value: structuredClone(op.v), enumerable: true, writable: true, configurable: true });
    } else {
      throw new Error(`no value at ${formatPath(op.p)}`);
    }
  }
  return root as Json;
}

/** A path as a reader writes it: `armies.a1.hex`, `orders[2].to`. */
function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(the whole state)';
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/** Where two states first differ (in key order of `expected`, then keys only `got` has), or undefined when they are equal. */
interface Difference {
  readonly path: string;
  readonly expected: string;
  readonly got: string;
}

const shown = (x: Json | undefined): string => {
  if (x === undefined) return '(absent)';
  const s = JSON.stringify(x);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** The first difference between two states, ignoring the paths `ignore` names (formatted). */
export function firstDifference(expected: unknown, got: unknown, ignore: readonly string[] = []): Difference | undefined {
  const ops = diffJson(plain(expected), plain(got));
  for (const op of ops) {
    const path = formatPath(op.p);
    if (ignore.includes(path)) continue;
    let before: unknown = plain(expected);
    for (const k of op.p) before = isObject(before) || Array.isArray(before) ? (before as Record<string | number, unknown>)[k] : undefined;
    return { path, expected: shown(before as Json | undefined), got: shown(op.v) };
  }
  return undefined;
}
