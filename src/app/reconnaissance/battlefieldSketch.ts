import { battlefieldSketchOf, terrainHand, type ContactRecord, type HandCard } from '../../engine/contact/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { BattlefieldSketch } from '../../engine/views/index.js';
import { renderBattlefield } from '../../render/index.js';
import type { App } from '../app.js';
import type { MessageFile } from '../messages.js';

/** The sketch an army sees and its hand, as plain data for a reply. */
export function sketchData(state: CampaignState, record: ContactRecord, armyId: string): { sketch: BattlefieldSketch; hand: HandCard[] } {
  return { sketch: battlefieldSketchOf(state, record, armyId), hand: terrainHand(record, armyId, state) };
}

export const sketchFileName = (contactId: string, armyId: string): string => `battlefield-${contactId}-${armyId}.png`;

/** Draws a sketch as a PNG file; a failed drawing is logged and yields nothing (the text still goes). */
export async function sketchFile(app: App, sketch: BattlefieldSketch, name: string): Promise<MessageFile | undefined> {
  try {
    return { name, data: new Uint8Array(await renderBattlefield(sketch)) };
  } catch (err) {
    app.logger.warn({ err: (err as Error).message, file: name }, 'battlefield sketch failed');
    return undefined;
  }
}
