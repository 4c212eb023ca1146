import { createRequire } from 'node:module';
import process from 'node:process';

let libvipsKept = false;

/**
 * Keeps libvips loaded in this thread for the life of the process: on glibc a worker that loaded it
 * alone would unload it when it stops (sharp's note on worker threads). Only sharp's native binding
 * is loaded here (a few ms), the one sharp itself loads in the worker (same file, so the library stays
 * mapped): requiring sharp whole also compiled its JavaScript and probed the C library, 100-300 ms
 * of this thread's event loop blocked when the first render thread of a busy minute started. Where
 * the binding is not found by its platform's name, sharp is required whole as before.
 */
export function keepLibvipsLoaded(): void {
  if (libvipsKept) return;
  const fromSharp = createRequire(createRequire(import.meta.url).resolve('sharp'));
  const arch = `${process.platform}-${process.arch}`;
  for (const name of [`@img/sharp-${arch}/sharp.node`, `@img/sharp-${process.platform}musl-${process.arch}/sharp.node`]) {
    try {
      fromSharp(name);
      libvipsKept = true;
      return;
    } catch {
      // not this platform's binding (or not a prebuilt one): the next, then sharp whole
    }
  }
  createRequire(import.meta.url)('sharp');
  libvipsKept = true;
}
