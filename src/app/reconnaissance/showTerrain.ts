import { describeStep } from '../../engine/contact/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { handText } from './terrainText.js';
import { sketchData, sketchFile, sketchFileName } from './battlefieldSketch.js';
import { terrainContact } from './terrainCards.js';

/**
 * `/terrain show`: the battlefield sketch of the army's contact, seen from its own side, as a PNG,
 * with the commander's cards and where they lie. Private (ephemeral). Read-only.
 * @see RULINGS 5 Terrain reconnaissance
 */
export async function showTerrain(app: App, actor: Actor, input: { army?: string | undefined; contact?: string | undefined }): Promise<Reply[]> {
  const { message, sketch, file } = inCampaign(app, { actor }, (tx) => {
    const { army } = requireControl(tx, input.army);
    const c = terrainContact(tx.state, army, input.contact);
    const view = sketchData(tx.state, c, army.id);
    const move = c.step === 'decision' ? ' Move a card with `/terrain place card: row: column: turn:`.' : '';
    const text = `**Battlefield of contact ${c.id}**, seen from ${army.name}'s side; the contact is ${describeStep(c.step)}. Your cards: ${handText(view.hand)}.${move}`;
    return { result: { message: ephemeral(text, { contactId: c.id, armyId: army.id, step: c.step, ...view }), sketch: view.sketch, file: sketchFileName(c.id, army.id) } };
  });
  const png = await sketchFile(app, sketch, file);
  return [png ? { ...message, files: [png] } : message];
}
