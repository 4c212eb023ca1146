import { byId } from '../../engine/state/index.js';
import { chooseDecision, chooseStep1, resolveDecision, resolveStep1, type Decision, type Step1Choice } from '../../engine/contact/index.js';
import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { holdForDice } from '../../engine/dice/index.js';
import type { EngineEvent } from '../../engine/events/index.js';
import type { Army } from '../../engine/forces/index.js';
import { movementProfile, owesNoRest } from '../../engine/profiles/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { diceNeededToResolve, whoRollsIn } from '../../engine/tick/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { isReferee } from '../referees.js';
import { requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { hexOrPlace } from '../places.js';
import { ephemeral, type Reply } from '../messages.js';
import { commandersOf } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import { deadlineText, deliveries, facingDigest, opponentsIn, parseContactButton, type ContactButton } from '../deliveries/contactPrompts.js';
import { contactOfArmy } from './whichContact.js';

/** What a commander answers: before the contact phase, or engage/evade after it. */
export type ContactAnswer = 'engage' | 'evade' | 'avoid' | 'delay' | 'silent';

export interface AnswerInput {
  readonly army?: string | undefined;
  readonly contact?: string | undefined;
  readonly to?: string | undefined;
}

/**
 * Records a commander's answer to their contact. In step 1, engage means "proceed"; evade is
 * refused (it comes after the contact phase). Once every commander has answered, the step is
 * resolved at once; otherwise it waits for the others or the deadline.
 */
function answer(tx: CampaignTx, army: Army, asReferee: boolean, choice: ContactAnswer, input: AnswerInput): Change<Reply[]> {
  const c = contactOfArmy(tx.state, army, input.contact);
  if (c.id in tx.state.manualDice.holds) throw new UserError('contact.diceRolling', `The answers to contact ${c.id} are in and its dice are being rolled by hand (\`/dice enter\`): it resolves when they are in, or at the next tick.`);
  let state: CampaignState = tx.state;
  let allAnswered: boolean;
  let said: string;
  let forcedMarch = false;
  if (c.step === 'step1') {
    let step1: Step1Choice;
    if (choice === 'evade') throw new UserError('contact.evadeTooEarly', 'Evade comes after the contact phase. Before it, answer /engage (proceed), /avoid to:HEX, /delay, or stay silent.');
    if (choice === 'avoid') {
      if (!input.to) throw new UserError('contact.avoidWhere', 'Say where to move when avoiding: `/avoid to:0913` (an adjacent hex you have the points to enter, or could by a forced march).');
      const to = hexOrPlace(tx.map, input.to, 'to', 'contact.badHex');
      step1 = { kind: 'avoid', to };
      said = `avoid to ${tx.map.format(to)}`;
    } else {
      step1 = choice === 'engage' ? { kind: 'proceed' } : { kind: choice };
      said = choice === 'engage' ? 'proceed to the contact phase' : choice;
    }
    const r = orRefuse(chooseStep1(state, tx.map, c.id, army.id, step1));
    forcedMarch = r.avoid?.forcedMarch ?? false;
    if (forcedMarch) said += owesNoRest(army, movementProfile(state.settings)) ? ' by a forced march (tireless: it owes no rest for it)' : ' by a forced march (the army must rest all of tomorrow or be fatigued)';
    state = r.state;
    allAnswered = r.allAnswered;
  } else if (c.step === 'decision') {
    if (choice !== 'engage' && choice !== 'evade') throw new UserError('contact.tooLateToAvoid', 'The contact phase has run: now answer /engage or /evade.');
    const r = orRefuse(chooseDecision(state, c.id, army.id, choice as Decision));
    state = r.state;
    allAnswered = r.allAnswered;
    said = choice;
  } else if (c.step === 'battle') {
    throw new UserError('contact.inBattle', 'This contact is a battle now: fight it on the tabletop; the referee records it with /battle result (declare a withdrawal with /withdraw).');
  } else {
    throw new UserError('contact.closed', `Contact ${c.id} is over.`);
  }
  const events: EngineEvent[] = [];
  const who = asReferee ? ' (by the referee)' : '';
  let outcome = `Recorded for ${army.name}${who}: ${said}.`;
  // With manual dice, the contact waits at its step for the dice its resolution needs (RULINGS 7).
  const needed = allAnswered ? diceNeededToResolve(state, tx.map, state.contacts[c.id] ?? c, tx.dice) : [];
  if (needed.length > 0) {
    state = { ...state, manualDice: holdForDice(state.manualDice, c.id, { step: c.step, until: timeIndex(state.clock) }, needed, whoRollsIn(state), state.clock) };
    outcome += ` Every commander has answered; the dice are rolled by hand now: contact ${c.id} resolves when they are in (\`/dice enter\`), or at the next tick with the bot's seeded dice for any not entered.`;
  } else if (allAnswered) {
    const r = orRefuse(c.step === 'step1' ? resolveStep1(state, tx.map, c.id, tx.dice) : resolveDecision(state, tx.map, c.id, tx.dice));
    state = r.state;
    events.push(...r.events);
    outcome += ' Every commander has answered: resolved now.';
  } else {
    outcome += ` Waiting for the other commanders (or ${deadlineText(tx.state)}).`;
  }
  const d = deliveries(tx, tx.state, state, events);
  return { state, events: d.events, outbox: d.outbox, result: [ephemeral(outcome, { contactId: c.id, armyId: army.id, choice, said, resolved: allAnswered && needed.length === 0, ...(needed.length > 0 ? { waitsForDice: true } : {}), ...(forcedMarch ? { forcedMarch } : {}) })] };
}

export function answerContact(app: App, actor: Actor, choice: ContactAnswer, input: AnswerInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    return answer(tx, army, asReferee, choice, input);
  });
}

const CHOICES: Readonly<Record<string, ContactAnswer>> = { proceed: 'engage', engage: 'engage', evade: 'evade', avoid: 'avoid', delay: 'delay', silent: 'silent' };

/**
 * A button that names its moment (ids sent since it was added to them) answers that moment only:
 * after the campaign ended it answers nothing; once its contact opened again (a standing
 * contact's next round, under the same id), or the enemy forces facing the army changed (the
 * prompt asks again naming them), it is refused, nothing recorded, and the presser is sent to the newest message.
 * An army no longer in the contact hears only that its question is settled (the same words as a
 * contact that closed), so the refusal tells nobody about a contact they left.
 */
function refuseOtherMoment(state: CampaignState, army: Army, b: ContactButton, settled: () => UserError): void {
  if (state.status === 'ended') throw new UserError('campaign.ended', `The campaign has ended: the button about contact ${b.contactId} answers nothing now.`);
  const c = byId(state.contacts, b.contactId);
  if (!c || !b.moment) return;
  const opened = timeIndex(c.openedAt) !== b.moment.opened;
  const opponents = opponentsIn(state, c, army.id);
  if (!opened && facingDigest(opponents) === b.moment.facing) return;
  if (!c.armyIds.includes(army.id)) throw settled();
  if (opened) {
    const now = c.step === 'battle' ? ' and is a battle now' : c.step === 'closed' ? ' and is over' : '';
    throw new UserError('contact.roundOver', `That button was for contact ${c.id} as it opened on ${formatGameTime(fromIndex(b.moment.opened))}; a new round of it opened on ${formatGameTime(c.openedAt)}${now}. Nothing was recorded: use the newest message about ${c.id}.`);
  }
  const forces = (n: number): string => `${n} enemy force${n === 1 ? '' : 's'}`;
  throw new UserError('contact.forcesChanged', `That button was for contact ${c.id} when other enemy forces faced ${army.name}; ${forces(opponents.length)} face it now. Nothing was recorded: use the newest message about ${c.id}, which names them.`);
}

/** A press of a contact button in a DM. Only the army's commander (or a referee) may press it. */
export function answerByButton(app: App, userId: string, customId: string, roleIds: readonly string[] = []): Reply[] {
  const b = parseContactButton(customId);
  const choice = b ? byId(CHOICES, b.choice) : undefined;
  if (!b || !choice) throw new UserError('button.unknown', 'This button is no longer in use.');
  return inCampaign(app, { campaignId: b.campaignId }, (tx) => {
    const army = byId(tx.state.armies, b.armyId);
    if (!army) throw new UserError('army.unknown', 'That army is no longer in the campaign.');
    const commands = commandersOf(tx, army.id).includes(userId);
    const referee = isReferee(tx.meta, tx.members, tx.state.settings, { userId, roleIds });
    if (!commands && !referee) throw new UserError('army.notYours', `${army.name} is not your army.`);
    const c = byId(tx.state.contacts, b.contactId);
    const expected = b.choice === 'engage' || b.choice === 'evade' ? 'decision' : 'step1';
    const settled = (): UserError => new UserError('contact.buttonStale', `This question about contact ${b.contactId} has already been settled.`);
    if (b.moment) refuseOtherMoment(tx.state, army, b, settled);
    if (!c || c.step !== expected) throw settled();
    const change = answer(tx, army, !commands, choice, { contact: b.contactId, ...(b.hex ? { to: b.hex } : {}) });
    const said = (change.result[0]?.data as { said?: string } | undefined)?.said ?? choice;
    // The DM's question is settled: its buttons are disabled and it says what was chosen.
    const answered: Reply = { to: 'update', content: `✅ **Answered${commands ? '' : ' by the referee'}**: ${said}.`, settles: `contact:${b.campaignId}:${b.contactId}:`, data: { contactId: b.contactId, choice } };
    return { ...change, result: [answered, ...change.result] };
  });
}
