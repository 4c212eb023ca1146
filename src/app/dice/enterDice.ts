import { byId } from '../../engine/state/index.js';
import { resolveDecision, resolveStep1 } from '../../engine/contact/index.js';
import { enterDie, holdForDice, releaseHold, type ManualRollRequest } from '../../engine/dice/index.js';
import { echo, REFEREE, type EngineEvent } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { diceNeededToResolve, whoRollsIn } from '../../engine/tick/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { deliveries } from '../deliveries/contactPrompts.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { isReferee } from '../referees.js';
import { commandersOf } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import { parseDiceButton } from '../deliveries/diceAsks.js';

/** The request a user means: the one named, or their only one waiting. */
function requestFor(tx: CampaignTx, userId: string, referee: boolean, id: string | undefined): ManualRollRequest {
  const open = tx.state.manualDice.requests.filter((r) => r.value === undefined);
  const mayEnter = (r: ManualRollRequest): boolean => referee || (r.army !== undefined && commandersOf(tx, r.army).includes(userId));
  if (id !== undefined) {
    const r = tx.state.manualDice.requests.find((x) => x.id === id.trim());
    if (!r) throw new UserError('dice.unknownRoll', `There is no manual roll ${echo(id)} waiting. ${open.filter(mayEnter).length > 0 ? `Yours: ${open.filter(mayEnter).map((x) => x.id).join(', ')}.` : 'None is waiting for you.'}`);
    if (!mayEnter(r)) throw new UserError('dice.notYours', `Roll ${r.id} (${r.purpose}) is for ${r.army !== undefined ? 'its army\'s commander' : 'the referee'} to enter.`);
    return r;
  }
  const mine = open.filter(mayEnter);
  const [only, ...more] = mine;
  if (!only) throw new UserError('dice.noneWaiting', 'No manual roll is waiting for you.');
  if (more.length > 0) throw new UserError('dice.which', `Several rolls wait for you: say which with \`roll:\` (${mine.map((r) => `${r.id}: ${r.purpose}`).join('; ')}).`);
  return only;
}

/**
 * Once the dice a waiting contact needs are in, it resolves at once (as it would have when its
 * last commander answered), even if a die asked for earlier is no longer needed; if the dice
 * entered bring more manual rolls (a roll-off after a tie), they are asked for then and it goes on
 * waiting until the same deadline.
 */
function resolveIfReady(tx: CampaignTx, state: CampaignState, contactId: string): { state: CampaignState; events: EngineEvent[]; resolved: boolean } {
  const hold = byId(state.manualDice.holds, contactId);
  const c = byId(state.contacts, contactId);
  if (!hold || !c || (c.step !== 'step1' && c.step !== 'decision')) return { state, events: [], resolved: false };
  const needed = diceNeededToResolve(state, tx.map, c, tx.dice);
  if (needed.length > 0) return { state: { ...state, manualDice: holdForDice(state.manualDice, contactId, hold, needed, whoRollsIn(state), state.clock) }, events: [], resolved: false };
  const r = orRefuse(c.step === 'step1' ? resolveStep1(state, tx.map, contactId, tx.dice) : resolveDecision(state, tx.map, contactId, tx.dice));
  return { state: { ...r.state, manualDice: releaseHold(r.state.manualDice, contactId) }, events: [...r.events], resolved: true };
}

function enter(tx: CampaignTx, userId: string, referee: boolean, id: string | undefined, value: number | undefined): Change<Reply[]> {
  const request = requestFor(tx, userId, referee, id);
  if (value === undefined) throw new UserError('dice.valueMissing', `Say what you rolled: \`/dice enter roll:${request.id} value:N\` (1-${request.sides}).`);
  const entered = orRefuse(enterDie(tx.state.manualDice, request.id, value, userId));
  tx.dice.enter({ key: request.key, value, enteredBy: userId });
  const after = resolveIfReady(tx, { ...tx.state, manualDice: entered.state }, request.contactId ?? '');
  const more = after.state.manualDice.requests.filter((r) => r.contactId !== undefined && r.contactId === request.contactId && r.value === undefined);
  const next = after.resolved ? ` Every die contact ${request.contactId} waited for is in: resolved now.`
    : more.length > 0 ? ` Contact ${request.contactId} still waits for ${more.map((r) => `${r.id} (${r.purpose})`).join(', ')}.` : '';
  const d = deliveries(tx, tx.state, after.state, after.events);
  return {
    state: after.state,
    events: [{ type: 'diceEntered', audience: REFEREE, text: `${request.id}: ${value} entered for ${request.purpose}.`, data: { id: request.id, key: request.key, value, by: userId } }, ...d.events],
    outbox: d.outbox,
    result: [ephemeral(`Entered ${value} for ${request.purpose} (roll ${request.id}).${next}`, { id: request.id, value, resolved: after.resolved })],
  };
}

/** `/dice enter roll: value:`: a commander (or the referee) enters a die they rolled for a manual roll. */
export function enterDice(app: App, actor: Actor, input: { roll?: string | undefined; value?: number | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => enter(tx, actor.userId, tx.isReferee, input.roll, input.value));
}

/** A press of a die's button in the DM that asked for it. */
export function enterByButton(app: App, userId: string, customId: string, roleIds: readonly string[] = []): Reply[] {
  const b = parseDiceButton(customId);
  if (!b) throw new UserError('button.unknown', 'This button is no longer in use.');
  return inCampaign(app, { campaignId: b.campaignId }, (tx) => {
    const referee = isReferee(tx.meta, tx.members, tx.state.settings, { userId, roleIds });
    const r = tx.state.manualDice.requests.find((x) => x.id === b.requestId);
    if (!r || r.value !== undefined) throw new UserError('dice.buttonStale', `Roll ${b.requestId} is no longer waiting (it was entered, or its deadline passed and the seeded die was used).`);
    return enter(tx, userId, referee, b.requestId, b.value);
  });
}
