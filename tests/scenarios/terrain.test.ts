import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { contactButtons } from '../../commands/_contactButtons.js';
import terrain from '../../commands/terrain.js';
import type { AutocompleteContext } from '../../src/app/commandContext.js';
import { placeTerrain } from '../../src/app/reconnaissance/placeTerrain.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import { contactHarness, open } from './contactSetup.js';
import type { Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

interface Hand { n: number; card: string; cell?: { row: string; column: string }; orientation?: number }
interface Placed { row: string; column: string; card: string; orientation: number; placedBy?: string }
interface TerrainData { contactId: string; armyId: string; hand: Hand[]; sketch: { nearSide?: string; cards: Placed[] }; card?: Hand; byReferee?: boolean; error?: string }

const data = (o: ConsoleOutput | undefined): TerrainData => o?.data as TerrainData;
const isPng = (path: string): boolean => readFileSync(path).subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const sketchDms = (hh: Harness, user: string) => hh.dms(user).filter((o) => (o.data as { kind?: string } | undefined)?.kind === 'battlefieldSketch');

/** No picture of the battlefield, and no sketch data, ever reaches the channel. */
function expectNoSketchInChannel(hh: Harness): void {
  for (const o of hh.channel()) {
    expect((o.files ?? []).filter((f) => /battlefield/.test(f))).toEqual([]);
    expect(JSON.stringify(o.data ?? {})).not.toMatch(/"sketch"|battlefieldSketch/);
  }
}

/** Hadewych (alice) and Grallune (bob) in contact, both proceed: the contact is at the decision step. */
async function atDecision(): Promise<{ hh: Harness; id: string }> {
  const hh = await contactHarness();
  const id = await open(hh, 'hadewych,grallune');
  await hh.run('@alice /engage', '@bob /engage');
  return { hh, id };
}

describe('/terrain place and /terrain show', () => {
  it('GIVEN both commanders proceed THEN each decision DM set carries their own PNG sketch, never the channel', async () => {
    const { hh, id } = await atDecision();
    h = hh;
    for (const [user, army] of [['alice', 'hadewych'], ['bob', 'grallune']] as const) {
      const dms = sketchDms(h, user);
      expect(dms).toHaveLength(1);
      expect(dms[0]?.data).toMatchObject({ contactId: id, armyId: army });
      expect(dms[0]?.content).toMatch(/\/terrain place/);
      expect(dms[0]?.files).toHaveLength(1);
      expect(dms[0]?.files?.[0]).toMatch(new RegExp(`battlefield-${id}-${army}\\.png$`));
      expect(isPng(dms[0]?.files?.[0] as string)).toBe(true);
    }
    // The engage-or-evade prompt went too.
    expect(h.dms('alice').some((o) => /engage or evade/.test(o.content))).toBe(true);
    // Queued once, with the change that reached the decision: later commands send nothing again.
    await h.run('@referee /contact list', '@alice /intel');
    expect(sketchDms(h, 'alice')).toHaveLength(1);
    expectNoSketchInChannel(h);
  });

  it('GIVEN the decision step WHEN a commander places a card THEN it moves on their sketch, and the opponent sees it from across the table', async () => {
    const { hh } = await atDecision();
    h = hh;
    const [reply] = await h.run('@alice /terrain place card:1 row:far column:left turn:90');
    const d = data(reply);
    expect(reply?.to).toBe('ephemeral');
    expect(d.card).toMatchObject({ n: 1, cell: { row: 'far', column: 'left' }, orientation: 90 });
    expect(d.hand[0]).toMatchObject({ cell: { row: 'far', column: 'left' }, orientation: 90 });
    expect(d.sketch.cards).toContainEqual(expect.objectContaining({ row: 'far', column: 'left', orientation: 90, card: d.hand[0]?.card }));
    expect(reply?.files?.length).toBe(1);
    expect(isPng(reply?.files?.[0] as string)).toBe(true);
    // Bob sees the same card at his near right, turned round.
    const [shown] = await h.run('@bob /terrain show');
    expect(data(shown).sketch.cards).toContainEqual(expect.objectContaining({ row: 'near', column: 'right', orientation: 270, card: d.hand[0]?.card }));
    expect(h.dms('bob').some((o) => /placed a .* card at near right, turned 270°/.test(o.content))).toBe(true);
    // turn: left out keeps the orientation; another cell moves it.
    const [again] = await h.run('@alice /terrain place card:1 row:middle column:centre');
    expect(data(again).card).toMatchObject({ cell: { row: 'middle', column: 'centre' }, orientation: 90 });
    expectNoSketchInChannel(h);
  });

  it('GIVEN a card named by name THEN it is placed; a name held twice asks which', async () => {
    const { hh } = await atDecision();
    h = hh;
    const [shown] = await h.run('@alice /terrain show');
    const hand = data(shown).hand;
    const counts = new Map<string, number>();
    for (const c of hand) counts.set(c.card, (counts.get(c.card) ?? 0) + 1);
    const single = hand.find((c) => counts.get(c.card) === 1);
    const double = hand.find((c) => (counts.get(c.card) ?? 0) > 1);
    // The seeded deal gives Hadewych one card held once and two of a kind.
    expect(single && double).toBeDefined();
    const [one] = await h.run(`@alice /terrain place card:"${single?.card}" row:near column:right turn:180`);
    expect(data(one).card).toMatchObject({ n: single?.n, cell: { row: 'near', column: 'right' }, orientation: 180 });
    const [two] = await h.run(`@alice /terrain place card:"${double?.card}" row:near column:right`);
    expect(data(two).error).toBe('terrain.whichCard');
    expect(two?.content).toMatch(/say which by number/);
  });

  it('GIVEN /terrain show THEN it returns the PNG sketch privately, with the hand', async () => {
    const { hh, id } = await atDecision();
    h = hh;
    const [shown] = await h.run('@alice /terrain show');
    expect(shown?.to).toBe('ephemeral');
    expect(data(shown)).toMatchObject({ contactId: id, armyId: 'hadewych' });
    expect(data(shown).hand.length).toBeGreaterThan(0);
    expect(data(shown).sketch.cards.length).toBeGreaterThan(0);
    expect(shown?.files?.[0]).toMatch(/\.png$/);
    expect(isPng(shown?.files?.[0] as string)).toBe(true);
  });

  it('GIVEN wrong input THEN each refusal says what is accepted', async () => {
    const { hh, id } = await atDecision();
    h = hh;
    const alice = data((await h.run('@alice /terrain show'))[0]).hand.map((c) => c.card);
    const bob = data((await h.run('@bob /terrain show'))[0]).hand.map((c) => c.card);
    // Not your card.
    const theirs = bob.find((c) => !alice.includes(c));
    expect(theirs).toBeDefined();
    const [notYours] = await h.run(`@alice /terrain place card:"${theirs}" row:far column:left`);
    expect(data(notYours).error).toBe('terrain.notYourCard');
    expect(notYours?.content).toMatch(/You hold 1\. /);
    // No such card.
    const [nine] = await h.run('@alice /terrain place card:9 row:far column:left');
    expect(data(nine).error).toBe('terrain.noSuchCard');
    expect(nine?.content).toMatch(/You hold 1\. .*Name a card by its number or its name/);
    // Bad cell: the console checks the fixed choices; the use-case checks too.
    const [top] = await h.run('@alice /terrain place card:1 row:top column:left');
    expect(data(top).error).toBe('console.badValue');
    expect(top?.content).toMatch(/near, middle, far/);
    const actor = { userId: 'alice', userName: 'alice', guildId: 'console', channelId: 'console', roleIds: [] };
    await expect(placeTerrain(h.app, actor, { card: '1', row: 'top', column: 'left' })).rejects.toMatchObject({ code: 'terrain.badCell', message: expect.stringMatching(/rows near, middle, far .* columns left, centre, right/) });
    await expect(placeTerrain(h.app, actor, { card: '1', row: 'far', column: 'left', turn: 45 })).rejects.toMatchObject({ code: 'terrain.badTurn' });
    // Not your army.
    const [army] = await h.run('@alice /terrain place card:1 row:far column:left army:grallune');
    expect(data(army).error).toBe('army.notYours');
    // Wrong step: once both engage the contact is a battle; the sketch can still be shown.
    await h.run('@alice /engage', '@bob /engage');
    const [late] = await h.run(`@alice /terrain place card:1 row:far column:left contact:${id}`);
    expect(data(late).error).toBe('terrain.wrongStep');
    expect(late?.content).toMatch(/battle joined/);
    const [still] = await h.run(`@alice /terrain show contact:${id}`);
    expect(still?.files?.length).toBe(1);
  });

  it('GIVEN a contact before its contact phase THEN there are no cards yet and the refusal gives the step', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    const [early] = await h.run('@alice /terrain place card:1 row:far column:left');
    expect(data(early).error).toBe('terrain.notDealt');
    expect(early?.content).toMatch(/before the contact phase/);
    const [none] = await h.run('@carol /terrain show');
    expect(data(none).error).toMatch(/^army\./);
  });

  it('GIVEN the referee WHEN placing for an army THEN it is said and the commander is told', async () => {
    const { hh } = await atDecision();
    h = hh;
    const [r] = await h.run('@referee /terrain place army:grallune card:2 row:near column:centre turn:0');
    expect(data(r)).toMatchObject({ armyId: 'grallune', byReferee: true, card: { n: 2, cell: { row: 'near', column: 'centre' }, orientation: 0 } });
    expect(r?.content).toMatch(/\(by the referee\)/);
    expect(h.dms('bob').some((o) => /the referee placed your .* card \(2\) at near centre/.test(o.content))).toBe(true);
    expect(h.dms('alice').some((o) => /\(by the referee\) placed a .* card at far centre, turned 180°/.test(o.content))).toBe(true);
  });

  it('GIVEN a tick runs the contact phase THEN the decision DMs carry the sketch', async () => {
    h = await contactHarness();
    // The first tick finds the two forces in contact; Hadewych proceeds, Ingegerd stays silent.
    await h.run('@referee /campaign start', '!tick', '@alice /engage');
    expect(sketchDms(h, 'alice')).toEqual([]);
    const id = ((await h.run('@referee /contact list'))[0]?.data as { contacts: { id: string }[] }).contacts[0]?.id;
    await h.run('!tick');
    expect(sketchDms(h, 'alice').map((o) => o.data)).toEqual([expect.objectContaining({ contactId: id, armyId: 'hadewych' })]);
    expect(sketchDms(h, 'bob').map((o) => o.data)).toEqual([expect.objectContaining({ contactId: id, armyId: 'grallune' })]);
    expect(isPng(sketchDms(h, 'bob')[0]?.files?.[0] as string)).toBe(true);
    expectNoSketchInChannel(h);
    // The next tick: missing answers engage, the battle is joined, and its ground goes public once.
    await h.run('!tick');
    expect(sketchDms(h, 'alice')).toHaveLength(1);
    const boards = h.channel().filter((o) => (o.files ?? []).some((f) => /battlefield/.test(f)));
    expect(boards).toHaveLength(1);
    expect(boards[0]?.data).toMatchObject({ kind: 'battlefieldSketch', contactId: id });
    expect(boards[0]?.content).not.toMatch(/\d+\s*(figures?|troops)|%/);
    await h.run('@referee /contact list');
    expect(h.channel().filter((o) => (o.files ?? []).some((f) => /battlefield/.test(f)))).toHaveLength(1);
  });

  it('GIVEN the DM buttons THEN proceeding by button also sends the sketches', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    for (const user of ['alice', 'bob']) {
      const buttons = (h.dms(user).at(-1)?.data as { buttons: { id: string; label: string }[] }).buttons;
      const proceed = buttons.find((b) => b.label.startsWith('Proceed'));
      await contactButtons.execute({ app: h.app, userId: user, customId: proceed?.id ?? '' });
    }
    await h.run('@referee /contact list');
    expect(sketchDms(h, 'alice')).toHaveLength(1);
    expect(sketchDms(h, 'bob')).toHaveLength(1);
    expectNoSketchInChannel(h);
  });

  it('GIVEN the referee resolves step 1 THEN the sketches go out', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@referee /contact resolve');
    expect(sketchDms(h, 'alice')).toHaveLength(1);
    expect(sketchDms(h, 'bob')).toHaveLength(1);
  });

  it('GIVEN autocomplete on card: THEN the caller\'s cards with their cells', async () => {
    const { hh } = await atDecision();
    h = hh;
    const app = h.app;
    const ctx = (userId: string, army?: string): AutocompleteContext => ({
      app, userId, guildId: 'console', channelId: 'console', roleIds: [], subcommand: 'place',
      focused: { name: 'card', value: '' }, string: (n) => (n === 'army' ? army : undefined),
    });
    const mine = await terrain.autocomplete(ctx('alice'));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({ value: '1', name: expect.stringMatching(/^1\. .*: (near|middle|far) (left|centre|right), turned \d+°/) });
    expect(await terrain.autocomplete(ctx('alice', 'grallune'))).toEqual([]);
    expect((await terrain.autocomplete(ctx('referee', 'grallune'))).length).toBeGreaterThan(0);
  });
});

