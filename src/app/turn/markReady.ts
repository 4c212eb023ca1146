import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { PUBLIC, REFEREE } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { discordTime } from '../format.js';
import { ephemeral, type Reply } from '../messages.js';
import { outOfQuietHours, reminderTime } from '../schedule.js';
import { deliver, OPEN } from '../deliveries/audience.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import { reminderSettings } from '../notices.js';
import { shownName } from '../members.js';

/**
 * The custom id of the Ready button on a commander's DMs: `ready:<campaignId>:t<half>`, `half` the
 * time index of the half period it says ready for. Pressed once that half period has been played
 * it is refused: it would mark the commander ready for one whose orders they have not seen. Ids
 * sent before (`ready:<campaignId>`) mark ready for the half period open now, as they always did.
 */
export const readyButtonId = (campaignId: string, half: number): string => `ready:${campaignId}:t${half}`;

/** The campaign and the half period (when the id names one) of a Ready button's custom id. */
function parseReadyButton(customId: string): { campaignId: string; half?: number } {
  const [, campaignId = '', when = ''] = customId.split(':');
  const half = /^t(\d+)$/.exec(when);
  return { campaignId, ...(half ? { half: Number(half[1]) } : {}) };
}

/**
 * The commanders whose readiness counts: every user who commands at least one army still in the
 * field. Armies nobody commands take their default order and wait for nobody.
 */
export function activeCommanders(tx: Pick<CampaignTx, 'members' | 'state'>): string[] {
  const live = new Set(Object.values(tx.state.armies).filter((a) => !a.status.destroyed).map((a) => a.id));
  return [...new Set(tx.members.filter((m) => m.role === 'commander' && live.has(m.armyId)).map((m) => m.userId))];
}

/**
 * When every active commander is ready and early ticks are on (`earlyTickGapMinutes` > 0): the
 * tick is due at once, but never sooner than the gap after the last tick, and never in the quiet
 * hours; only ever earlier than the scheduled deadline. Undefined when no early tick follows.
 */
function earlyDue(tx: CampaignTx, ready: readonly string[]): Date | undefined {
  const s = tx.state.settings;
  const due = tx.meta.nextTickAt;
  if (s.earlyTickGapMinutes <= 0 || tx.state.status !== 'running' || due === null || tx.meta.earlyFrom !== null) return undefined;
  const active = activeCommanders(tx);
  if (active.length === 0 || !active.every((u) => ready.includes(u))) return undefined;
  const last = tx.meta.lastTickAt === null ? 0 : Date.parse(tx.meta.lastTickAt) + s.earlyTickGapMinutes * 60_000;
  const at = outOfQuietHours(new Date(Math.max(tx.now.getTime(), last)), s);
  return at.getTime() < Date.parse(due) ? at : undefined;
}

/** `forHalf`: the half period a Ready button was sent for (time index), when its id names one. */
function readyChange(tx: CampaignTx, userId: string, undo: boolean, forHalf?: number): Change<Reply[]> {
  const s = tx.state;
  if (s.status === 'setup' || s.status === 'ended') {
    throw new UserError('ready.notRunning', s.status === 'setup' ? 'The campaign has not started yet: there is no half period to be ready for.' : 'The campaign has ended.');
  }
  if (!activeCommanders(tx).includes(userId)) {
    throw new UserError('ready.notCommander', 'Only a commander of an army in the field can say they are ready; you command none in this campaign. (`/campaign status` lists who commands what.)');
  }
  if (forHalf !== undefined && forHalf !== timeIndex(s.clock)) {
    throw new UserError('ready.buttonOld', `That Ready button was for ${formatGameTime(fromIndex(forHalf))}; orders are now for ${formatGameTime(s.clock)}. Nothing was recorded: look at your armies' orders for it, then \`/ready\` (or the Ready button of the newest reminder).`);
  }
  const half = formatGameTime(s.clock);
  const was = tx.meta.ready;
  const active = activeCommanders(tx);
  const count = (r: readonly string[]): string => `${r.filter((u) => active.includes(u)).length} of ${active.length} commanders ready`;
  if (undo) {
    if (!was.includes(userId)) return { result: [ephemeral(`You were not marked ready for ${half}; nothing changed.`, { ready: false })] };
    const ready = was.filter((u) => u !== userId);
    const events = [{ type: 'commanderUnready', audience: REFEREE, text: `${shownName(tx, userId)} is no longer ready for ${half}.`, data: { userId } }];
    const from = tx.meta.earlyFrom;
    if (from === null) return { control: { ready }, events, result: [ephemeral(`You are no longer ready for ${half} (${count(ready)}).`, { ready: false })] };
    // The early tick waited for everyone: it goes back to its scheduled time.
    const text = `${shownName(tx, userId)} is no longer ready for ${half}: the early tick is off, and the tick stays due ${discordTime(from)} (${discordTime(from, 'R')}).`;
    return {
      control: { ready, nextTickAt: from, earlyFrom: null, remindAt: reminderTime(from, reminderSettings(tx, s.settings)), reminderSentFor: null },
      events: [...events, { type: 'earlyTickCancelled', audience: PUBLIC, text, data: { userId, due: from } }],
      outbox: deliver(tx, 'channel', OPEN, { content: text, data: { type: 'earlyTickCancelled', due: from } }),
      result: [ephemeral(`You are no longer ready for ${half} (${count(ready)}). The tick is due ${discordTime(from)} again.`, { ready: false, nextTickAt: from })],
    };
  }
  if (was.includes(userId)) return { result: [ephemeral(`You are already ready for ${half} (${count(was)}). \`/ready undo:true\` takes it back.`, { ready: true })] };
  const ready = [...was, userId];
  const events = [{ type: 'commanderReady', audience: REFEREE, text: `${shownName(tx, userId)} is ready for ${half}.`, data: { userId } }];
  const answer = `You are ready for ${half} (${count(ready)}). You may still change your orders until the tick; \`/ready undo:true\` takes it back.`;
  const early = earlyDue(tx, ready);
  if (!early || tx.meta.nextTickAt === null) return { control: { ready }, events, result: [ephemeral(answer, { ready: true })] };
  const at = early.toISOString();
  const when = early.getTime() <= tx.now.getTime() ? 'now (within a minute)' : `${discordTime(at)} (${discordTime(at, 'R')}; ticks are at least ${s.settings.earlyTickGapMinutes} minutes apart)`;
  const text = `Every commander is ready for ${half}: the tick is played early, ${when}, instead of ${discordTime(tx.meta.nextTickAt)}.`;
  const outbox = deliver(tx, 'channel', OPEN, { content: text, data: { type: 'earlyTick', due: at, scheduled: tx.meta.nextTickAt } });
  return {
    control: { ready, nextTickAt: at, earlyFrom: tx.meta.nextTickAt, remindAt: null },
    events: [...events, { type: 'earlyTickDue', audience: PUBLIC, text, data: { due: at, scheduled: tx.meta.nextTickAt } }],
    outbox,
    result: [ephemeral(`${answer}\n${text}`, { ready: true, nextTickAt: at })],
  };
}

/**
 * A commander says they are done for the current half period (`/ready`), or takes it back
 * (`undo`). `/turn status` lists who is ready (names only). With early ticks on, the last
 * commander to be ready brings the tick forward (never within `earlyTickGapMinutes` of the last
 * one, never into the quiet hours); taking it back before the tick puts it back in its place.
 */
export function markReady(app: App, actor: Actor, undo = false): Reply[] {
  return inCampaign(app, { actor }, (tx) => readyChange(tx, actor.userId, undo));
}

/** The Ready button on a commander's DM (`ready:<campaignId>:t<half>`): `/ready`, for the half period it was sent for only. */
export function readyButton(app: App, userId: string, customId: string): Reply[] {
  const b = parseReadyButton(customId);
  return inCampaign(app, { campaignId: b.campaignId }, (tx) => readyChange(tx, userId, false, b.half));
}
