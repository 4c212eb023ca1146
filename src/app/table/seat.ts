import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { echo, escapeName, PUBLIC, REFEREE } from '../../engine/events/index.js';
import { isHostile, type Army, type ArmySeat } from '../../engine/forces/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy } from '../armies.js';
import { assignmentDm } from '../deliveries/dmTest.js';
import { UserError } from '../errors.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { armiesOf, commandersOf, memberName, shownName } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx, Change, MemberChange } from '../campaignTx.js';

/*
 * Substitutes (issue 27, item 3): the referee offers the seat of an army whose commander is
 * absent (under standing orders, or away) or that nobody commands; a player claims it with the
 * offer's button, or the referee names the substitute. The substitute commands that army until
 * the referee gives the seat back. What they read follows from commanding it: the army's own
 * `/intel`, its map and its DMs from then on, nothing of the previous commander's other armies.
 * @see docs/rulings.md (Substitutes)
 */

/** The custom id of an offer's Claim button: `seat:<campaignId>:<armyId>:<offer>`. */
const claimButtonId = (campaignId: string, armyId: string, offer: number): string => `seat:${campaignId}:${armyId}:${offer}`;

type SeatAction = 'offer' | 'withdraw' | 'give-back';
const ACTIONS: readonly SeatAction[] = ['offer', 'withdraw', 'give-back'];

/** The users' display names as messages write them (escaped), "A and B". */
const names = (tx: CampaignTx, users: readonly string[]): string => users.map((u) => shownName(tx, u)).join(' and ');
/** A seat's previous commanders as messages write them. */
const previousNames = (previous: readonly { readonly name: string }[]): string => previous.map((p) => escapeName(p.name)).join(' and ');

/** The seat without its offer. */
function withoutOffer(seat: ArmySeat | undefined): ArmySeat {
  const { offer: _offer, ...rest } = seat ?? { missed: 0 };
  return rest;
}

function withSeat(tx: CampaignTx, army: Army, seat: ArmySeat): Change<Reply[]>['state'] {
  return { ...tx.state, armies: { ...tx.state.armies, [army.id]: { ...army, seat } } };
}

/**
 * Whether the seat may be filled: the army is in the field, holds no substitute already, and its
 * commanders (if any) are absent: under standing orders, or away.
 */
function requireOpenSeat(tx: CampaignTx, army: Army): void {
  if (army.status.destroyed) throw new UserError('seat.destroyed', `${army.name} is destroyed: there is no seat to fill.`);
  const sub = army.seat?.substitute;
  if (sub) {
    throw new UserError('seat.taken', `${army.name} is already seated: ${shownName(tx, sub.userId)} holds it as substitute since ${formatGameTime(fromIndex(sub.since))}. The referee gives it back with \`/seat give-back army:${army.id}\` before offering it again.`);
  }
  const commanders = commandersOf(tx, army.id);
  if (commanders.length > 0 && army.seat?.standing !== true && army.seat?.awayUntil === undefined) {
    throw new UserError('seat.present', `${army.name} is already seated: ${names(tx, commanders)} commands it and is not absent. A seat can be offered when its commander is under standing orders (\`absent-after:\`), away (\`/away\`), or when nobody commands the army; to replace a commander outright use \`/campaign assign\`.`);
  }
}

/** A substitute may not already command an army of a side hostile to this army's side (`who`: 'You', or their name as written). */
function requireNotEnemy(tx: CampaignTx, army: Army, userId: string, who: string): void {
  const enemy = armiesOf(tx, userId).map((id) => tx.state.armies[id]).find((a) => a !== undefined && a.id !== army.id && !a.status.destroyed && isHostile(tx.state.sides, a.side, army.side));
  if (enemy) {
    throw new UserError('seat.enemy', `${who} already command${who === 'You' ? '' : 's'} ${enemy.name}, of a side hostile to ${army.name}'s: a substitute may only hold armies of their own side or of sides not at war with it. Offer the seat to someone else, or free ${enemy.name} first (\`/campaign assign army:${enemy.id} remove:true\`).`);
  }
}

/** Makes `userId` the army's commander as substitute: one transaction's change. */
function seatSubstitute(tx: CampaignTx, army: Army, userId: string, userName: string, how: string): Change<Reply[]> {
  // Kept as typed (they are given back as the members' names); escaped where a message writes them.
  const previous = commandersOf(tx, army.id).map((u) => ({ userId: u, name: memberName(tx, u) || u }));
  const since = timeIndex(tx.state.clock);
  // Standing orders go on until the substitute's first order (the absence rules then hand the army over).
  const seat: ArmySeat = { ...withoutOffer(army.seat), missed: 0, standing: true, substitute: { userId, since, previous } };
  const text = `${escapeName(userName)} takes the seat of **${army.name}** as substitute${previous.length > 0 ? ` for ${previousNames(previous)}` : ''}.`;
  const members: MemberChange[] = [{ kind: 'assign', armyId: army.id, userId, displayName: userName }];
  return {
    state: withSeat(tx, army, seat),
    members,
    events: [
      { type: 'seatTaken', audience: PUBLIC, text, data: { armyId: army.id, userId, how } },
      { type: 'seatTakenReferee', audience: REFEREE, text: `${text} \`/seat give-back army:${army.id}\` gives it back${previous.length > 0 ? ` to ${previousNames(previous)}` : ''}.`, data: { armyId: army.id, userId } },
    ],
    outbox: assignmentDm(tx, userId, army),
    result: [],
  };
}

/**
 * `/seat offer|withdraw|give-back` (referee): offers an army's seat with a Claim button, or
 * names the substitute at once (`user:`); withdraws an offer; or gives a substitute's seat back to
 * the commanders who held it before.
 */
export function campaignSeat(app: App, actor: Actor, input: { army: string | undefined; userId: string | undefined; userName: string | undefined; action: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'offer or give seats');
    const action = (input.action ?? 'offer') as SeatAction;
    if (!ACTIONS.includes(action)) throw new UserError('seat.action', `Unknown \`/seat\` subcommand ${echo(action)}: accepted are ${ACTIONS.join(', ')} and claim.`);
    const army = requireArmy(tx.state, input.army);
    if (action === 'withdraw') {
      if (army.seat?.offer === undefined) throw new UserError('seat.noOffer', `The seat of ${army.name} is not offered: there is nothing to withdraw.`);
      const text = `The offer of the seat of **${army.name}** is withdrawn.`;
      return { state: withSeat(tx, army, withoutOffer(army.seat)), events: [{ type: 'seatWithdrawn', audience: PUBLIC, text, data: { armyId: army.id } }], result: [reply(text, { armyId: army.id, offer: null })] };
    }
    if (action === 'give-back') {
      const sub = army.seat?.substitute;
      if (!sub) throw new UserError('seat.noSubstitute', `${army.name} has no substitute: \`/seat give-back\` returns a seat a substitute holds. To change its commander, use \`/campaign assign\`.`);
      const { substitute: _s, ...rest } = army.seat ?? { missed: 0 };
      const back = previousNames(sub.previous);
      const members: MemberChange[] = sub.previous.length > 0
        ? sub.previous.map((p) => ({ kind: 'assign', armyId: army.id, userId: p.userId, displayName: p.name }))
        : [{ kind: 'unassign', armyId: army.id }];
      // The commanders who come back were absent: standing orders until their next order.
      const text = `${shownName(tx, sub.userId)}'s time as substitute of **${army.name}** ends: ${sub.previous.length > 0 ? `the seat goes back to ${back}` : 'nobody commands it now'}.`;
      return {
        state: withSeat(tx, army, { ...rest, missed: 0, ...(sub.previous.length > 0 ? { standing: true } : {}) }),
        members,
        events: [{ type: 'seatGivenBack', audience: PUBLIC, text, data: { armyId: army.id, userId: sub.userId } }],
        outbox: sub.previous.flatMap((p) => assignmentDm(tx, p.userId, army)),
        result: [reply(text, { armyId: army.id, substitute: null })],
      };
    }
    requireOpenSeat(tx, army);
    if (input.userId) {
      const name = input.userName ?? input.userId;
      const shown = escapeName(name);
      if (commandersOf(tx, army.id).includes(input.userId)) throw new UserError('seat.own', `${shown} already commands ${army.name}: their next order takes it back from standing orders.`);
      requireNotEnemy(tx, army, input.userId, shown);
      const change = seatSubstitute(tx, army, input.userId, name, 'named');
      return { ...change, result: [reply(`${shown} now holds the seat of **${army.name}** (\`${army.id}\`) as substitute. They read only what this army knows (\`/intel army:${army.id}\`).`, { armyId: army.id, substitute: input.userId })] };
    }
    if (army.seat?.offer !== undefined) throw new UserError('seat.offered', `The seat of ${army.name} is already offered; \`/seat withdraw army:${army.id}\` takes the offer back.`);
    // The offer's number: one past the campaign's last offer (undone ones count too), so a stale
    // button never claims a new offer, and a replay (one campaign alone in its database) numbers
    // it the same. (It was the next event id: ids are shared by every campaign of the database.)
    const last = tx.read.lastOfType('seatOffered', 1)[0]?.data as { offer?: unknown } | undefined;
    const offer = (typeof last?.offer === 'number' ? last.offer : 0) + 1;
    const absent = commandersOf(tx, army.id);
    const why = absent.length > 0 ? `${names(tx, absent)} ${army.seat?.awayUntil !== undefined ? 'is away' : 'is absent'}` : 'nobody commands it';
    const text = `The seat of **${army.name}** is offered (${why}): a player who commands no enemy of its side may claim it with the button, or \`/seat claim army:${army.id}\`.`;
    return {
      state: withSeat(tx, army, { ...(army.seat ?? { missed: 0 }), offer }),
      events: [{ type: 'seatOffered', audience: PUBLIC, text, data: { armyId: army.id, offer } }],
      result: [{ ...reply(text, { armyId: army.id, offer, button: claimButtonId(tx.meta.id, army.id, offer) }), buttons: [{ id: claimButtonId(tx.meta.id, army.id, offer), label: `Claim ${army.name}`.slice(0, 80), style: 'primary', command: `/seat claim army:${army.id}` }] }],
    };
  });
}

function claimChange(tx: CampaignTx, userId: string, userName: string, armyText: string | undefined, offer: number | undefined): Change<Reply[]> {
  const army = requireArmy(tx.state, armyText);
  const current = army.seat?.offer;
  if (current === undefined || (offer !== undefined && offer !== current)) {
    if (army.seat?.substitute) requireOpenSeat(tx, army);
    throw new UserError('seat.withdrawn', offer !== undefined
      ? `This offer of the seat of ${army.name} was withdrawn by the referee: it can no longer be claimed. Ask the referee to offer it again (\`/seat offer army:${army.id}\`).`
      : `The seat of ${army.name} is not offered (or the offer was withdrawn). Only an offered seat can be claimed; ask the referee (\`/seat offer army:${army.id}\`).`);
  }
  requireOpenSeat(tx, army);
  if (commandersOf(tx, army.id).includes(userId)) throw new UserError('seat.own', `${army.name} is already yours: your next order takes it back from standing orders.`);
  requireNotEnemy(tx, army, userId, 'You');
  const change = seatSubstitute(tx, army, userId, userName, 'claimed');
  const answer = `You hold the seat of **${army.name}** (\`${army.id}\`) as substitute until the referee gives it back. \`/intel army:${army.id}\` is what this army knows; \`/army status army:${army.id}\` its state. It follows its standing orders until your first order.`;
  const text = `${escapeName(userName)} takes the seat of **${army.name}** as substitute.`;
  return { ...change, result: [{ to: 'update', content: `Claimed: ${text}` }, reply(text, { armyId: army.id, substitute: userId }), ephemeral(answer, { armyId: army.id, substitute: userId })] };
}

/** A player claims an offered seat by typing it (`/seat claim army:`). */
export function claimSeat(app: App, actor: Actor, input: { army: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const change = claimChange(tx, actor.userId, actor.userName, input.army, undefined);
    return { ...change, result: change.result.filter((r) => r.to !== 'update') };
  });
}

/** The Claim button of an offer (`seat:<campaignId>:<armyId>:<offer>`). */
export function claimButton(app: App, userId: string, userName: string | undefined, customId: string): Reply[] {
  const [, campaignId = '', armyId = '', offer = ''] = customId.split(':');
  return inCampaign(app, { campaignId }, (tx) => {
    const change = claimChange(tx, userId, userName ?? userId, armyId, Number(offer));
    // A button's answers are private; the public word is the offer's own message, updated.
    return { ...change, result: change.result.filter((r) => r.to !== 'reply') };
  });
}
