import { battlefieldSketchOf } from '../../engine/contact/index.js';
import type { BattlefieldSketch } from '../../engine/views/battlefieldSketch.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import type { Message, MessageFile } from '../messages.js';
import { refereeIds } from '../referees.js';
import { campaignInChannel, commandersOf, inCampaign, type Outgoing } from '../session.js';
import { handText, sketchData, sketchFile, sketchFileName } from './terrainCommon.js';

interface SketchJob {
  readonly contactId: string;
  /** The army whose side it is seen from; empty for the battle's public sketch. */
  readonly armyId: string;
  /** Who gets it: the army's commanders, or the referees when nobody commands it; none = the channel. */
  readonly userIds: readonly string[];
  readonly content: string;
  readonly sketch: BattlefieldSketch;
}

/**
 * Sends each commander of the contacts at the decision step (engage or evade) their battlefield
 * sketch, seen from their side, as a PNG in a DM. Rendering is asynchronous and transactions are
 * synchronous, so this runs after the transaction that moved the contact: the sketches are read
 * in one inCampaign call, drawn, then queued in a second one. `contactIds` limits it to those
 * contacts (default: every contact at the decision step). Each DM has a dedupe key per contact,
 * army and user, so calling this twice sends nothing twice. Never throws: a failure is logged
 * (the engage-or-evade prompt has already gone; `/terrain show` draws the sketch again).
 * Once a battle is joined, the sketch of its ground is posted once to the channel with the
 * deployment briefing; before that it never reaches the channel.
 */
export async function postSketches(app: App, campaignId: string, contactIds?: readonly string[]): Promise<void> {
  try {
    const jobs = inCampaign(app, { campaignId }, (tx) => {
      const wanted = contactIds ? new Set(contactIds) : undefined;
      const referees = refereeIds(tx.meta, tx.members);
      const out: SketchJob[] = [];
      for (const c of Object.values(tx.state.contacts)) {
        if ((wanted && !wanted.has(c.id)) || (c.data.terrain ?? []).length === 0) continue;
        if (c.step === 'battle') {
          // Battle joined: both sides fight over the same ground, so the sketch goes with the
          // public briefing (the cards as they lie; nothing about the forces).
          const names = c.armyIds.map((id) => tx.state.armies[id]?.name ?? id).join(' vs ');
          out.push({ contactId: c.id, armyId: '', userIds: [], content: `The battlefield of ${names} (contact ${c.id}), from the terrain reconnaissance.`, sketch: battlefieldSketchOf(tx.state, c) });
          continue;
        }
        if (c.step !== 'decision') continue;
        for (const armyId of c.armyIds) {
          const army = tx.state.armies[armyId];
          if (!army) continue;
          const commanders = commandersOf(tx, armyId);
          const { sketch, hand } = sketchData(tx.state, c, armyId);
          const forWhom = commanders.length > 0 ? '' : ' (nobody commands this army: sent to the referee)';
          const content = `**${army.name}** (${tx.state.name}) Contact ${c.id}: the battlefield sketch from the terrain reconnaissance, seen from your side${forWhom}. Your cards: ${handText(hand)}. Move them with \`/terrain place card: row: column: turn:\` before you engage or evade; \`/terrain show\` draws the sketch again.`;
          out.push({ contactId: c.id, armyId, userIds: commanders.length > 0 ? commanders : referees, content, sketch });
        }
      }
      return { result: out };
    });
    if (jobs.length === 0) return;
    const drawn: { job: SketchJob; file: MessageFile }[] = [];
    for (const job of jobs) {
      const file = await sketchFile(app, job.sketch, job.armyId ? sketchFileName(job.contactId, job.armyId) : `battlefield-${job.contactId}.png`);
      if (file) drawn.push({ job, file });
    }
    if (drawn.length === 0) return;
    const outbox: Outgoing[] = drawn.flatMap(({ job, file }) => job.userIds.length === 0 ? [{
      to: 'channel' as const,
      content: job.content,
      data: { kind: 'battlefieldSketch', contactId: job.contactId, sketch: job.sketch },
      files: [file],
      dedupeKey: `battle-sketch:${campaignId}:${job.contactId}`,
    }] : job.userIds.map((userId): Outgoing => ({
      to: 'dm',
      userId,
      content: job.content,
      data: { kind: 'battlefieldSketch', contactId: job.contactId, armyId: job.armyId, sketch: job.sketch },
      files: [file],
      dedupeKey: `sketch:${campaignId}:${job.contactId}:${job.armyId}:${userId}`,
    })));
    inCampaign(app, { campaignId }, () => ({ outbox, result: undefined }));
  } catch (err) {
    app.logger.error({ campaignId, err: (err as Error).message }, 'battlefield sketches failed');
  }
}

/**
 * After a contact answer (a command or a DM button): if the answer resolved a step, sends the
 * sketches of the contacts it named that are now at the decision step. Returns the answer's
 * messages unchanged. The answer's `data` says what happened: `{ contactId, resolved: true }`
 * (answers) or `{ contactId, step: 'decision' }` (the referee's `/contact resolve`).
 */
export async function postSketchesAfter(app: App, from: { actor: Actor } | { campaignId: string } | { customId: string }, messages: readonly Message[]): Promise<readonly Message[]> {
  const ids = messages.flatMap((m) => {
    const d = m.data as { contactId?: unknown; resolved?: unknown; step?: unknown } | undefined;
    return typeof d?.contactId === 'string' && (d.resolved === true || d.step === 'decision' || d.step === 'battle') ? [d.contactId] : [];
  });
  if (ids.length === 0) return messages;
  try {
    const campaignId = 'actor' in from ? campaignInChannel(app, from.actor).id : 'campaignId' in from ? from.campaignId : from.customId.split(':')[1];
    if (campaignId) await postSketches(app, campaignId, ids);
  } catch (err) {
    app.logger.error({ err: (err as Error).message }, 'battlefield sketches after an answer failed');
  }
  return messages;
}
