import { escapeName } from '../../engine/events/index.js';
import { battlefieldSketchOf } from '../../engine/contact/index.js';
import type { CampaignState, ContactRecord } from '../../engine/state/index.js';
import { channelMayRead, deliver, deliverEach, places, secretOf, type AudienceTx, type Message } from './audience.js';
import type { Outgoing } from './outgoing.js';
import { handText } from '../reconnaissance/terrainText.js';
import { sketchData, sketchFileName } from '../reconnaissance/battlefieldSketch.js';

/** Whether a contact came to `step` between two states (or is new at it). */
function reached(before: CampaignState, c: ContactRecord, step: ContactRecord['step']): boolean {
  return c.step === step && before.contacts[c.id]?.step !== step;
}

/**
 * The battlefield sketches a change of contacts calls for, as outbox items carrying the sketch to
 * draw (drawn at send time), queued in the same transaction as the change:
 * - a contact that reached the engage-or-evade decision: each commander gets the sketch seen from
 *   their side, with their hand of cards, by DM (the referees when nobody commands the army);
 * - a contact that became a battle: the sketch of its ground (the cards as they lie; nothing about
 *   the forces) goes with the deployment briefing: to the channel when positions are public, to
 *   the commanders in the battle and the referee in fog of war (it places the battle). Before
 *   that it never reaches the channel.
 */
export function sketchDeliveries(tx: AudienceTx, before: CampaignState, after: CampaignState): Outgoing[] {
  const out: Outgoing[] = [];
  const at = { ...tx, state: after };
  for (const c of Object.values(after.contacts)) {
    if ((c.data.terrain ?? []).length === 0) continue;
    if (reached(before, c, 'battle')) {
      const names = c.armyIds.map((id) => after.armies[id]?.name ?? id).join(' vs ');
      const sketch = battlefieldSketchOf(after, c);
      const message: Message = {
        content: `The battlefield of ${names} (contact ${c.id}), from the terrain reconnaissance.`,
        data: { kind: 'battlefieldSketch', contactId: c.id, sketch },
        pictures: [{ kind: 'sketch', name: `battlefield-${c.id}.png`, sketch }],
      };
      const subject = places(c.armyIds);
      if (channelMayRead(after.settings, subject)) out.push(...deliver(at, 'channel', subject, message));
      else out.push(...deliverEach(at, [...c.armyIds.map((army) => ({ army })), 'referees'], subject, message));
      continue;
    }
    if (!reached(before, c, 'decision')) continue;
    for (const armyId of c.armyIds) {
      const army = after.armies[armyId];
      if (!army) continue;
      const { sketch, hand } = sketchData(after, c, armyId);
      const commanded = tx.members.some((m) => m.role === 'commander' && m.armyId === armyId);
      const forWhom = commanded ? '' : ' (nobody commands this army: sent to the referee)';
      const content = `**${army.name}** (${escapeName(after.name)}) Contact ${c.id}: the battlefield sketch from the terrain reconnaissance, seen from your side${forWhom}. Your cards: ${handText(hand)}. Move them with \`/terrain place card: row: column: turn:\` before you engage or evade; \`/terrain show\` draws the sketch again.`;
      out.push(...deliver(at, { army: armyId, orReferees: true }, secretOf([armyId]), {
        content,
        data: { kind: 'battlefieldSketch', contactId: c.id, armyId, sketch },
        pictures: [{ kind: 'sketch', name: sketchFileName(c.id, armyId), sketch }],
      }));
    }
  }
  return out;
}
