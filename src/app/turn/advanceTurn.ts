import { formatGameTime, timeIndex } from '../../engine/clock/gameTime.js';
import { REFEREE } from '../../engine/events/events.js';
import { resolveTick } from '../../engine/tick/resolveTick.js';
import { TICK_PLAN } from '../../engine/tick/plan.js';
import { setSchedule } from '../../db/campaignRepo.js';
import { lastEventId } from '../../db/eventRepo.js';
import { recordTick } from '../../db/tickRepo.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { gameTimeLabel } from '../format.js';
import { reply, type Message } from '../messages.js';
import { nextDue } from '../schedule.js';
import { campaignInChannel, inCampaign, requireReferee, routeEvents } from '../session.js';
import { postSnapshot } from '../map/postSnapshot.js';
import { postSketches } from '../reconnaissance/postSketches.js';
import { contactPromptEvents } from '../contact/contactCommon.js';

export interface TickOutcome {
  readonly played: boolean;
  /** Why the tick did not run. */
  readonly reason?: 'alreadyPlayed' | 'battlePending' | 'notRunning';
  readonly from?: string;
  readonly to?: string;
  readonly messages: readonly Message[];
}

/**
 * Plays one half period of a campaign in one transaction: every order resolves at once, weather
 * and contacts follow, the chronicle and each commander's outcome are queued for delivery.
 * Idempotent: a half period already played is not played again.
 */
export function playTick(app: App, target: { actor: Actor } | { campaignId: string }, opts: { force?: boolean; scheduledFor?: Date } = {}): TickOutcome {
  return inCampaign<TickOutcome>(app, target, (tx) => {
    if (tx.actor) requireReferee(tx, 'advance the turn');
    const s = tx.state;
    if (s.status === 'setup' || s.status === 'ended') {
      if (tx.actor) throw new UserError('turn.notRunning', `The campaign is ${s.status}; ${s.status === 'setup' ? 'start it with `/campaign start` first' : 'it cannot advance'}.`);
      return { result: { played: false, reason: 'notRunning', messages: [] } };
    }
    const battles = Object.values(s.contacts).filter((c) => c.step === 'battle');
    if (battles.length > 0 && !opts.force) {
      const names = battles.map((c) => c.armyIds.map((id) => s.armies[id]?.name ?? id).join(' vs ')).join('; ');
      if (tx.actor) throw new UserError('turn.battlePending', `A battle is waiting for its result (${names}). Record it with \`/battle result\`, or force the turn with \`/turn advance force:true\`.`);
      return { result: { played: false, reason: 'battlePending', messages: [] } };
    }
    if (!recordTick(tx.db, tx.meta.id, timeIndex(s.clock), s, lastEventId(tx.db, tx.meta.id), tx.now.toISOString())) {
      return { result: { played: false, reason: 'alreadyPlayed', messages: [reply(`${formatGameTime(s.clock)} was already played.`, { clock: s.clock, alreadyPlayed: true })] } };
    }
    const out = resolveTick(s, tx.map, tx.dice, TICK_PLAN);
    const next = out.state;
    const header = `**${gameTimeLabel(s)} → ${formatGameTime(next.clock)}**`;
    // New contacts and contacts that reached a new step ask their commanders by DM (with buttons).
    const prompts = contactPromptEvents(s, next, tx.map);
    const forced = opts.force && battles.length > 0 ? [{ type: 'turnForced', audience: REFEREE, text: `Turn forced past ${battles.length} unresolved battle(s).` }] : [];
    const events = [...forced, ...out.events, ...prompts];
    const outbox = routeEvents({ ...tx, state: next }, events, { header });
    if (s.status === 'running') {
      const base = opts.scheduledFor ?? tx.now;
      setSchedule(tx.db, tx.meta.id, nextDue(s.settings.cadence, s.settings.timezone, base).toISOString(), null);
    }
    const summary = `Played ${formatGameTime(s.clock)}; now ${formatGameTime(next.clock)}.`;
    return {
      state: next,
      events,
      outbox,
      result: { played: true, from: formatGameTime(s.clock), to: formatGameTime(next.clock), messages: [reply(summary, { from: s.clock, to: next.clock, events: events.filter((e) => e.audience.kind === 'public').map((e) => e.text) })] },
    };
  });
}

/**
 * What follows a played tick once it has committed (rendering is async, transactions are not):
 * the new public map for the channel, and the battlefield sketches of contacts that reached the
 * engage-or-evade decision or a battle. Neither throws; a failure is logged.
 */
export async function afterTick(app: App, campaignId: string, outcome: TickOutcome): Promise<void> {
  if (!outcome.played) return;
  await postSnapshot(app, campaignId, `Map after ${outcome.from ?? 'the tick'}`);
  await postSketches(app, campaignId);
}

/** Referee: `/turn advance` — plays the current half period now, then posts the new map. */
export async function advanceTurn(app: App, actor: Actor, force: boolean): Promise<Message[]> {
  const outcome = playTick(app, { actor }, { force });
  if (outcome.played) await afterTick(app, campaignInChannel(app, actor).id, outcome);
  return [...outcome.messages];
}
