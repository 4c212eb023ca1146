import { formatGameTime } from '../../engine/clock/index.js';
import { type EngineEvent, REFEREE } from '../../engine/events/index.js';
import type { App } from '../app.js';
import { discordTime } from '../format.js';
import { deliver, REFEREE_ONLY } from '../deliveries/audience.js';
import { refereeIds } from '../referees.js';
import { deadlineControl, nextTickText, scheduleFromNow } from '../schedule.js';
import { withInvocation } from '../journal/invocation.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { Outgoing } from '../deliveries/outgoing.js';
import { battleNames, tickChange, type TickOutcome } from '../turn/playTick.js';
import { countDue } from './countDue.js';
import { reminderSettings } from '../notices.js';

/** What the scheduler did with one due tick. */
export type DueTick =
  | { readonly kind: 'played'; readonly outcome: TickOutcome; readonly missed?: number }
  | { readonly kind: 'passedOver'; readonly missed: number }
  | { readonly kind: 'pausedForCatchUp'; readonly missed: number }
  | { readonly kind: 'held' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'clockBehind' }
  | { readonly kind: 'alreadyPlayed' }
  | { readonly kind: 'notRunning' };

/** A referee message, once per key (its dedupe key), with its log line. */
function toReferees(tx: CampaignTx, type: string, text: string, key: string, data: Record<string, unknown>): { events: EngineEvent[]; outbox: Outgoing[] } {
  return {
    events: [{ type, audience: REFEREE, text, data }],
    outbox: refereeIds(tx.meta, tx.members).flatMap((userId) => deliver(tx, { user: userId }, REFEREE_ONLY, { content: `**Referee** (${tx.state.name})\n${text}`, data: { type, ...data }, dedupeKey: `${key}:${userId}` })),
  };
}

function decide(tx: CampaignTx, dueIso: string): Change<DueTick> {
  const { meta, state, now } = tx;
  if (meta.nextTickAt !== dueIso) return { result: { kind: 'stale' } };
  if (state.status !== 'running') return { result: { kind: 'notRunning' } };
  // A clock that went backwards (before the last tick's run) plays nothing until it has caught up.
  if (meta.lastTickAt !== null && Date.parse(meta.lastTickAt) > now.getTime()) return { result: { kind: 'clockBehind' } };
  const { cadence, timezone, catchUp, catchUpCap } = state.settings;
  const due = new Date(dueIso);
  const held = meta.heldDue === dueIso;
  // An early tick (everyone ready) stands in for the scheduled one: downtime counts from that.
  const early = meta.earlyFrom !== null;
  // How many scheduled instants have passed (counting a long downtime only as far as the policy needs).
  const { count } = countDue(cadence, timezone, early ? new Date(meta.earlyFrom ?? dueIso) : due, now, meta.catchUpAllowance > 0 ? 2 : catchUp === 'all' ? catchUpCap + 1 : undefined);
  // More than one scheduled instant has passed: the bot was down (a battle hold is not downtime).
  const downtime = count > 1 && !held;
  const laterTick = scheduleFromNow(state.settings, now, meta.lastTickAt);
  const later = laterTick.at.toISOString();
  const laterText = nextTickText(laterTick, state.settings);
  const since = discordTime(dueIso);

  if (downtime && meta.catchUpAllowance === 0 && catchUp === 'none') {
    const note = toReferees(tx, 'ticksMissed', `The bot was not running: ${count} scheduled tick(s) since ${since} were missed. Catch-up policy \`none\`: none was played; the game stays at ${formatGameTime(state.clock)}. Next tick ${laterText}. (Change it with \`/campaign settings catch-up:\`.)`,
      `catchUp:${meta.id}:${dueIso}`, { due: dueIso, missed: count, policy: 'none', next: later });
    return { ...note, control: { ...deadlineControl(later, reminderSettings(tx, state.settings)), ready: [], reminded: [] }, result: { kind: 'passedOver', missed: count } };
  }
  if (downtime && meta.catchUpAllowance === 0 && catchUp === 'all' && count > catchUpCap) {
    const note = toReferees(tx, 'catchUpPaused', `The bot was not running: more than ${catchUpCap} scheduled ticks since ${since} were missed (the catch-up cap), so none was played and the campaign is paused at ${formatGameTime(state.clock)}. Choose with \`/campaign resume missed:\`: \`none\` (skip them; the clock goes on from the next scheduled time), \`one\` (play one now), or \`all\` (play every missed half period in order, each with the orders given). Players can give orders meanwhile.`,
      `catchUpPaused:${meta.id}:${dueIso}`, { due: dueIso, missedAtLeast: count, cap: catchUpCap });
    // The due time stays: it says where catching up would start.
    return { state: { ...state, status: 'paused' }, ...note, control: { remindAt: null }, result: { kind: 'pausedForCatchUp', missed: count } };
  }

  const battles = Object.values(state.contacts).filter((c) => c.step === 'battle');
  if (battles.length > 0) {
    if (held) return { result: { kind: 'held' } };
    const note = toReferees(tx, 'tickHeld', `The tick due ${since} (${formatGameTime(state.clock)}) waits for a battle result: ${battleNames(state)}. Record it with \`/battle result\`; the tick is played within a minute after. To play on regardless: \`/turn advance force:true\`.`,
      `battleHold:${meta.id}:${dueIso}`, { due: dueIso });
    return { ...note, control: { heldDue: dueIso }, result: { kind: 'held' } };
  }

  const policy = meta.catchUpAllowance > 0 ? 'allowed' : catchUp;
  // After a held battle or catching up with one ('one', or the last allowed), the schedule goes on from now.
  const fromNow = held || (downtime && (policy === 'one' || meta.catchUpAllowance === 1));
  const skipped = downtime && policy === 'one' ? count - 1 : 0;
  const notes = skipped > 0
    ? toReferees(tx, 'ticksMissed', `The bot was not running: ${count} scheduled tick(s) since ${since} were missed. Catch-up policy \`one\`: played one (${formatGameTime(state.clock)}) and skipped ${skipped}. Next tick ${laterText}. (Change it with \`/campaign settings catch-up:\`.)`,
      `catchUp:${meta.id}:${dueIso}`, { due: dueIso, missed: skipped, policy: 'one', next: later })
    : { events: [], outbox: [] };
  const play = tickChange(tx, early && !downtime && !held ? { early: true } : fromNow ? {} : { scheduledFor: due });
  if (!play.result.played) return { result: { kind: play.result.reason === 'alreadyPlayed' ? 'alreadyPlayed' : 'notRunning' } };
  return {
    ...play,
    // The referee hears of the skipped ticks in their own message (logged with the tick).
    events: [...notes.events, ...(play.events ?? [])],
    outbox: [...(play.outbox ?? []), ...notes.outbox],
    control: { ...play.control, ...(meta.catchUpAllowance > 0 ? { catchUpAllowance: downtime ? meta.catchUpAllowance - 1 : 0 } : {}) },
    result: { kind: 'played', outcome: play.result, ...(skipped > 0 ? { missed: skipped } : {}) },
  };
}

/**
 * The scheduler's attempt at the tick due at `dueIso`, in ONE transaction: a doubled trigger or a
 * second process finds the due time moved on (stale) and does nothing; otherwise the catch-up
 * policy and a pending battle are decided and the tick played, all with the state read once.
 * @see RULINGS 8 The clock after an outage
 */
export function playDueTick(app: App, campaignId: string, dueIso: string): DueTick {
  return withInvocation({ kind: 'dueTick', campaignId, dueIso }, () => inCampaign<DueTick>(app, { campaignId }, (tx) => decide(tx, dueIso)));
}

/** A running campaign without a due time (e.g. from before the scheduler): scheduled from now. */
export function scheduleMissing(app: App, campaignId: string): void {
  inCampaign(app, { campaignId }, (tx) => {
    if (tx.meta.nextTickAt !== null || tx.state.status !== 'running') return { result: undefined };
    return { control: deadlineControl(scheduleFromNow(tx.state.settings, tx.now, tx.meta.lastTickAt).at.toISOString(), reminderSettings(tx, tx.state.settings)), result: undefined };
  });
}
