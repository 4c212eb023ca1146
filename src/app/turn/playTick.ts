import { formatGameTime, timeIndex } from '../../engine/clock/index.js';
import { REFEREE } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { RefusalCode } from '../../engine/refusalCodes.js';
import { sameJson } from '../../engine/replay/index.js';
import { followingPlans, resolveTick, TICK_PLAN } from '../../engine/tick/index.js';
import { planFollowers } from '../army/planFollowers.js';
import { isFog } from '../../engine/knowledge/index.js';
import { everyPositionView, type MapView, publicMapView } from '../../engine/views/index.js';
import { describeSky } from '../../engine/weather/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { deliver, OPEN, places, type AudienceTx } from '../deliveries/audience.js';
import { deliveries } from '../deliveries/contactPrompts.js';
import { startDicePeriod } from '../dice/seeds.js';
import { manualDiceAfterTick } from '../dice/tickDice.js';
import { UserError } from '../errors.js';
import { gameTimeLabel } from '../format.js';
import { waitingLine } from '../referee/inbox.js';
import { reply, type Picture, type Reply } from '../messages.js';
import { paintEarly } from '../pictures.js';
import { deadlineControl, nextTickText, scheduleAfter, scheduleFromNow } from '../schedule.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { Outgoing } from '../deliveries/outgoing.js';
import { noticeBook, reminderSettings } from '../notices.js';
import { countAbsence } from '../table/absence.js';

/** What playing (or trying to play) one half period did. */
export interface TickOutcome {
  readonly played: boolean;
  /** Why the tick did not run, and the sentence that says it. */
  readonly reason?: 'alreadyPlayed' | 'battlePending' | 'notRunning';
  readonly why?: string;
  readonly from?: string;
  readonly to?: string;
  readonly replies: readonly Reply[];
}

const HALF_NAMES = ['morning', 'afternoon', 'evening', 'night'] as const;

export function battleNames(state: CampaignState): string {
  return Object.values(state.contacts).filter((c) => c.step === 'battle')
    .map((c) => c.armyIds.map((id) => state.armies[id]?.name ?? id).join(' vs ')).join('; ');
}

/**
 * The public map after a tick, as a channel post carrying the view to draw; when nothing on the
 * public map changed (nobody moved, no marker came or went), a line saying so instead of the
 * same picture again; in fog of war (a map with no army) a line saying where to look instead.
 */
function mapPost(tx: AudienceTx, before: CampaignState, playedLabel: string, everyPosition: MapView): Outgoing[] {
  const state = tx.state;
  const name = `map-day${state.clock.day}-${HALF_NAMES[state.clock.half]}.png`;
  // In fog of war the public map shows no army: whether anything moved is not said.
  if (isFog(state)) {
    return deliver(tx, 'channel', OPEN, { content: `Fog of war: the public map shows no army. \`/map view:mine\` shows what your armies know after ${playedLabel}.`, data: { map: name, drawn: false } });
  }
  // What the public map shows of the armies (where, and the public markers), before and after:
  // compared as their JSON, walked until the first difference; the view after is the one drawn
  // (out of fog, the public view is every position: the tick's frame, made once).
  const view = everyPosition;
  if (sameJson(publicMapView(before).tokens, view.tokens)) {
    return deliver(tx, 'channel', OPEN, { content: `Nothing moved on the map in ${playedLabel}: the last map still stands (\`/map\` draws it again).`, data: { map: name, drawn: false } });
  }
  // The public map places every army.
  return deliver(tx, 'channel', places(Object.keys(state.armies)), {
    content: `Map after ${playedLabel}`,
    data: { map: name },
    pictures: [{
      kind: 'map',
      name,
      view,
      options: { title: { campaign: state.name, time: gameTimeLabel(state), weather: describeSky(state.weather) }, hexIds: 'subset' },
    }],
  });
}

export interface PlayOptions {
  /** Play past unresolved battles (the referee's `force:true`). */
  readonly force?: boolean;
  /** The scheduled instant this tick is played for: the next one is counted from it (catch-up); else from now. */
  readonly scheduledFor?: Date;
  /**
   * An early tick (everyone was ready): the next one is the first scheduled instant at least the
   * setting `earlyTickGapMinutes` from now.
   */
  readonly early?: boolean;
  /**
   * Handed the tick's pictures (its public map) as soon as they are decided, right after the engine
   * played the half period: the caller starts drawing them (src/app/pictures.ts paintEarly) while
   * this thread works out everyone's reports and then writes. A hint only: what the tick returns is
   * the same with or without it.
   */
  readonly drawSoon?: (pictures: readonly Picture[]) => void;
}

/**
 * Everything playing the current half period changes, as one Change: every order resolves at
 * once, weather and contacts follow; the chronicle, each commander's outcome, contact prompts
 * and sketches, and the new public map (as a picture to draw) are queued; the tick is recorded
 * with the state before it (undo); the next deadline is scheduled. A refusal (not running, a
 * battle waiting, already played) is a result with its sentence, or a UserError for a person.
 */
export function tickChange(tx: CampaignTx, opts: PlayOptions = {}): Change<TickOutcome> {
  const s = tx.state;
  const refuse = (reason: NonNullable<TickOutcome['reason']>, code: RefusalCode, why: string): Change<TickOutcome> => {
    if (tx.actor) throw new UserError(code, why);
    return { result: { played: false, reason, why, replies: [] } };
  };
  // The referee may play a paused campaign by hand; the clock (and the console's !tick) may not.
  if (s.status === 'setup' || s.status === 'ended' || (s.status === 'paused' && !tx.actor)) {
    const what = s.status === 'setup' ? 'has not started: start it with `/campaign start` first'
      : s.status === 'paused' ? 'is paused: `/campaign resume` restarts the clock (the referee may also play one half period by hand with `/turn advance`)'
        : 'has ended';
    return refuse('notRunning', 'turn.notRunning', `The campaign ${what}.`);
  }
  const battles = Object.values(s.contacts).filter((c) => c.step === 'battle');
  if (battles.length > 0 && !opts.force) {
    return refuse('battlePending', 'turn.battlePending', `A battle is waiting for its result (${battleNames(s)}). Record it with \`/battle result\`, or force the turn with \`/turn advance force:true\`.`);
  }
  const index = timeIndex(s.clock);
  if (tx.read.tickPlayed(index)) {
    return { result: { played: false, reason: 'alreadyPlayed', why: `${formatGameTime(s.clock)} was already played.`, replies: [reply(`${formatGameTime(s.clock)} was already played.`, { clock: s.clock, alreadyPlayed: true })] } };
  }
  // A new dice period: the last one's seed is revealed, this tick's committed seed comes into use.
  const diceLines = startDicePeriod(tx.dice, tx.seeds, 'the next tick');
  // Armies nobody commands (or under standing orders) follow their plans.
  // Who was absent this half period: an army past `absent-after` is under standing orders.
  const absence = countAbsence(tx, s);
  const out = resolveTick(absence.state, tx.map, tx.dice, followingPlans(TICK_PLAN, planFollowers({ ...tx, state: absence.state })));
  const next = { ...out.state, manualDice: manualDiceAfterTick({ ...out.state, rng: tx.dice.state() }, tx.map, tx.dice) };
  const playedLabel = formatGameTime(s.clock);
  // The public map is decided with the state: on an 800-army map the reports below take 85-130 ms
  // (load 1.5), time the render thread can spend drawing it.
  const everyPosition = everyPositionView(next);
  const map = mapPost({ ...tx, state: next }, s, playedLabel, everyPosition);
  if (opts.drawSoon) for (const o of map) if (o.pictures) opts.drawSoon(o.pictures);
  const header = `**${gameTimeLabel(s)} → ${formatGameTime(next.clock)}**`;
  const forced = opts.force && battles.length > 0 ? [{ type: 'turnForced', audience: REFEREE, text: `Turn forced past ${battles.length} unresolved battle(s).` }] : [];
  // The chronicle ends with the dice: the seed just revealed, and the commitment to the next.
  const settings = s.settings;
  const scheduled = opts.early ? scheduleAfter(settings, new Date(tx.now.getTime() + settings.earlyTickGapMinutes * 60_000))
    : opts.scheduledFor ? scheduleAfter(settings, opts.scheduledFor) : scheduleFromNow(settings, tx.now, tx.meta.lastTickAt);
  const due = scheduled.at;
  const nextTick = s.status === 'running' ? nextTickText(scheduled, settings) : 'not scheduled (the campaign is paused)';
  // The referee hears of what waits on them only when it is new (a contact still waiting, a
  // standoff's next round, is not): the rest stays in \`/referee inbox\`.
  const waiting = waitingLine({ ...tx, state: next }, tx);
  const notices = noticeBook(tx);
  const d = deliveries(tx, s, next, [...forced, ...absence.events, ...out.events, ...diceLines], header, {
    chronicleFields: [{ name: 'Next tick', value: nextTick }],
    ...(waiting ? { refereeFields: [{ name: 'Waiting on you', value: waiting }] } : {}),
    // Each commander's own report of the tick, as they chose with \`/notify\`.
    tickReport: { choice: (userId) => notices.of(userId).tickReport, where: (armyId) => (next.armies[armyId] ? tx.map.format(next.armies[armyId].hex) : '?') },
  });
  const summary = `Played ${playedLabel}; now ${formatGameTime(next.clock)}.`;
  return {
    state: next,
    events: d.events,
    outbox: [...d.outbox, ...map],
    tick: { timeIndex: index, before: s, frame: { view: everyPosition, fog: isFog(next) } },
    control: {
      ...(s.status === 'running' ? deadlineControl(due.toISOString(), reminderSettings(tx, settings)) : {}),
      heldDue: null,
      ready: [],
      reminded: [],
      earlyFrom: null,
      lastTickAt: tx.now.toISOString(),
    },
    result: {
      played: true, from: playedLabel, to: formatGameTime(next.clock),
      replies: [reply(summary, { from: s.clock, to: next.clock, events: d.events.filter((e) => e.audience.kind === 'public').map((e) => e.text) })],
    },
  };
}

/**
 * Plays the current half period now, in one transaction: the referee's `/turn advance` (with an
 * actor) or the console's `!tick` (by campaign, as the scheduler would: a paused campaign does
 * not tick). Idempotent: a half period already played is not played again.
 */
export function playTick(app: App, target: { actor: Actor } | { campaignId: string }, opts: PlayOptions = {}): TickOutcome {
  return inCampaign<TickOutcome>(app, target, (tx) => {
    if (tx.actor) requireReferee(tx, 'advance the turn');
    return tickChange(tx, { ...opts, drawSoon: (pictures) => paintEarly(app, tx.meta.id, pictures) });
  }, { mayTick: true });
}
