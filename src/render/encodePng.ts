import type { Canvas } from '@napi-rs/canvas';

/** Encodes a drawn canvas as a lossless PNG (the canvas's own encoder). */
export async function encodePng(canvas: Canvas): Promise<Buffer> {
  return canvas.encode('png');
}
