import { fogFalls, isFog } from '../../engine/knowledge/index.js';
import { formatGameTime } from '../../engine/clock/index.js';
import { escapeName, literal, PUBLIC } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { requireChannelPermissions, type Actor } from '../actor.js';
import type { App } from '../app.js';
import { deliver, OPEN } from '../deliveries/audience.js';
import { startDms } from '../deliveries/dmTest.js';
import { UserError } from '../errors.js';
import { codeSpan, discordTime } from '../format.js';
import { reply, type Reply } from '../messages.js';
import { deadlineControl, nextTickText, parseUntil, scheduleFromNow } from '../schedule.js';
import { countDue } from '../scheduler/countDue.js';
import { revealMasterEvent } from '../dice/seeds.js';
import { heldByChannelFault, sendAgain } from '../referee/heldMessages.js';
import { withOwnInvocation } from '../journal/invocation.js';
import { forgetCampaign } from '../statics.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import { reminderSettings } from '../notices.js';

/** What to do with the half periods a catch-up pause left unplayed. @see RULINGS 8 */
const MISSED = ['none', 'one', 'all'] as const;

/** The past-tense event each status change logs. */
const EVENT_OF = { start: 'campaignStarted', pause: 'campaignPaused', resume: 'campaignResumed' } as const;

type Target = { actor: Actor } | { campaignId: string };

/** The longest pause with an end (`/campaign pause until:`), in days. */
const MAX_PAUSE_DAYS = 90;
/** The longest reason a pause may give, in characters. */
const MAX_REASON = 200;

function setStatus(app: App, target: Target, to: CampaignState['status'], allowedFrom: readonly CampaignState['status'][], verb: keyof typeof EVENT_OF, decide?: (tx: CampaignTx) => Partial<Change<Reply[]>> & { note?: string }, announce = false): Reply[] {
  return inCampaign(app, target, (tx) => {
    requireReferee(tx, `${verb} the campaign`);
    if (!allowedFrom.includes(tx.state.status)) {
      throw new UserError('campaign.badStatus', `The campaign is ${tx.state.status}; it can only be ${verb === 'start' ? 'started' : `${verb}d`} when it is ${allowedFrom.join(' or ')}.`);
    }
    const custom = decide?.(tx);
    const state = { ...(custom?.state ?? tx.state), status: to };
    let control = custom?.control;
    let when = '';
    if (to === 'running') {
      const scheduled = scheduleFromNow(state.settings, tx.now, tx.meta.lastTickAt);
      control ??= deadlineControl(scheduled.at.toISOString(), reminderSettings(tx, state.settings));
      const due = control.nextTickAt ?? tx.meta.nextTickAt;
      if (due) when = Date.parse(due) <= tx.now.getTime() ? ' The missed half periods are played now.' : ` Next tick ${nextTickText(due === scheduled.at.toISOString() ? scheduled : due, state.settings)}.`;
      // A pause with an end is over once the campaign runs again.
      control = { ...control, resumeAt: null, pauseReason: null };
    } else {
      control ??= { nextTickAt: null, remindAt: null };
      control = { ...control, earlyFrom: null };
    }
    const text = { running: verb === 'start' ? 'The campaign has started.' : 'The campaign resumes.', paused: 'The campaign is paused by the referee.', setup: '', ended: 'The campaign has ended.' }[to] + (custom?.note ?? '') + when;
    // At the start every commander is sent a DM: a closed DM shows now, not at the first secret.
    const outbox = [...(announce ? deliver(tx, 'channel', OPEN, { content: text, data: { type: EVENT_OF[verb], status: to } }) : []), ...(custom?.outbox ?? []), ...(verb === 'start' ? startDms(tx, state) : [])];
    return {
      state, control, events: [{ type: EVENT_OF[verb], audience: PUBLIC, text }],
      ...(outbox.length > 0 ? { outbox } : {}),
      ...(custom?.readMessages ? { readMessages: custom.readMessages } : {}),
      result: [reply(text, { status: to })],
    };
  });
}

/**
 * Referee: the campaign starts. In fog of war, fog falls at the start whenever it was switched on
 * before: every army knows the others where they stand as the campaign begins, set-up placements
 * by the referee (`/army edit hex:` before the start) included, not where the scenario first put
 * them. The texts make every commander's position public (000 Strategic Movement; RULINGS 6), and
 * the starting positions are the scenario's, read by everyone; fog hides what happens from the
 * start on (a placement after the start stays the referee's). @see docs/rulings.md (Fog of war)
 */
export function startCampaign(app: App, actor: Actor): Reply[] {
  requireChannelPermissions(actor, '/campaign start');
  return setStatus(app, { actor }, 'running', ['setup'], 'start', (tx) => (isFog(tx.state) ? { state: { ...tx.state, knowledge: fogFalls(tx.state) } } : {}));
}
/**
 * Referee: stops the clock, announced. With `until`, the pause ends by itself at that time (at
 * most 90 days ahead; the scheduler resumes it); `reason` is said in the announcement and in
 * `/turn status` while the pause lasts.
 */
export function pauseCampaign(app: App, actor: Actor, opts: { until?: string | undefined; reason?: string | undefined } = {}): Reply[] {
  return setStatus(app, { actor }, 'paused', ['running'], 'pause', (tx) => {
    const reason = opts.reason?.trim() ?? '';
    if (reason.length > MAX_REASON) throw new UserError('campaign.pauseReason', `A pause's reason is at most ${MAX_REASON} characters (this one has ${reason.length}); say it in short, e.g. \`reason:"holidays"\`.`);
    const until = opts.until !== undefined ? parseUntil(opts.until, tx.state.settings.timezone, tx.now, MAX_PAUSE_DAYS, 'campaign.pauseUntil') : undefined;
    const at = until?.toISOString();
    const note = `${reason !== '' ? ` Reason: ${literal(reason)}.` : ''}${at ? ` It resumes by itself ${discordTime(at)} (${discordTime(at, 'R')}); \`/campaign resume\` ends it sooner.` : ''}`;
    return { control: { nextTickAt: null, remindAt: null, resumeAt: at ?? null, pauseReason: reason !== '' ? reason : null }, note };
  });
}

/**
 * The scheduler: a referee's pause whose `until:` has come ends, announced in the channel; the
 * clock goes on from the next scheduled time. Nothing when the campaign is no longer paused (or
 * was resumed by hand meanwhile).
 */
export function resumeWhenPauseEnds(app: App, campaignId: string): Reply[] {
  // The scheduler's own change: journalled as such, so that replay runs it too (docs/replay.md).
  return withOwnInvocation({ kind: 'pauseEnded', campaignId }, () => setStatus(app, { campaignId }, 'running', ['paused'], 'resume', (tx) => {
    const end = tx.meta.resumeAt;
    if (end === null || Date.parse(end) > tx.now.getTime()) throw new UserError('campaign.pauseNotOver', 'The pause has not ended.');
    return { note: ` The pause${tx.meta.pauseReason ? ` (${literal(tx.meta.pauseReason)})` : ''} has ended.` };
  }, true));
}

/**
 * Referee: restarts the clock. After a catch-up pause (more missed half periods than the cap),
 * `missed` says what becomes of them: `none` skips them (the clock goes on from the next
 * scheduled time), `one` plays one now, `all` plays every one in order.
 */
export function resumeCampaign(app: App, actor: Actor, missed?: string): Reply[] {
  requireChannelPermissions(actor, '/campaign resume');
  return resume(app, { actor }, missed);
}

/**
 * Resumes a campaign by id: the referee inbox's button after a catch-up pause (the presser was
 * checked to be a referee).
 */
export function resumeCampaignById(app: App, campaignId: string, missed: string): Reply[] {
  return resume(app, { campaignId }, missed);
}

function resume(app: App, target: Target, missed?: string): Reply[] {
  if (missed !== undefined && !(MISSED as readonly string[]).includes(missed)) throw new UserError('campaign.badMissed', '`missed:` takes `none` (skip the missed half periods), `one` (play one now) or `all` (play them all, in order).');
  return setStatus(app, target, 'running', ['paused'], 'resume', (tx) => {
    const catchUp = catchUpOf(tx, missed);
    // What a fault of the channel held (the pause said so) goes out again, in its first order, before the missed ticks' posts.
    const held = heldByChannelFault(tx);
    if (held.length === 0) return catchUp;
    const note = ` ${held.length === 1 ? 'The post' : `The ${held.length} posts`} the channel's fault held ${held.length === 1 ? 'is' : 'are'} sent again.${catchUp.note ?? ''}`;
    return { ...catchUp, note, outbox: held.flatMap((row) => sendAgain(tx, row)), readMessages: held.map((row) => row.id) };
  });
}

/** What becomes of the half periods missed while paused (a catch-up pause), as the referee said. */
function catchUpOf(tx: CampaignTx, missed: string | undefined): Partial<Change<Reply[]>> & { note?: string } {
  const due = tx.meta.nextTickAt;
  // A catch-up pause keeps the due time it stopped at; a referee's pause clears it.
  if (due === null || Date.parse(due) > tx.now.getTime()) return {};
  const { cadence, timezone } = tx.state.settings;
  const { count } = countDue(cadence, timezone, new Date(due), tx.now);
  if (missed === undefined) {
    throw new UserError('campaign.missedTicks', `${count} scheduled half periods were missed while the bot was down (since ${discordTime(due)}). Say what to do with them: \`/campaign resume missed:none\` (skip them), \`missed:one\` (play one now) or \`missed:all\` (play all ${count} in order).`, { missed: count });
  }
  if (missed === 'none') return { note: ` The ${count} missed half periods are skipped; the game goes on from ${formatGameTime(tx.state.clock)}.` };
  return { control: { nextTickAt: due, catchUpAllowance: missed === 'one' ? 1 : count, remindAt: null }, note: missed === 'one' ? ' One missed half period is played now; the rest are skipped.' : ` The ${count} missed half periods are played now, in order.` };
}

/** What the end's answer adds (not logged): what may still be read of the campaign here, and until when. */
const AFTER_THE_END = 'Each commander can now take their own campaign book with `/campaign export format:markdown`; the export, the books, `/campaign timelapse`, `/campaign status` and `/dice verify` (every die now) stay available in this channel until a new campaign is created in it.';

/**
 * Referee: ends the campaign for good (`confirm` repeats its name): no more ticks or orders, the
 * channel is free for a new one, and the secret master of its dice is revealed in the answer (which
 * the channel sees) and the log, so anyone can check every secret die by hand.
 * @see docs/dice.md
 */
export function endCampaign(app: App, actor: Actor, confirm: string | undefined): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'end the campaign');
    if (tx.state.status === 'setup') throw new UserError('campaign.badStatus', 'The campaign has not started: `/campaign delete` removes it instead.');
    if ((confirm ?? '').trim() !== tx.state.name) {
      throw new UserError('campaign.confirmEnd', `Ending stops the campaign for good (no more ticks or orders) and reveals its secret dice. To confirm, repeat its name: ${codeSpan(`/campaign end confirm:"${tx.state.name}"`)}.`);
    }
    const events = [{ type: 'campaignEnded', audience: PUBLIC, text: `The campaign **${escapeName(tx.state.name)}** has ended at ${formatGameTime(tx.state.clock)}.` }, ...revealMasterEvent(tx.state.rng)];
    return {
      state: { ...tx.state, status: 'ended' },
      control: { nextTickAt: null, remindAt: null },
      events,
      result: [reply([...events.map((e) => e.text), AFTER_THE_END].join('\n'), { status: 'ended', ...(tx.state.rng.secret ? { master: tx.state.rng.secret.master } : {}) })],
    };
  });
}

/** Referee: deletes the campaign of this channel. Requires `confirm` to be the campaign's name. */
export function deleteCampaign(app: App, actor: Actor, confirm: string | undefined): Reply[] {
  let id = '';
  const name = inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'delete the campaign');
    if ((confirm ?? '').trim() !== tx.state.name) {
      throw new UserError('campaign.confirmDelete', `Deleting removes the whole campaign and its log; \`/campaign export\` first keeps a copy. To confirm, repeat its name: ${codeSpan(`/campaign delete confirm:"${tx.state.name}"`)}.`);
    }
    id = tx.meta.id;
    return { deleted: true, result: tx.state.name };
  });
  forgetCampaign(app, id);
  return [reply(`The campaign **${escapeName(name)}** was deleted.`, { deleted: id })];
}
