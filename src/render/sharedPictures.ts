import { holdPicture, releasePicture } from './pictureBytes.js';

/**
 * One drawing for every ask of the same picture (renderPool.ts keys a picture by what it shows):
 * a picture asked while it is drawn, or a short while after (a busy minute where campaigns of one
 * scenario post the same map, a delivery retried after a rate limit), or drawn early for an ask to
 * come (a transaction's map, drawn while the transaction still writes), is drawn once, and the
 * callers share its bytes. Each caller holds them (pictureBytes.ts) until it gives them back.
 */

/** Pictures being drawn, by what they show: a second caller waits for the same bytes. */
const drawing = new Map<string, Promise<Buffer>>();
/**
 * Pictures drawn lately, by what they show (most recent last), for a short while: the newest, and
 * older ones while all fit in 2 MB (`recentBytes`). Their asks come in a row (campaigns of one
 * scenario posting the same map; a retried send), so the last picture is the one asked again: one
 * full map (1.3 MB for Valormr) or a few zooms, where four full maps held 5 MB of this thread.
 */
const recent = new Map<string, { readonly png: Buffer; readonly until: number }>();
let recentBudget = 2 * 1024 * 1024;
const RECENT_MS = 30_000;
let recentBytes = 0;
let expiry: NodeJS.Timeout | undefined;

/**
 * Pictures started before anyone asked for them (`pictureSoon`), each held until the first ask
 * takes it, or for `EARLY_MS` (the delivery that would have asked ran in another process). Kept
 * apart from the recent ones: pictures drawn meanwhile must not push one out before its ask.
 */
const early = new Map<string, { readonly png: Promise<Buffer>; readonly timer: NodeJS.Timeout }>();
const EARLY_MS = 30_000;

/** The bytes of pictures drawn lately kept for a repeated ask (the newest is kept whatever its size). */
export function setRecentBudget(bytes: number): void {
  recentBudget = Math.max(0, bytes);
}

/**
 * The picture `key`, held for the caller: taken from an early drawing, a recent one or one under
 * way, else drawn by `draw`.
 */
export function sharedPicture(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
  const soon = early.get(key);
  if (soon) {
    // Drawn early for this ask: its hold passes to the caller. If that drawing failed, this ask draws again.
    early.delete(key);
    clearTimeout(soon.timer);
    return soon.png.catch(() => sharedPicture(key, draw));
  }
  const now = performance.now();
  const hit = recent.get(key);
  if (hit && hit.until > now) {
    recent.delete(key);
    recent.set(key, hit);
    return Promise.resolve(holdPicture(hit.png));
  }
  const running = drawing.get(key);
  if (running) return running.then(holdPicture);
  const drawn = draw().then((png) => remember(key, png)).finally(() => drawing.delete(key));
  drawing.set(key, drawn);
  return drawn.then(holdPicture);
}

/** Starts drawing the picture `key` for an ask to come, unless it is drawn, being drawn or already early. */
export function pictureSoon(key: string, draw: () => Promise<Buffer>): void {
  if (early.has(key) || drawing.has(key) || recent.has(key)) return;
  const png = sharedPicture(key, draw);
  // Nobody may wait on a failed early drawing: the ask draws it again.
  png.catch(() => undefined);
  const timer = setTimeout(() => {
    if (early.get(key)?.png !== png) return;
    early.delete(key);
    png.then(releasePicture, () => undefined);
  }, EARLY_MS);
  timer.unref();
  early.set(key, { png, timer });
}

function remember(key: string, png: Buffer): Buffer {
  const now = performance.now();
  forget(key);
  // The recent pictures hold their bytes too, until they are forgotten (pictureBytes.ts).
  recent.set(key, { png: holdPicture(png), until: now + RECENT_MS });
  recentBytes += png.byteLength;
  for (const [k, v] of recent) {
    if (k === key || (recentBytes <= recentBudget && v.until > now)) break;
    forget(k);
  }
  // The bytes go once nobody asked for them a while: an idle bot keeps no picture.
  clearTimeout(expiry);
  expiry = setTimeout(forgetPictures, RECENT_MS);
  expiry.unref();
  return png;
}

function forget(key: string): void {
  const had = recent.get(key);
  recent.delete(key);
  recentBytes -= had?.png.byteLength ?? 0;
  if (had) releasePicture(had.png);
}

/** Forgets the pictures drawn lately and those drawn early (their bytes are given back once nobody holds them). */
export function forgetPictures(): void {
  for (const key of [...recent.keys()]) forget(key);
  for (const [key, soon] of early) {
    early.delete(key);
    clearTimeout(soon.timer);
    soon.png.then(releasePicture, () => undefined);
  }
}
