import { drawBattlefieldEarly, drawMapEarly, renderBattlefield, renderMap } from '../render/index.js';
import type { App } from './app.js';
import type { MessageFile, Picture } from './messages.js';
import { staticsOf } from './statics.js';

/**
 * Draws and encodes a picture of a campaign at send time (the delivery worker calls this for each
 * outbox item's pictures). A map is drawn on the campaign's own map, whose static layer is cached
 * per scenario. The bytes are the render thread's, not copied (a map is about 1.3 MB: a thousand
 * maps on a busy minute were 1.3 GB of copies for this thread's garbage collector); they may be
 * shared with another delivery of the same picture, so nobody writes into them. The caller holds
 * them until it gives them back with `releasePicture` (src/render/pictureBytes.ts; the delivery does
 * once they are sent): after that they read as empty.
 */
export async function paint(app: App, campaignId: string, picture: Picture): Promise<MessageFile> {
  if (picture.kind === 'sketch') return { name: picture.name, data: await renderBattlefield(picture.sketch) };
  const { map, mapKey } = staticsOf(app, campaignId);
  const png = await renderMap(map, picture.view, { ...picture.options, cacheKey: mapKey });
  return { name: picture.name, data: png };
}

/**
 * Starts drawing pictures a transaction queued, before the transaction writes them (src/app/unitOfWork.ts):
 * the render thread draws while this thread saves, and the delivery after the commit finds them drawn
 * (`paint` with the same picture takes the drawing). Only when a render thread is free; a transaction
 * that rolls back leaves a drawing nobody asks for, given back after a while.
 */
export function paintEarly(app: App, campaignId: string, pictures: readonly Picture[]): void {
  for (const picture of pictures) {
    if (picture.kind === 'sketch') {
      drawBattlefieldEarly(picture.sketch);
      continue;
    }
    const { map, mapKey } = staticsOf(app, campaignId);
    drawMapEarly(map, picture.view, { ...picture.options, cacheKey: mapKey });
  }
}
