import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { holdPicture, pictureHolders, releasePicture } from '../../src/render/pictureBytes.js';
import { clearWorkerCaches, closeRenderPool, configureRenderPool, runPicture, type PictureJob } from '../../src/render/renderPool.js';
import type { BattlefieldSketch } from '../../src/engine/views/index.js';

afterEach(async () => {
  clearWorkerCaches();
  await closeRenderPool();
  configureRenderPool({ threads: 1, idleMs: 60_000 });
});

/** Picture k: 4 kB of the byte k + 1, drawn in this thread (each drawing its own buffer). */
const job = (k: number): PictureJob => ({ kind: 'battlefield', sketch: { k } as unknown as BattlefieldSketch });
const draw = (k: number) => (): Promise<Buffer> => Promise.resolve(Buffer.alloc(4096, k + 1));
const intact = (png: Buffer, k: number): boolean => png.byteLength === 4096 && png.every((b) => b === k + 1);

type Op = { readonly kind: 'ask'; readonly k: number; readonly twice: boolean } | { readonly kind: 'release'; readonly i: number } | { readonly kind: 'forget' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('ask' as const), k: fc.integer({ min: 0, max: 5 }), twice: fc.boolean() }),
  fc.record({ kind: fc.constant('release' as const), i: fc.nat(20) }),
  fc.constant({ kind: 'forget' as const }),
);

describe('picture bytes are given back when their last holder is done', () => {
  it('GIVEN any order of asking for pictures (alone or two at once), giving them back and the recent pictures forgotten THEN bytes someone still holds stay whole AND bytes nobody holds any more are given back', async () => {
    configureRenderPool({ threads: 0 });
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
      clearWorkerCaches();
      const held: { png: Buffer; k: number; released: boolean }[] = [];
      for (const o of ops) {
        if (o.kind === 'ask') {
          const asked = o.twice ? [runPicture(job(o.k), draw(o.k)), runPicture(job(o.k), draw(o.k))] : [runPicture(job(o.k), draw(o.k))];
          for (const png of await Promise.all(asked)) held.push({ png, k: o.k, released: false });
        } else if (o.kind === 'release') {
          const h = held.filter((x) => !x.released)[o.i % Math.max(1, held.length)];
          if (h) {
            h.released = true;
            releasePicture(h.png);
          }
        } else {
          clearWorkerCaches();
        }
        for (const h of held) if (!h.released) expect(intact(h.png, h.k)).toBe(true);
      }
      // Everyone gives back what they hold and the recent pictures are forgotten: nothing is left.
      for (const h of held) if (!h.released) releasePicture(h.png);
      clearWorkerCaches();
      for (const h of held) {
        expect(h.png.byteLength).toBe(0);
        expect(pictureHolders(h.png)).toBe(0);
      }
    }), { numRuns: 60 });
  });

  it('GIVEN bytes that are a view into a larger buffer, or never handed out WHEN given back THEN they are left alone', () => {
    const pooled = Buffer.from('a small picture');
    holdPicture(pooled);
    releasePicture(pooled);
    expect(pooled.toString()).toBe('a small picture');
    const own = Buffer.alloc(64, 7);
    releasePicture(own);
    expect(own.byteLength).toBe(64);
  });
});
