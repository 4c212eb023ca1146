import { formatGameTime } from '../../engine/clock/index.js';
import { type EngineEvent, escapeName, REFEREE } from '../../engine/events/index.js';
import type { App } from '../app.js';
import { discordTime } from '../format.js';
import { deliver, REFEREE_ONLY } from '../deliveries/audience.js';
import { refereeIds } from '../referees.js';
import { deadlineControl, nextTickText, scheduleFromNow } from '../schedule.js';
import { withInvocation, withOwnInvocation } from '../journal/invocation.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { Outgoing } from '../deliveries/outgoing.js';
import { battleNames, tickChange, type PlayOptions, type TickOutcome } from '../turn/playTick.js';
import { paintEarly } from '../pictures.js';
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

/** Why ticks were missed, as the referee is told: the bot down, or up without its campaign store (PostgreSQL). */
const NO_TICKS = 'No tick could be played for a while (the bot was down, or could not reach its campaign store)';

/** A referee message, once per key (its dedupe key), with its log line. */
function toReferees(tx: CampaignTx, type: string, text: string, key: string, data: Record<string, unknown>): { events: EngineEvent[]; outbox: Outgoing[] } {
  return {
    events: [{ type, audience: REFEREE, text, data }],
    outbox: refereeIds(tx.meta, tx.members).flatMap((userId) => deliver(tx, { user: userId }, REFEREE_ONLY, { content: `**Referee** (${escapeName(tx.state.name)})\n${text}`, data: { type, ...data }, dedupeKey: `${key}:${userId}` })),
  };
}

/** Why a due tick is not for this attempt: the due time moved on, the campaign stopped, or the clock went back. */
function notPlayable(tx: CampaignTx, dueIso: string): DueTick | undefined {
  const { meta, state, now } = tx;
  if (meta.nextTickAt !== dueIso) return { kind: 'stale' };
  if (state.status !== 'running') return { kind: 'notRunning' };
  // A clock that went backwards (before the last tick's run) plays nothing until it has caught up.
  if (meta.lastTickAt !== null && Date.parse(meta.lastTickAt) > now.getTime()) return { kind: 'clockBehind' };
  return undefined;
}

/** What a playable due tick meets: the scheduled instants passed since it, a battle hold, the next time from now. */
interface DueSituation {
  readonly dueIso: string;
  readonly due: Date;
  /** How many scheduled instants have passed (counting a long downtime only as far as the policy needs). */
  readonly count: number;
  readonly held: boolean;
  /** An early tick (everyone ready) stands in for the scheduled one: downtime counts from that. */
  readonly early: boolean;
  /** More than one scheduled instant has passed: the bot was down (a battle hold is not downtime). */
  readonly downtime: boolean;
  readonly later: string;
  readonly laterText: string;
  readonly since: string;
}

function situation(tx: CampaignTx, dueIso: string): DueSituation {
  const { meta, state, now } = tx;
  const { cadence, timezone } = state.settings;
  const due = new Date(dueIso);
  const held = meta.heldDue === dueIso;
  const early = meta.earlyFrom !== null;
  const { count } = countDue(cadence, timezone, early ? new Date(meta.earlyFrom ?? dueIso) : due, now, countLimit(tx));
  const laterTick = scheduleFromNow(state.settings, now, meta.lastTickAt);
  return {
    dueIso, due, count, held, early, downtime: count > 1 && !held,
    later: laterTick.at.toISOString(), laterText: nextTickText(laterTick, state.settings), since: discordTime(dueIso),
  };
}

/** How far counting missed instants needs to go: past 1 with an allowance, past the cap for `all`, all of them for the rest. */
function countLimit(tx: CampaignTx): number | undefined {
  if (tx.meta.catchUpAllowance > 0) return 2;
  const { catchUp, catchUpCap } = tx.state.settings;
  return catchUp === 'all' ? catchUpCap + 1 : undefined;
}

/** Policy `none` after downtime: no tick played, the referee told, the schedule going on from now. */
function passOver(tx: CampaignTx, s: DueSituation): Change<DueTick> | undefined {
  const { meta, state } = tx;
  if (!s.downtime || meta.catchUpAllowance !== 0 || state.settings.catchUp !== 'none') return undefined;
  const note = toReferees(tx, 'ticksMissed', `${NO_TICKS}: ${s.count} scheduled tick(s) since ${s.since} were missed. Catch-up policy \`none\`: none was played; the game stays at ${formatGameTime(state.clock)}. Next tick ${s.laterText}. (Change it with \`/campaign settings catch-up:\`.)`,
    `catchUp:${meta.id}:${s.dueIso}`, { due: s.dueIso, missed: s.count, policy: 'none', next: s.later });
  return { ...note, control: { ...deadlineControl(s.later, reminderSettings(tx, state.settings)), ready: [], reminded: [] }, result: { kind: 'passedOver', missed: s.count } };
}

/** Policy `all` with more missed than the cap: the campaign paused until the referee chooses with `/campaign resume missed:`. */
function pauseForCatchUp(tx: CampaignTx, s: DueSituation): Change<DueTick> | undefined {
  const { meta, state } = tx;
  const { catchUp, catchUpCap } = state.settings;
  if (!s.downtime || meta.catchUpAllowance !== 0 || catchUp !== 'all' || s.count <= catchUpCap) return undefined;
  const note = toReferees(tx, 'catchUpPaused', `${NO_TICKS}: more than ${catchUpCap} scheduled ticks since ${s.since} were missed (the catch-up cap), so none was played and the campaign is paused at ${formatGameTime(state.clock)}. Choose with \`/campaign resume missed:\`: \`none\` (skip them; the clock goes on from the next scheduled time), \`one\` (play one now), or \`all\` (play every missed half period in order, each with the orders given). Players can give orders meanwhile.`,
    `catchUpPaused:${meta.id}:${s.dueIso}`, { due: s.dueIso, missedAtLeast: s.count, cap: catchUpCap });
  // The due time stays: it says where catching up would start.
  return { state: { ...state, status: 'paused' }, ...note, control: { remindAt: null }, result: { kind: 'pausedForCatchUp', missed: s.count } };
}

/** A battle waiting for its result holds the tick (the referee told once). */
function holdForBattle(tx: CampaignTx, s: DueSituation): Change<DueTick> | undefined {
  const { meta, state } = tx;
  if (!Object.values(state.contacts).some((c) => c.step === 'battle')) return undefined;
  if (s.held) return { result: { kind: 'held' } };
  const note = toReferees(tx, 'tickHeld', `The tick due ${s.since} (${formatGameTime(state.clock)}) waits for a battle result: ${battleNames(state)}. Record it with \`/battle result\`; the tick is played within a minute after. To play on regardless: \`/turn advance force:true\`.`,
    `battleHold:${meta.id}:${s.dueIso}`, { due: s.dueIso });
  return { ...note, control: { heldDue: s.dueIso }, result: { kind: 'held' } };
}

/** Policy `one` after downtime: the ticks skipped besides the one played, and the referee's note of them. */
function skippedTicks(tx: CampaignTx, s: DueSituation, policy: CatchUpPolicy): { skipped: number; notes: { events: EngineEvent[]; outbox: Outgoing[] } } {
  const skipped = s.downtime && policy === 'one' ? s.count - 1 : 0;
  if (skipped === 0) return { skipped, notes: { events: [], outbox: [] } };
  const notes = toReferees(tx, 'ticksMissed', `${NO_TICKS}: ${s.count} scheduled tick(s) since ${s.since} were missed. Catch-up policy \`one\`: played one (${formatGameTime(tx.state.clock)}) and skipped ${skipped}. Next tick ${s.laterText}. (Change it with \`/campaign settings catch-up:\`.)`,
    `catchUp:${tx.meta.id}:${s.dueIso}`, { due: s.dueIso, missed: skipped, policy: 'one', next: s.later });
  return { skipped, notes };
}

/** The settings' catch-up policy, or `allowed` while `/campaign resume missed:` has allowed ticks to play. */
type CatchUpPolicy = CampaignTx['state']['settings']['catchUp'] | 'allowed';

/** The tick played: on time, early, after a hold, or catching up (`one`, `all`, or an allowance from `/campaign resume`). */
function playCatchingUp(tx: CampaignTx, s: DueSituation, drawSoon: PlayOptions['drawSoon']): Change<DueTick> {
  const { meta } = tx;
  const policy: CatchUpPolicy = meta.catchUpAllowance > 0 ? 'allowed' : tx.state.settings.catchUp;
  // After a held battle or catching up with one ('one', or the last allowed), the schedule goes on from now.
  const fromNow = s.held || (s.downtime && (policy === 'one' || meta.catchUpAllowance === 1));
  const { skipped, notes } = skippedTicks(tx, s, policy);
  const play = tickChange(tx, { ...(s.early && !s.downtime && !s.held ? { early: true } : fromNow ? {} : { scheduledFor: s.due }), drawSoon });
  if (!play.result.played) return { result: { kind: play.result.reason === 'alreadyPlayed' ? 'alreadyPlayed' : 'notRunning' } };
  return {
    ...play,
    // The referee hears of the skipped ticks in their own message (logged with the tick).
    events: [...notes.events, ...(play.events ?? [])],
    outbox: [...(play.outbox ?? []), ...notes.outbox],
    control: { ...play.control, ...(meta.catchUpAllowance > 0 ? { catchUpAllowance: s.downtime ? meta.catchUpAllowance - 1 : 0 } : {}) },
    result: { kind: 'played', outcome: play.result, ...(skipped > 0 ? { missed: skipped } : {}) },
  };
}

/** The due tick's policies in order: not for this attempt, passed over, paused for catching up, held for a battle, played. */
function decide(tx: CampaignTx, dueIso: string, drawSoon: PlayOptions['drawSoon']): Change<DueTick> {
  const refused = notPlayable(tx, dueIso);
  if (refused) return { result: refused };
  const s = situation(tx, dueIso);
  return passOver(tx, s) ?? pauseForCatchUp(tx, s) ?? holdForBattle(tx, s) ?? playCatchingUp(tx, s, drawSoon);
}

/**
 * The scheduler's attempt at the tick due at `dueIso`, in ONE transaction: a doubled trigger or a
 * second process finds the due time moved on (stale) and does nothing; otherwise the catch-up
 * policy and a pending battle are decided and the tick played, all with the state read once.
 * @see RULINGS 8 The clock after an outage
 */
export function playDueTick(app: App, campaignId: string, dueIso: string): DueTick {
  return withInvocation({ kind: 'dueTick', campaignId, dueIso }, () => inCampaign<DueTick>(app, { campaignId }, (tx) => decide(tx, dueIso, (pictures) => paintEarly(app, campaignId, pictures)), { mayTick: true }));
}

/** A running campaign without a due time (e.g. from before the scheduler): scheduled from now. */
export function scheduleMissing(app: App, campaignId: string): void {
  // The due time it sets is what the next due tick's replay checks: journalled (docs/replay.md).
  withOwnInvocation({ kind: 'scheduleMissing', campaignId }, () => inCampaign(app, { campaignId }, (tx) => {
    if (tx.meta.nextTickAt !== null || tx.state.status !== 'running') return { result: undefined };
    return { control: deadlineControl(scheduleFromNow(tx.state.settings, tx.now, tx.meta.lastTickAt).at.toISOString(), reminderSettings(tx, tx.state.settings)), result: undefined };
  }));
}
