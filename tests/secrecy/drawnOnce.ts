import { createHash } from 'node:crypto';
import type sharp from 'sharp';
import type { renderMap } from '../../src/render/index.js';
import { mapKey } from '../../src/render/mapKey.js';
import { holdPicture } from '../../src/render/pictureBytes.js';

/*
 * The differential secrecy test draws each distinct picture once, and scales and cuts each once.
 * Both are deterministic: a map's picture is a function of the map, the view and the options
 * alone (the render pool shares one drawing between callers on that ground, src/render/
 * renderPool.ts `sameJob`), and what sharp makes of a picture a function of its bytes and the
 * steps asked. Both worlds of a test, and many tests of the file, ask for the same pictures and
 * tiles (in a world where a reader's view is the same, they must be): each is made the first time
 * it is asked for, and its bytes are reused after. The key is everything the result depends on
 * (never a server's own cache key), so a view that differs between the worlds is another picture,
 * drawn, scaled and cut anew: a difference still reaches the reader's bytes.
 */

type RenderMap = typeof renderMap;
type Sharp = typeof sharp;

/** The least recently used of `kept` dropped past `size`. */
function keep<T>(kept: Map<string, Promise<T>>, key: string, made: () => Promise<T>, size: number): Promise<T> {
  const hit = kept.get(key);
  kept.delete(key);
  const value = hit ?? made();
  kept.set(key, value);
  value.catch(() => kept.delete(key));
  if (kept.size > size) kept.delete(kept.keys().next().value as string);
  return value;
}

/** `render`, each distinct picture (map, view, options) drawn once and kept for the next ask (a 3,200 px map is about 3 MB: 64 kept). */
export function mapsDrawnOnce(render: RenderMap): RenderMap {
  const kept = new Map<string, Promise<Buffer>>();
  return (map, view, options, how) => {
    const key = createHash('sha256').update(JSON.stringify([mapKey(map, options.cacheKey), view, options])).digest('base64');
    // Each ask holds the bytes it is handed, as the render pool's callers do (src/render/pictureBytes.ts):
    // a delivery giving its copy back leaves them whole for the next ask.
    return keep(kept, key, () => render(map, view, options, how), 64).then(holdPicture);
  };
}

/** The content hash of a picture's bytes, worked out once per buffer (the pictures kept above are the same buffers each time). */
const hashes = new WeakMap<Buffer, string>();
function hashOf(b: Buffer): string {
  let h = hashes.get(b);
  if (h === undefined) {
    h = createHash('sha256').update(b).digest('base64');
    hashes.set(b, h);
  }
  return h;
}

type Step = readonly [string, readonly unknown[]];
const plain = (args: readonly unknown[]): boolean => args.every((a) => !Buffer.isBuffer(a) && typeof a !== 'function');

/**
 * `sharp`, for a picture given as bytes: its steps (resize, extract, png...) recorded, and its
 * `toBuffer()` or `metadata()` made once per picture and steps. Anything else (raw pixels, several
 * inputs, options, a step given bytes, another way out) goes to sharp as it is.
 */
export function sharpOnce(real: Sharp): Sharp {
  const kept = new Map<string, Promise<unknown>>();
  const once = (input?: unknown, ...rest: unknown[]): unknown => {
    if (!Buffer.isBuffer(input) || rest.length > 0) return (real as unknown as (...a: unknown[]) => unknown)(input, ...rest);
    const steps: Step[] = [];
    const replay = (): Record<string, (...a: unknown[]) => unknown> => steps.reduce((s, [name, args]) => (s[name] as (...a: unknown[]) => typeof s)(...args), real(input) as unknown as Record<string, (...a: unknown[]) => unknown>);
    const chain: object = new Proxy({}, {
      get(_t, name) {
        if (typeof name !== 'string' || name === 'then') return undefined;
        return (...args: unknown[]) => {
          if ((name === 'toBuffer' || name === 'metadata') && args.length === 0) {
            const key = JSON.stringify([hashOf(input), steps, name]);
            return keep(kept, key, async () => replay()[name]?.(), 512);
          }
          if (name === 'toBuffer' || name === 'metadata' || !plain(args) || name.startsWith('to')) return replay()[name]?.(...args);
          steps.push([name, args]);
          return chain;
        };
      },
    });
    return chain;
  };
  return once as unknown as Sharp;
}
