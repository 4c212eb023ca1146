import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitExport, fits } from '../../src/app/uploads.js';
import { everyNth } from '../../src/app/book/timelapse.js';

/** A text cut at `cuts` and each piece gzipped on its own: an export's members (exportChunks.ts). */
const membersOf = (data: Uint8Array, cuts: readonly number[]): Buffer[] => {
  const at = [...new Set(cuts.map((c) => c % (data.byteLength + 1)))].sort((x, y) => x - y);
  return [0, ...at].map((from, i) => gzipSync(data.subarray(from, at[i] ?? data.byteLength)));
};

describe('fitExport (an export, as gzip members, against the reader\'s upload limit)', () => {
  it('PROPERTY: a text that fits comes as it is; one that does not comes as the members\' one gzip stream of the same bytes under the limit, or is reported too large with both sizes', async () => {
    await fc.assert(fc.asyncProperty(
      fc.oneof(fc.uint8Array({ maxLength: 4000 }), fc.string({ maxLength: 4000 }).map((s) => new TextEncoder().encode(s.repeat(3)))),
      fc.array(fc.nat(), { maxLength: 6 }),
      fc.option(fc.nat({ max: 6000 }), { nil: undefined }),
      async (data, cuts, limit) => {
        const members = membersOf(data, cuts);
        const fitted = await fitExport({ name: 'x-export.json', members, bytes: data.byteLength }, limit);
        if (limit === undefined || data.byteLength <= limit) {
          expect(fitted.kind).toBe('asIs');
          if (fitted.kind === 'asIs') expect(fitted.file).toEqual({ name: 'x-export.json', data: new Uint8Array(data) });
          return;
        }
        if (fitted.kind === 'compressed') {
          expect(fitted.file.name).toBe('x-export.json.gz');
          expect(fitted.file.data.byteLength).toBeLessThanOrEqual(limit);
          expect(fitted.bytes).toBe(data.byteLength);
          expect(new Uint8Array(gunzipSync(fitted.file.data))).toEqual(new Uint8Array(data));
        } else {
          expect(fitted.kind).toBe('tooLarge');
          if (fitted.kind !== 'tooLarge') return;
          expect(fitted.bytes).toBe(data.byteLength);
          expect(fitted.compressedBytes).toBeGreaterThan(limit);
        }
      },
    ), { numRuns: 60 });
  });

  it('unpacks off the event loop: a timer set before a large text is unpacked fires before it ends', async () => {
    const data = new TextEncoder().encode('{"kind":"moved","army":"hadewych","from":"1418","to":"1419"}\n'.repeat(280_000));
    const members = membersOf(data, [1000, 5_000_000]);
    const order: string[] = [];
    const timer = new Promise<void>((resolve) => setTimeout(() => { order.push('timer'); resolve(); }, 0));
    const fitted = fitExport({ name: 'big-export.json', members, bytes: data.byteLength }, undefined).then((f) => { order.push('fitted'); return f; });
    await Promise.all([timer, fitted]);
    expect(order).toEqual(['timer', 'fitted']);
    expect((await fitted).kind).toBe('asIs');
  });

  it('fits: no limit takes any size; a limit takes up to itself', () => {
    fc.assert(fc.property(fc.nat(), fc.nat(), (bytes, limit) => {
      expect(fits(bytes, undefined)).toBe(true);
      expect(fits(bytes, limit)).toBe(bytes <= limit);
    }));
  });
});

describe('everyNth (the time-lapse thinned to fit)', () => {
  it('PROPERTY: keeps the first and the last item, in order, a subsequence with at most one item in every step (plus the last); a step spanning them all keeps the last alone', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (raw, step) => {
      const items = raw.map((v, i) => ({ v, i }));
      const kept = everyNth(items, step);
      if (step >= items.length) {
        expect(kept).toEqual([items.at(-1)]);
        return;
      }
      expect(kept[0]).toBe(items[0]);
      expect(kept.at(-1)).toBe(items.at(-1));
      for (let k = 1; k < kept.length; k++) expect(kept[k]!.i).toBeGreaterThan(kept[k - 1]!.i);
      expect(kept.length).toBeLessThanOrEqual(Math.ceil(items.length / step) + 1);
      if (step === 1) expect(kept).toEqual(items);
      for (const x of kept.slice(0, -1)) expect(x.i % step).toBe(0);
    }));
  });
});
