import { afterEach, describe, expect, it } from 'vitest';
import { claimButton } from '../../src/app/table/seat.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { consoleText } from '../../src/console/consoleText.js';
import { autumnWar, campaignState, consoleHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

// alice holds two Chaos armies; bob a Law army, carol an Elf army (both hostile to Chaos);
// erin a Chaos army (a friend of Hadewych's side); dave nothing.
const SETUP = autumnWar({ hadewych: 'alice', solon: 'alice', aeskrvald: 'bob', elding: 'carol', annemie: 'erin' }, '@referee /campaign settings absent-after:2', '@referee /campaign start');

const commanders = (x: Harness, armyId: string): string[] =>
  readCampaign(x.app, { actor: { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] } }, (tx) => tx.members)
    .filter((m) => m.role === 'commander' && m.armyId === armyId).map((m) => m.userId);

/** The Claim button's id of the last offer in the channel's replies. */
async function offer(x: Harness, armyId: string): Promise<string> {
  const out = await x.run(`@referee /seat offer army:${armyId}`);
  const data = out[0]?.data as { button?: string } | undefined;
  if (!data?.button) throw new Error(`no offer: ${out[0]?.content}`);
  return data.button;
}

/** Presses a Claim button as `user` and returns the answers (refusals as their text). */
function press(x: Harness, user: string, id: string): string {
  try {
    return claimButton(x.app, user, user, id).map((r) => r.content).join('\n');
  } catch (err) {
    return (err as Error).message;
  }
}

/** Two half periods in which bob, carol and erin are ready and alice says nothing: her armies are under standing orders. */
async function aliceAbsent(x: Harness): Promise<void> {
  for (let i = 0; i < 2; i++) await x.run('@bob /ready', '@carol /ready', '@erin /ready', '!tick');
}

describe('GIVEN an absent commander and /seat', () => {
  it('WHEN the referee offers the seat THEN a Claim button is posted; an enemy\'s claim, a withdrawn offer\'s button and an unknown army are refused; a claim makes the claimer that army\'s commander and nothing else of the old commander\'s', async () => {
    h = await consoleHarness({ setup: SETUP });
    await aliceAbsent(h);
    expect(campaignState(h).armies.hadewych?.seat?.standing).toBe(true);

    // A present commander's army is not offered.
    expect((await h.run('@referee /seat offer army:aeskrvald'))[0]?.content).toContain('Army of Aeskrvald is already seated: bob commands it and is not absent');
    // An unknown army: the ids are listed.
    expect((await h.run('@referee /seat offer army:nowhere'))[0]?.content).toMatch(/There is no army "nowhere" in this campaign\. Army ids: .*hadewych/);
    // Only the referee offers.
    expect((await h.run('@dave /seat offer army:hadewych'))[0]?.content).toBe('Only the referee can offer or give seats.');

    const first = await offer(h, 'hadewych');
    const offered = h.outputs.filter((o) => o.to === 'reply' && o.content.includes('The seat of **Army of Hadewych** is offered'));
    expect(offered).toHaveLength(1);
    expect(offered[0]?.content).toContain('(alice is absent)');
    expect(offered[0]?.content).toContain('`/seat claim army:hadewych`');
    // Offered twice: refused.
    expect((await h.run('@referee /seat offer army:hadewych'))[0]?.content).toContain('is already offered; `/seat withdraw army:hadewych` takes the offer back');

    // bob (Law) and carol (Elves) command enemies of Chaos: refused, saying what is accepted.
    expect(press(h, 'bob', first)).toBe('You already command Army of Aeskrvald, of a side hostile to Army of Hadewych\'s: a substitute may only hold armies of their own side or of sides not at war with it. Offer the seat to someone else, or free Army of Aeskrvald first (`/campaign assign army:aeskrvald remove:true`).');
    expect(press(h, 'carol', first)).toContain('You already command');
    // alice herself: her next order takes it back.
    expect(press(h, 'alice', first)).toBe('Army of Hadewych is already yours: your next order takes it back from standing orders.');
    // The referee names an enemy: refused the same way.
    expect((await h.run('@referee /seat offer army:hadewych user:bob'))[0]?.content).toContain('bob already commands Army of Aeskrvald, of a side hostile to Army of Hadewych\'s');

    // Withdrawn: the old button no longer claims, even once the seat is offered again.
    expect((await h.run('@referee /seat withdraw army:hadewych'))[0]?.content).toBe('The offer of the seat of **Army of Hadewych** is withdrawn.');
    expect(press(h, 'dave', first)).toContain('This offer of the seat of Army of Hadewych was withdrawn by the referee');
    expect((await h.run('@dave /seat claim army:hadewych'))[0]?.content).toContain('The seat of Army of Hadewych is not offered (or the offer was withdrawn)');
    expect((await h.run('@referee /seat withdraw army:hadewych'))[0]?.content).toContain('is not offered: there is nothing to withdraw');
    const second = await offer(h, 'hadewych');
    expect(press(h, 'dave', first)).toContain('was withdrawn by the referee');
    expect(commanders(h, 'hadewych')).toEqual(['alice']);

    // dave claims with the new button.
    const answer = press(h, 'dave', second);
    expect(answer).toContain('Claimed: dave takes the seat of **Army of Hadewych** as substitute.');
    expect(answer).toContain('You hold the seat of **Army of Hadewych** (`hadewych`) as substitute');
    await h.deliver();
    expect(commanders(h, 'hadewych')).toEqual(['dave']);
    expect(commanders(h, 'solon')).toEqual(['alice']);
    expect(h.dms('dave').some((o) => o.content.includes('You command **Army of Hadewych** (`hadewych`)'))).toBe(true);
    expect(campaignState(h).armies.hadewych?.seat).toMatchObject({ standing: true, substitute: { userId: 'dave', previous: [{ userId: 'alice', name: 'alice' }] } });
    expect(campaignState(h).armies.hadewych?.seat?.offer).toBeUndefined();

    // The seat is taken: a second claim (erin, a friend) and a new offer are refused.
    expect(press(h, 'erin', second)).toContain('Army of Hadewych is already seated: dave holds it as substitute since');
    expect((await h.run('@referee /seat offer army:hadewych'))[0]?.content).toContain('Army of Hadewych is already seated: dave holds it as substitute');

    // dave reads that army and only it; alice no longer orders it but keeps Solon.
    expect((await h.run('@dave /intel army:hadewych'))[0]?.content).toContain('Intelligence of **Army of Hadewych**');
    expect((await h.run('@dave /intel army:solon'))[0]?.content).toContain('Army of Solon Theros is not your army. You command Army of Hadewych (`army:hadewych`).');
    expect((await h.run('@alice /rest army:hadewych'))[0]?.content).toContain('Army of Hadewych is not your army. You command Army of Solon Theros (`army:solon`).');

    // dave's first order: the army leaves standing orders at the tick.
    await h.run('@dave /rest army:hadewych', '@bob /ready', '@carol /ready', '@erin /ready', '@alice /rest army:solon', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toMatchObject({ missed: 0, substitute: { userId: 'dave' } });
    expect(campaignState(h).armies.hadewych?.seat?.standing).toBeUndefined();

    // The referee gives the seat back: alice commands it again, under standing orders until her next order.
    expect((await h.run('@referee /seat give-back army:hadewych'))[0]?.content).toBe('dave\'s time as substitute of **Army of Hadewych** ends: the seat goes back to alice.');
    expect(commanders(h, 'hadewych')).toEqual(['alice']);
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 0, standing: true });
    expect((await h.run('@dave /intel army:hadewych'))[0]?.content).toContain('You command no army in this campaign');
    expect((await h.run('@referee /seat give-back army:hadewych'))[0]?.content).toContain('Army of Hadewych has no substitute');
  });

  it('WHEN the referee names a friendly substitute for an army nobody commands THEN they hold it at once, and it is seated', async () => {
    h = await consoleHarness({ setup: SETUP });
    const out = await h.run('@referee /seat offer army:minke user:erin');
    expect(out[0]?.content).toBe('erin now holds the seat of **Army of Minke Meine** (`minke`) as substitute. They read only what this army knows (`/intel army:minke`).');
    expect(commanders(h, 'minke')).toEqual(['erin']);
    expect(commanders(h, 'annemie')).toEqual(['erin']);
    expect((await h.run('@referee /seat offer army:minke user:dave'))[0]?.content).toContain('already seated: erin holds it as substitute');
    // Give back with nobody before: the army is free again.
    expect((await h.run('@referee /seat give-back army:minke'))[0]?.content).toBe('erin\'s time as substitute of **Army of Minke Meine** ends: nobody commands it now.');
    expect(commanders(h, 'minke')).toEqual([]);
  });
});

describe('a substitute whose display name holds markdown or a mention', () => {
  it('GIVEN dave, shown as "**Dave** <@&1> _x_", claims the seat THEN the answer escapes the name (its bold and the role mention stay text on Discord) and the console shows it as typed', async () => {
    h = await consoleHarness({ setup: SETUP });
    await aliceAbsent(h);
    const id = await offer(h, 'hadewych');
    const [answer] = claimButton(h.app, 'dave', '**Dave** <@&1> _x_', id);
    expect(answer?.content).toContain('\\*\\*Dave\\*\\* \\<\\@&1\\> \\_x\\_ takes the seat of **Army of Hadewych** as substitute.');
    expect(consoleText(answer!, new Date(), 'UTC')).toContain('**Dave** <@&1> _x_ takes the seat of **Army of Hadewych** as substitute.');
  });
});
