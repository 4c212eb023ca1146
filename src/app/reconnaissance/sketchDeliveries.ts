import { battlefieldSketchOf } from '../../engine/contact/index.js';
import type { CampaignState, ContactRecord } from '../../engine/state/index.js';
import { refereeIds } from '../referees.js';
import { commandersOf, type CampaignTx, type Outgoing } from '../session.js';
import { handText, sketchData, sketchFileName } from './terrainCommon.js';

/** Whether a contact came to `step` between two states (or is new at it). */
function reached(before: CampaignState, c: ContactRecord, step: ContactRecord['step']): boolean {
  return c.step === step && before.contacts[c.id]?.step !== step;
}

/**
 * The battlefield sketches a change of contacts calls for, as outbox items carrying the sketch to
 * draw (drawn at send time), queued in the same transaction as the change:
 * - a contact that reached the engage-or-evade decision: each commander gets the sketch seen from
 *   their side, with their hand of cards, by DM (the referees when nobody commands the army);
 * - a contact that became a battle: the sketch of its ground goes to the channel with the
 *   deployment briefing (the cards as they lie; nothing about the forces). Before that it never
 *   reaches the channel.
 */
export function sketchDeliveries(tx: Pick<CampaignTx, 'meta' | 'members'>, before: CampaignState, after: CampaignState): Outgoing[] {
  const out: Outgoing[] = [];
  for (const c of Object.values(after.contacts)) {
    if ((c.data.terrain ?? []).length === 0) continue;
    if (reached(before, c, 'battle')) {
      const names = c.armyIds.map((id) => after.armies[id]?.name ?? id).join(' vs ');
      const sketch = battlefieldSketchOf(after, c);
      out.push({
        to: 'channel',
        content: `The battlefield of ${names} (contact ${c.id}), from the terrain reconnaissance.`,
        data: { kind: 'battlefieldSketch', contactId: c.id, sketch },
        pictures: [{ kind: 'sketch', name: `battlefield-${c.id}.png`, sketch }],
      });
      continue;
    }
    if (!reached(before, c, 'decision')) continue;
    for (const armyId of c.armyIds) {
      const army = after.armies[armyId];
      if (!army) continue;
      const commanders = commandersOf(tx, armyId);
      const { sketch, hand } = sketchData(after, c, armyId);
      const forWhom = commanders.length > 0 ? '' : ' (nobody commands this army: sent to the referee)';
      const content = `**${army.name}** (${after.name}) Contact ${c.id}: the battlefield sketch from the terrain reconnaissance, seen from your side${forWhom}. Your cards: ${handText(hand)}. Move them with \`/terrain place card: row: column: turn:\` before you engage or evade; \`/terrain show\` draws the sketch again.`;
      for (const userId of commanders.length > 0 ? commanders : refereeIds(tx.meta, tx.members)) {
        out.push({
          to: 'dm',
          userId,
          content,
          data: { kind: 'battlefieldSketch', contactId: c.id, armyId, sketch },
          pictures: [{ kind: 'sketch', name: sketchFileName(c.id, armyId), sketch }],
        });
      }
    }
  }
  return out;
}
