/**
 * Who holds a picture's bytes, so they can be given back as soon as the last holder is done.
 *
 * A picture's PNG (about 1.3 MB, outside V8's heap) is referenced from a small object in the main
 * thread's heap. Held for a second or more (drawn ahead, waiting for Discord's rate limit), that object
 * outlives a few scavenges and is promoted, and then the bytes are freed only by a mark-compact of the
 * whole heap. On a busy minute the pictures waiting for such a collection were tens of MB of the
 * process's memory, and their growth is what started most mark-compacts: long pauses of the event
 * loop (issue 25). So the render pool counts the holders of the bytes it hands out (each caller of
 * `runPicture`, and its short cache of recent pictures); the delivery gives its pictures back once
 * they are sent (src/app/deliverOne.ts); when no holder is left the bytes are detached from their
 * promoted object and go with the next scavenge.
 *
 * Only bytes that own their whole buffer are counted (a view into a shared pool never is), and bytes
 * never handed out by the pool are never detached: giving back something not counted does nothing.
 */
const holders = new WeakMap<ArrayBufferLike, number>();

/** Counts one more holder of `png` (an owner of its whole buffer); returns it. */
export function holdPicture<T extends Uint8Array>(png: T): T {
  const buffer = png.buffer;
  if (png.byteOffset === 0 && png.byteLength === buffer.byteLength && !(buffer instanceof SharedArrayBuffer)) holders.set(buffer, (holders.get(buffer) ?? 0) + 1);
  return png;
}

/**
 * One holder is done with `png`: with none left, its bytes are given back now (the buffer is detached:
 * it reads as empty from then on). Bytes not counted (not from the pool) are left alone.
 */
export function releasePicture(png: Uint8Array): void {
  const buffer = png.buffer;
  const n = holders.get(buffer);
  if (n === undefined) return;
  if (n > 1) {
    holders.set(buffer, n - 1);
    return;
  }
  holders.delete(buffer);
  // Moved into a new, unreferenced buffer (young: freed by the next scavenge); `buffer` is detached.
  structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
}

/** How many holders `png` has (0: not counted, or given back). */
export function pictureHolders(png: Uint8Array): number {
  return holders.get(png.buffer) ?? 0;
}
