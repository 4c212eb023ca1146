import { afterEach, describe, expect, it } from 'vitest';
import { diceButtons } from '../../commands/_diceButtons.js';
import { allEvents } from '../../src/db/eventRepo.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import type { Harness } from './harness.js';
import { campaignState } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

interface Asked { id: string; purpose: string; sides: number; army?: string; contactId?: string }
const asks = (out: readonly ConsoleOutput[], user: string): Asked[] => out
  .filter((o) => o.to === 'dm' && o.user === user && (o.data as { type?: string }).type === 'diceAsked')
  .flatMap((o) => (o.data as { requests: Asked[] }).requests);
const rolls = (x: Harness) => allEvents(x.app.db, campaignState(x).id).filter((e) => e.type === 'diceRolled');

async function manualContact(group = 'contact'): Promise<{ x: Harness; contactId: string }> {
  const x = await contactHarness();
  await x.run(`@referee /campaign settings manual-dice:${group}`, '@referee /campaign start');
  const contactId = await open(x, 'hadewych,grallune');
  return { x, contactId };
}

describe('RULINGS 7: manual dice (docs/rulings.md)', () => {
  it('GIVEN manual-dice:contact WHEN both commanders proceed THEN each is asked by DM for their own dice and the contact waits; WHEN both enter them THEN it resolves with those dice, logged as entered by whom', async () => {
    const { x, contactId } = await manualContact();
    h = x;
    const out = await h.run('@alice /engage', '@bob /engage');
    expect(out.find((o) => o.user === 'bob' && o.to === 'ephemeral')?.data).toMatchObject({ waitsForDice: true, resolved: false });
    const alice = asks(out, 'alice');
    const bob = asks(out, 'bob');
    expect(alice.map((r) => r.purpose)).toContain('contact dice: hadewych');
    expect(bob.map((r) => r.purpose)).toContain('contact dice: grallune');
    expect([...alice, ...bob].every((r) => r.contactId === contactId)).toBe(true);
    // Nobody is asked for another army's die; the buttons are the faces 1-6.
    expect(alice.some((r) => /grallune/.test(r.purpose))).toBe(false);
    const dm = out.find((o) => o.user === 'alice' && (o.data as { type?: string }).type === 'diceAsked');
    const contactDie = alice.find((r) => r.purpose === 'contact dice: hadewych')!;
    expect((dm?.data as { buttons: { label: string }[] }).buttons.map((b) => b.label)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6].map((v) => `${contactDie.id}: ${v}`)));
    expect(out.filter((o) => o.user === 'alice' && (o.data as { type?: string }).type === 'diceAsked')).toHaveLength(1);
    expect(campaignState(h).contacts[contactId]?.step).toBe('step1');
    // Answers are final while the dice are rolled.
    expect((await h.run('@alice /delay'))[0]?.data).toMatchObject({ error: 'contact.diceRolling' });
    // Alice enters hers by command, Bob by button.
    for (const r of alice) await h.run(`@alice /dice enter roll:${r.id} value:5`);
    expect(campaignState(h).contacts[contactId]?.step).toBe('step1');
    for (const r of bob) await diceButtons.execute({ app: h.app, userId: 'bob', customId: `dice:${campaignState(h).id}:${r.id}:2` });
    await h.run('@referee /turn status');
    expect(campaignState(h).contacts[contactId]?.step).toBe('decision');
    const logged = rolls(h).filter((e) => /contact dice/.test((e.data as { purpose: string }).purpose));
    expect(logged.map((e) => e.text)).toEqual(['d6 for contact dice: hadewych: 5 (manual, entered by alice)', 'd6 for contact dice: grallune: 2 (manual, entered by bob)']);
    expect(h.dms('alice').some((o) => /Contact dice \(c\d+\)\*\*: 5/.test(o.content))).toBe(true);
    // Entered dice draw nothing from the seed: the period still checks out, with them set apart.
    await h.run('!tick');
    expect((await h.run('@referee /dice verify tick:0'))[0]?.content).toMatch(/^✅ .*entered by hand not drawn from it/);
    // A player's check is of the public dice only: how many secret dice were entered is not theirs to know.
    expect((await h.run('@carol /dice verify tick:0'))[0]?.content).not.toMatch(/entered by hand/);
  });

  it('GIVEN a die nobody enters WHEN the deadline (the next tick) comes THEN the contact resolves with the seeded die, logged as a manual roll not entered', async () => {
    const { x, contactId } = await manualContact();
    h = x;
    const out = await h.run('@alice /engage', '@bob /engage');
    for (const r of asks(out, 'alice')) await h.run(`@alice /dice enter roll:${r.id} value:6`);
    await h.run('!tick');
    const after = campaignState(h).contacts[contactId];
    expect(after?.step).not.toBe('step1');
    const texts = rolls(h).map((e) => e.text);
    expect(texts).toContain('d6 for contact dice: hadewych: 6 (manual, entered by alice)');
    expect(texts.some((t) => /^d6 for contact dice: grallune: \d \(a manual roll nobody entered: seeded die\)$/.test(t))).toBe(true);
    expect(campaignState(h).manualDice).toMatchObject({ requests: [], holds: {} });
    const button = await diceButtons.execute({ app: h.app, userId: 'bob', customId: `dice:${campaignState(h).id}:${asks(out, 'bob')[0]?.id}:3` }).catch((e: Error) => e);
    expect(button).toBeInstanceOf(Error);
  });

  it('GIVEN a contact nobody finished answering WHEN its deadline comes THEN its answers are final and it waits one more tick for its dice; (manual-dice:battle)', async () => {
    const { x, contactId } = await manualContact('battle');
    h = x;
    await h.run('@alice /engage');
    const tick = await h.run('!tick');
    expect(campaignState(h).contacts[contactId]?.step).toBe('step1');
    expect(campaignState(h).manualDice.holds[contactId]).toBeDefined();
    expect(asks(tick, 'alice').map((r) => r.purpose)).toContain('contact dice: hadewych');
    // Terrain cards are dealt from the deck, never rolled by hand.
    expect(asks(tick, 'referee').some((r) => /^terrain card/.test(r.purpose))).toBe(false);
    expect((await h.run('@bob /engage'))[0]?.data).toMatchObject({ error: 'contact.diceRolling' });
    // Nobody enters anything: the next tick resolves it with seeded dice (Bob's silence stands).
    await h.run('!tick');
    expect(campaignState(h).contacts[contactId]?.step).toBe('decision');
    expect(campaignState(h).manualDice.holds).toEqual({});
  });

  it('GIVEN manual-dice:all THEN right after a tick the referee is asked for the next tick\'s weather dice, and the next tick rolls with what was entered', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign settings manual-dice:all', '@referee /campaign start');
    // Day 1 morning -> afternoon, then afternoon -> evening: the evening's weather is rolled.
    const first = await h.run('!tick');
    const weather = asks(first, 'referee').filter((r) => /^weather \(/.test(r.purpose));
    expect(weather.length).toBeGreaterThan(0);
    expect(asks(first, 'alice')).toEqual([]);
    for (const r of weather) await h.run(`@referee /dice enter roll:${r.id} value:1`);
    await h.run('!tick');
    const logged = rolls(h).filter((e) => /^d\d+ for weather \(/.test(e.text));
    expect(logged[0]?.text).toMatch(/: 1 \(manual, entered by the referee\)$/);
  });

  it('GIVEN manual-dice:none (the default) THEN nobody is asked and contacts resolve at once', async () => {
    h = await contactHarness();
    const contactId = await open(h, 'hadewych,grallune');
    const out = await h.run('@alice /engage', '@bob /engage');
    expect(out.some((o) => (o.data as { type?: string }).type === 'diceAsked')).toBe(false);
    expect(campaignState(h).contacts[contactId]?.step).toBe('decision');
  });
});
