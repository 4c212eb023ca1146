import fc from 'fast-check';

/** A damaged copy of `sound`: one byte changed anywhere, or the bytes cut short at any length (a kept file a crash or a disk spoiled). */
export function damagedBytes(sound: Buffer): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.record({ at: fc.nat({ max: sound.length - 1 }), xor: fc.integer({ min: 1, max: 255 }) }).map(({ at, xor }) => {
      const b = Buffer.from(sound);
      b[at] = b[at]! ^ xor;
      return b;
    }),
    fc.nat({ max: sound.length - 1 }).map((length) => sound.subarray(0, length)),
  );
}
