import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleOutput } from '../../src/console/session.js';
import { campaignState, consoleHarness, hexIdOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
].join('\n');

const errorOf = (o: ConsoleOutput | undefined): unknown => (o?.data as { error?: string } | undefined)?.error;
/** Everything a player or the channel received, as text. */
const playersSaw = (x: Harness): string => x.outputs.filter((o) => o.user !== 'referee').map((o) => `${o.content} ${JSON.stringify(o.data ?? null)}`).join('\n');

describe('GIVEN /army plan with bad input', () => {
  it('WHEN a plan names an unknown place or army, or cannot be walked, THEN each is refused with what is accepted', async () => {
    h = await consoleHarness({ setup: SETUP });
    const cases: [string, string, RegExp][] = [
      ['/army plan army:lizardmen plan:march places:Narnia', 'plan.badPlace', /"Narnia" is neither a hex of this map .* nor a place on it\. Places of this map: Valdheim, Grallhame/],
      ['/army plan army:lizardmen plan:patrol places:"0507 0101"', 'plan.patrolNoRoute', /The patrol cannot be walked: Lizard Men of Skullhaven has no route from 0507 to 0101 \(leg 1 of 2, the circuit returning to its first point\)\. Give points joined by land it can cross\./],
      ['/army plan army:lizardmen plan:patrol places:0810', 'plan.patrolPoints', /A patrol walks between 2 and 8 places \(it got 1\), e\.g\. places:"0712 0915"\./],
      ['/army plan army:lizardmen plan:shadow target:gandalf', 'plan.unknownArmy', /target: there is no army "gandalf" in this campaign\. Enemy armies: .*grallune/],
      ['/army plan army:lizardmen plan:shadow target:hadewych', 'plan.notAnEnemy', /Army of Hadewych is not an enemy of Lizard Men of Skullhaven: a plan shadows an army of a hostile side\./],
      ['/army plan army:lizardmen plan:garrison places:0810', 'plan.notATown', /0810 is not a town: a garrison holds a town, e\.g\. Valdheim \(2317\), Grallhame \(1726\)\./],
      ['/army plan army:lizardmen plan:march places:"0810 0811"', 'plan.onePlace', /A march plan takes one place in `places:` \(it got 2\); only a patrol takes several\./],
      ['/army plan army:lizardmen plan:march', 'plan.placeMissing', /A march plan needs its destination: `places:`/],
      ['/army plan army:lizardmen plan:hold target:grallune', 'plan.extraTarget', /`target:` is for a shadow plan only/],
      // The transport checks a choice against the command's list (the use-case refuses them too, for any transport that does not).
      ['/army plan army:lizardmen plan:dance', 'console.badValue', /"dance" is not a valid plan; choose one of show, clear, hold, march, patrol, shadow, withdraw, garrison\./],
      ['/army plan army:lizardmen plan:hold contact:charge', 'console.badValue', /"charge" is not a valid contact; choose one of evade, delay, referee\./],
      ['/army plan army:nobody plan:hold', 'army.unknown', /There is no army "nobody" in this campaign\. Army ids: /],
      ['/army plan army:lizardmen plan:clear', 'plan.none', /Lizard Men of Skullhaven has no plan to clear\./],
    ];
    for (const [line, code, text] of cases) {
      const [answer] = await h.run(`@referee ${line}`);
      expect(answer?.to, line).toBe('ephemeral');
      expect(errorOf(answer), line).toBe(code);
      expect(answer?.content, line).toMatch(text);
    }
    // A player may not set plans; nothing was stored.
    const [player] = await h.run('@alice /army plan army:hadewych plan:hold');
    expect(errorOf(player)).toBe('campaign.refereeOnly');
    expect(campaignState(h).plans).toEqual({});
  });
});

describe('GIVEN armies nobody commands with plans', () => {
  it('WHEN ticks are played THEN they follow them, the referee is told each decision with its reason, and no player learns a plan', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start');
    const set = await h.run('@referee /army plan army:lizardmen plan:patrol places:"0507 0607"');
    expect(set[0]?.content).toBe([
      '**Lizard Men of Skullhaven** will follow this plan: patrol 0507 → 0607 → 0507; contacts: engage when its estimate says it is the stronger, else evade.',
      'Nobody commands it: it follows the plan from now on.',
      'Plan of Lizard Men of Skullhaven (patrol 0507 → 0607 → 0507): Lizard Men of Skullhaven marches to 0607: the next point of its patrol is 0607.',
    ].join('\n'));
    await h.run('@referee /army plan army:heagh plan:garrison places:Grallhame contact:referee');
    // A commanded army's plan waits until it is under standing orders.
    const waits = await h.run('@referee /army plan army:grallune plan:hold');
    expect(waits[0]?.content).toContain('It has a commander, who gives its orders: it follows the plan only under standing orders (`standing:true`) or once nobody commands it.');
    expect(campaignState(h).orders['grallune']).toBeUndefined();
    const standing = await h.run('@referee /army plan army:grallune plan:hold standing:true');
    expect(standing[0]?.content).toContain('It is under standing orders: it follows the plan although it has a commander.');
    expect(campaignState(h).orders['grallune']).toMatchObject({ kind: 'rest', givenBy: 'plan' });
    for (let i = 0; i < 8; i++) await h.run('!tick');
    expect(['0507', '0607']).toContain(hexIdOf(h, 'lizardmen'));
    // The referee's tick DMs carry the plans' decisions as they change, each with its reason.
    const refDms = h.dms('referee').map((o) => o.content).join('\n');
    expect(refDms).toContain('Plan of Lizard Men of Skullhaven (patrol 0507 → 0607 → 0507): Lizard Men of Skullhaven marches to 0507: the next point of its patrol is 0507.');
    expect(refDms).toContain('Plan of Lizard Men of Skullhaven (patrol 0507 → 0607 → 0507): Lizard Men of Skullhaven marches to 0607: the next point of its patrol is 0607.');
    const show = await h.run('@referee /army plan army:lizardmen');
    expect(show[0]?.content).toMatch(/^\*\*Lizard Men of Skullhaven\*\*'s plan: patrol 0507 → 0607 → 0507; contacts: engage when its estimate says it is the stronger, else evade\.\nNobody commands it: it follows the plan from now on\.\nIts order now: (move|rest) \(from the plan\)\.$/);
    // The inbox lists what the armies following plans are doing.
    const inbox = (await h.run('@referee /referee inbox'))[0]?.content ?? '';
    expect(inbox).toContain('**Armies following plans (3)**');
    expect(inbox.split('**Armies following plans (3)**')[1]?.replace(/^[:\s]+/, '').replace(/\n│ /g, '\n').replace(/^│ /gm, '').split('\n').slice(0, 3).join('\n')).toMatch(/^Army of Grallune: hold; contacts: .* \(now resting at 1826\)\nHighlanders of The Heagh: garrison Grallhame \(1726\); contacts: every contact waits for the referee \(now marching to 1726\)\nLizard Men of Skullhaven: patrol 0507 → 0607 → 0507; contacts: .* \(now (marching to|resting at) 0[56]07\)$/);
    // Nothing of the plans reached a player or the channel.
    expect(playersSaw(h)).not.toMatch(/plan|patrol|garrison|standing orders/i);
    const cleared = await h.run('@referee /army plan army:lizardmen plan:clear');
    expect(cleared[0]?.content).toBe('**Lizard Men of Skullhaven**\'s plan is cleared with the order it gave: it holds until it is given orders.');
    expect(campaignState(h).orders['lizardmen']).toBeUndefined();
  }, 120_000);
});
