import { afterEach, describe, expect, it } from 'vitest';
import { contactButtons } from '../../commands/_contactButtons.js';
import { readyButtons } from '../../commands/_readyButtons.js';
import { refereeButtons } from '../../commands/_refereeButtons.js';
import { refereeInbox } from '../../src/app/referee/inbox.js';
import { contactButtonId, facingDigest, parseContactButton } from '../../src/app/deliveries/contactPrompts.js';
import { readyButtonId } from '../../src/app/turn/markReady.js';
import { runButton } from '../../src/app/journal/invocation.js';
import { inCampaign, readCampaign } from '../../src/app/unitOfWork.js';
import { SCENARIO_LIMITS } from '../../src/engine/scenario/index.js';
import { describeStep } from '../../src/engine/contact/index.js';
import { CONTACT_STEPS } from '../../src/engine/state/index.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import { contactHarness, open } from './contactSetup.js';
import { autumnWar, campaignState, consoleHarness, type Harness } from './harness.js';

/*
 * Buttons answer the moment they were sent for (issue: a press on an earlier round's message).
 * A standing contact (nobody pressed it: fight on the morrow, still facing each other) asks again
 * each half period under the same id; a button of an earlier round is refused, changes nothing,
 * and sends its presser to the newest message. Ids sent before the round was put in them (journals
 * hold them: docs/replay.md) answer the round open now, as they always did.
 */

let h: Harness | undefined;
afterEach(() => h?.close());

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

/** Presses a button as the transports do (journaled), by user name. */
const pressContact = (x: Harness, userId: string, customId: string) => runButton(contactButtons, { app: x.app, userId, customId });
const pressReady = (x: Harness, userId: string, customId: string) => runButton(readyButtons, { app: x.app, userId, customId });
const pressReferee = (x: Harness, customId: string) => runButton(refereeButtons, { app: x.app, userId: 'referee', customId });

/** The Resolve button of the referee's inbox as it reads now. */
function resolveButtonOf(x: Harness, contactId: string): string {
  const id = refereeInbox(x.app, REFEREE)[0]?.buttons?.find((b) => b.command === `/contact resolve contact:${contactId}`)?.id;
  if (!id) throw new Error(`no Resolve button for ${contactId}`);
  return id;
}

/** The contact buttons of each DM `user` received, oldest first. */
function contactButtonsOf(x: Harness, user: string): string[][] {
  return x.dms(user).map((o) => ((o.data as { buttons?: { id: string }[] } | undefined)?.buttons ?? []).map((b) => b.id)).filter((ids) => ids.some((id) => id.startsWith('contact:')));
}

/** What a refused press would have changed: the state, the journal, the outbox (of the campaign a button names). */
function snapshot(x: Harness, customId: string): { state: string; journal: number; outbox: unknown } {
  return readCampaign(x.app, { campaignId: customId.split(':')[1]! }, (tx) => ({ state: JSON.stringify(tx.state), journal: tx.read.journalLength(), outbox: tx.read.undelivered().length }));
}

/** The DMs, posts and answers the outbox delivers now. */
const delivered = async (x: Harness): Promise<ConsoleOutput[]> => x.deliver();

/** A contact of Hadewych (alice) and Grallune (bob) nobody pressed: round 1 opened Day 1 morning, round 2 Day 1 afternoon. */
async function standingContact(): Promise<{ x: Harness; id: string; round1: string[]; round2: string[] }> {
  const x = await contactHarness();
  await x.run('@referee /campaign start');
  const id = await open(x, 'hadewych,grallune');
  await x.run('!tick');
  const [round1, round2] = contactButtonsOf(x, 'alice');
  if (!round1 || !round2) throw new Error(`two prompts expected, got ${JSON.stringify(contactButtonsOf(x, 'alice'))}`);
  expect(campaignState(x).contacts[id]).toMatchObject({ step: 'step1', openedAt: { day: 1, half: 1 } });
  return { x, id, round1, round2 };
}

const proceedOf = (ids: readonly string[]): string => {
  const id = ids.find((b) => b.includes(':proceed:'));
  if (!id) throw new Error(`no proceed button in ${JSON.stringify(ids)}`);
  return id;
};

describe('GIVEN a standing contact asked again in round 2', () => {
  it('WHEN alice presses round 1\'s button THEN it is refused, says which round it was for and where the current one is, and changes nothing', async () => {
    const s = await standingContact();
    h = s.x;
    // Each round's buttons name the round (its opening time index) and the enemy forces named (Grallune): t0 then t1.
    expect(s.round1.every((b) => b.endsWith(`:t0.${facingDigest(['grallune'])}`))).toBe(true);
    expect(s.round2.every((b) => b.endsWith(`:t1.${facingDigest(['grallune'])}`))).toBe(true);
    await delivered(h);
    const before = snapshot(h, s.round1[0]!);
    await expect(pressContact(h, 'alice', proceedOf(s.round1))).rejects.toMatchObject({
      code: 'contact.roundOver',
      message: `That button was for contact ${s.id} as it opened on Day 1, morning; a new round of it opened on Day 1, afternoon. Nothing was recorded: use the newest message about ${s.id}.`,
    });
    // An avoid button carries a hex after the army: refused the same way.
    const avoid = s.round1.find((b) => b.includes(':avoid:'));
    expect(avoid).toBeDefined();
    await expect(pressContact(h, 'alice', avoid!)).rejects.toMatchObject({ code: 'contact.roundOver' });
    // The referee pressing it for her is refused too.
    await expect(pressContact(h, 'referee', proceedOf(s.round1))).rejects.toMatchObject({ code: 'contact.roundOver' });
    expect(snapshot(h, s.round1[0]!)).toEqual(before);
    expect(await delivered(h)).toEqual([]);
  });

  it('WHEN alice presses round 2\'s button THEN her answer is recorded for round 2 and the DM is settled', async () => {
    const s = await standingContact();
    h = s.x;
    const [settled, answer] = await pressContact(h, 'alice', proceedOf(s.round2));
    expect(settled).toMatchObject({ to: 'update', content: '✅ **Answered**: proceed to the contact phase.', settles: `contact:${parseContactButton(s.round2[0]!)!.campaignId}:${s.id}:` });
    expect(answer?.content).toContain('Recorded for Army of Hadewych: proceed to the contact phase.');
    expect(campaignState(h).contacts[s.id]?.data.step1).toEqual({ hadewych: { kind: 'proceed' } });
  });

  it('WHEN bob presses an id of the old format (no round) from round 1 THEN it answers the round open now, as before', async () => {
    const s = await standingContact();
    h = s.x;
    const old = proceedOf(contactButtonsOf(h, 'bob')[0]!).replace(/:t\d+\.[0-9a-z]{4}$/, '');
    expect(parseContactButton(old)).not.toHaveProperty('moment');
    const [, answer] = await pressContact(h, 'bob', old);
    expect(answer?.content).toContain('Recorded for Army of Grallune: proceed to the contact phase.');
    expect(campaignState(h).contacts[s.id]?.data.step1).toEqual({ grallune: { kind: 'proceed' } });
    // An old-format avoid id (with its hex) still reads its hex.
    expect(parseContactButton(`contact:25cc3c0e:c41:avoid:anax:1720`)).toEqual({ campaignId: '25cc3c0e', contactId: 'c41', choice: 'avoid', armyId: 'anax', hex: '1720' });
  });

  it('WHEN Hadewych is no longer in the contact\'s new round THEN its old button hears only that the question is settled (as of a contact that closed), nothing about the round', async () => {
    const s = await standingContact();
    h = s.x;
    // The contact going on without Hadewych (as when newcomers face each other and she left):
    // made by hand here, the refusal is what is tested.
    inCampaign(h.app, { actor: REFEREE }, (tx) => {
      const c = tx.state.contacts[s.id]!;
      return { state: { ...tx.state, contacts: { ...tx.state.contacts, [s.id]: { ...c, armyIds: c.armyIds.filter((a) => a !== 'hadewych') } } }, result: undefined };
    });
    const before = snapshot(h, s.round1[0]!);
    await expect(pressContact(h, 'alice', proceedOf(s.round1))).rejects.toMatchObject({ code: 'contact.buttonStale', message: `This question about contact ${s.id} has already been settled.` });
    expect(snapshot(h, s.round1[0]!)).toEqual(before);
  });

  it('WHEN the campaign has ended THEN a button of the current round is refused, and changes nothing', async () => {
    const s = await standingContact();
    h = s.x;
    await h.run('@referee /campaign end confirm:"Autumn War"');
    const before = snapshot(h, s.round2[0]!);
    await expect(pressContact(h, 'alice', proceedOf(s.round2))).rejects.toMatchObject({ code: 'campaign.ended', message: `The campaign has ended: the button about contact ${s.id} answers nothing now.` });
    expect(snapshot(h, s.round2[0]!)).toEqual(before);
  });
});

describe('GIVEN a contact at step 1 that enemy forces join (it asks again in the same round)', () => {
  it('WHEN alice presses the first prompt\'s button THEN it is refused (the newer prompt names the newcomer) and changes nothing; the newer prompt\'s button is taken', async () => {
    // Aeskrvald (carol, law) stands next to Hadewych; the deadline is two ticks, so the contact
    // still waits at step 1 when the tick's map contact adds Aeskrvald to it.
    h = await contactHarness({ three: true });
    await h.run('@referee /campaign settings decision-deadline:2', '@referee /campaign start');
    const id = await open(h, 'hadewych,grallune');
    await h.run('!tick');
    expect(campaignState(h).contacts[id]).toMatchObject({ step: 'step1', openedAt: { day: 1, half: 0 }, armyIds: ['hadewych', 'grallune', 'aeskrvald'] });
    const [first, joined] = contactButtonsOf(h, 'alice');
    // The round (t0) and a digest of the enemies each prompt named: Grallune, then Grallune and Aeskrvald.
    expect(first?.every((b) => b.endsWith(`:t0.${facingDigest(['grallune'])}`))).toBe(true);
    expect(joined?.every((b) => b.endsWith(`:t0.${facingDigest(['aeskrvald', 'grallune'])}`))).toBe(true);
    expect(facingDigest(['grallune'])).not.toBe(facingDigest(['aeskrvald', 'grallune']));
    await delivered(h);
    const before = snapshot(h, first![0]!);
    await expect(pressContact(h, 'alice', proceedOf(first!))).rejects.toMatchObject({
      code: 'contact.forcesChanged',
      message: `That button was for contact ${id} when other enemy forces faced Army of Hadewych; 2 enemy forces face it now. Nothing was recorded: use the newest message about ${id}, which names them.`,
    });
    expect(snapshot(h, first![0]!)).toEqual(before);
    expect(await delivered(h)).toEqual([]);
    // Bob faces one enemy as before (Aeskrvald is his ally): his first prompt's button still answers.
    const [bobFirst] = contactButtonsOf(h, 'bob');
    const [, bobAnswer] = await pressContact(h, 'bob', proceedOf(bobFirst!));
    expect(bobAnswer?.content).toContain('Recorded for Army of Grallune: proceed to the contact phase.');
    const [, answer] = await pressContact(h, 'alice', proceedOf(joined!));
    expect(answer?.content).toContain('Recorded for Army of Hadewych: proceed to the contact phase.');
  });

  it('WHEN the prompt named as many enemy forces as face the army now, but other ones (one left as another joined) THEN its button is refused all the same', async () => {
    h = await contactHarness({ three: true });
    await h.run('@referee /campaign settings decision-deadline:2', '@referee /campaign start');
    const id = await open(h, 'hadewych,grallune');
    const [first] = contactButtonsOf(h, 'alice');
    const mine = proceedOf(first!);
    // The same round, one enemy named as now, but another one: what a prompt sent before such a swap carries.
    const parsed = parseContactButton(mine)!;
    const swapped = contactButtonId(parsed.campaignId, id, 'proceed', 'hadewych', { opened: parsed.moment!.opened, facing: facingDigest(['aeskrvald']) });
    await expect(pressContact(h, 'alice', swapped)).rejects.toMatchObject({ code: 'contact.forcesChanged', message: expect.stringContaining('1 enemy force face it now') });
    const [, answer] = await pressContact(h, 'alice', mine);
    expect(answer?.content).toContain('Recorded for Army of Hadewych: proceed to the contact phase.');
  });
});

describe('GIVEN the Resolve button of the referee\'s inbox', () => {
  it('WHEN its id names any other step of a contact (every ContactStep, the list the inbox reads) THEN it is refused as moved on, naming that step, and resolves nothing', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start');
    const id = await open(h, 'hadewych,grallune');
    const round1 = resolveButtonOf(h, id);
    const before = snapshot(h, round1);
    const others = CONTACT_STEPS.filter((step) => step !== 'step1');
    expect(others.length).toBeGreaterThan(0);
    for (const step of others) {
      await expect(pressReferee(h, round1.replace(/:step1\.t0$/, `:${step}.t0`))).rejects.toMatchObject({
        code: 'contact.roundOver',
        message: `That button was for contact ${id} ${describeStep(step)}, in its round opened on Day 1, morning; it is now ${describeStep('step1')}, in its round opened on Day 1, morning. Nothing was resolved: \`/referee inbox\` shows what waits now.`,
      });
    }
    expect(snapshot(h, round1)).toEqual(before);
  });

  it('WHEN pressed after the contact moved on (a new round, or its contact phase ran) THEN it is refused and resolves nothing; the newest one, and an id of the old format, resolve what waits now', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start');
    const id = await open(h, 'hadewych,grallune');
    const round1 = resolveButtonOf(h, id);
    expect(round1).toMatch(new RegExp(`^referee:[0-9a-f]{8}:resolve:${id}:step1\\.t0$`));
    await h.run('!tick');
    await delivered(h);
    const before = snapshot(h, round1);
    await expect(pressReferee(h, round1)).rejects.toMatchObject({
      code: 'contact.roundOver',
      message: `That button was for contact ${id} before the contact phase (proceed, delay, avoid or stay silent), in its round opened on Day 1, morning; it is now before the contact phase (proceed, delay, avoid or stay silent), in its round opened on Day 1, afternoon. Nothing was resolved: \`/referee inbox\` shows what waits now.`,
    });
    expect(snapshot(h, round1)).toEqual(before);
    // Round 2's button, taken before both proceed: the contact phase runs, and it is refused.
    const round2 = resolveButtonOf(h, id);
    await h.run('@alice /engage', '@bob /engage');
    expect(campaignState(h).contacts[id]?.step).toBe('decision');
    await expect(pressReferee(h, round2)).rejects.toMatchObject({ code: 'contact.roundOver', message: expect.stringContaining('it is now after the contact phase (engage or evade), in its round opened on Day 1, afternoon.') });
    // An id of the old format resolves what waits now (the decision), as it always did.
    const [resolved] = await pressReferee(h, round1.replace(/:step1\.t\d+$/, ''));
    expect(resolved?.content).toContain(`Contact ${id} resolved: now`);
    expect(campaignState(h).contacts[id]?.step).not.toBe('decision');
  });
});

describe('GIVEN the Ready button of a reminder', () => {
  it('WHEN pressed after its half period was played THEN it is refused and changes nothing; the newest one, and an id of the old format, mark ready for the half period open now', async () => {
    h = await consoleHarness({ setup: autumnWar({ hadewych: 'alice', aeskrvald: 'bob' }) });
    await h.run('@referee /campaign start', '!now 2026-11-22T18:30Z', '!clock');
    const reminderButton = (): string => {
      const reminders = h!.dms('bob').filter((o) => o.content.includes('**Reminder**'));
      const id = (reminders.at(-1)?.data as { buttons?: { id: string }[] } | undefined)?.buttons?.[0]?.id;
      if (!id) throw new Error('no reminder with a Ready button');
      return id;
    };
    const first = reminderButton();
    expect(first).toMatch(/^ready:[0-9a-f]{8}:t0$/);
    await h.run('!tick');
    await delivered(h);
    const before = snapshot(h, first);
    await expect(pressReady(h, 'bob', first)).rejects.toMatchObject({
      code: 'ready.buttonOld',
      message: 'That Ready button was for Day 1, morning; orders are now for Day 1, afternoon. Nothing was recorded: look at your armies\' orders for it, then `/ready` (or the Ready button of the newest reminder).',
    });
    expect(snapshot(h, first)).toEqual(before);
    expect(await delivered(h)).toEqual([]);
    // The button for the half period open now is taken.
    const campaignId = first.split(':')[1]!;
    const [now] = await pressReady(h, 'bob', readyButtonId(campaignId, 1));
    expect(now?.content).toContain('You are ready for Day 1, afternoon');
    // An old-format id (no half period) is `/ready` for the one open now, as it always was.
    const [old] = await pressReady(h, 'alice', `ready:${campaignId}`);
    expect(old?.content).toContain('You are ready for Day 1, afternoon (2 of 2 commanders ready)');
  });
});

describe('custom ids fit Discord\'s 100 characters', () => {
  it('GIVEN the longest parts a contact button can carry THEN its id is at most 100 characters and reads back', () => {
    // The parts at their longest: a campaign id (createCampaign: 8 characters of a UUID); a
    // contact id (numbered c<n>, ten million contacts: 8; derived in fog: 7); the longest choice
    // with a hex (avoid, a 6-digit hex on a map over 99 columns) or without (proceed); an army id
    // at the scenario's limit with a division's number (-<n>, splitArmy; 4 digits); the round's
    // time index (four half periods a day: 7 digits is 6,800 years) and the digest of the enemy
    // forces named (4 letters).
    const campaign = 'f'.repeat(8);
    const contact = `c${'9'.repeat(7)}`;
    const army = `${'a'.repeat(SCENARIO_LIMITS.id)}-${'9'.repeat(4)}`;
    const round = 9_999_999;
    const moment = { opened: round, facing: 'zzzz' };
    const longest = [contactButtonId(campaign, contact, 'avoid', army, moment, '999999'), contactButtonId(campaign, contact, 'proceed', army, moment)];
    for (const id of longest) {
      expect(id.length).toBeLessThanOrEqual(100);
      expect(parseContactButton(id)).toMatchObject({ campaignId: campaign, contactId: contact, armyId: army, moment });
    }
    expect(readyButtonId(campaign, round).length).toBeLessThanOrEqual(100);
  });
});
