import { afterEach, describe, expect, it } from 'vitest';
import { campaignState, hexIdOf, valormrMap, consoleHarness, type Harness } from './harness.js';

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign assign army:noerdenheim user:jarl',
  '@referee /campaign assign army:throrgrmir user:harbard',
  '@referee /campaign assign army:lizardmen user:ssessik',
  '@referee /campaign start',
].join('\n');
const FAIR = '@referee /weather set fog:false wind:none';

let h: Harness | undefined;
afterEach(() => h?.close());

const state = campaignState;
const hexOf = hexIdOf;
const map = valormrMap;

describe('a sea voyage: embark, sail through a night, fog in port, debark', () => {
  it('GIVEN Aeskrvald at East Port WHEN it embarks, waits out the fog, sails to Skullhaven and lands THEN each step follows the waterborne rules', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    const refused = await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=4"');
    expect(refused.at(-1)).toMatchObject({ to: 'ephemeral', data: { error: 'embark.notEnoughCapacity' } });
    expect(refused.at(-1)?.content).toContain('4 troop transports x 3 = 12 figure(s)');

    const [embarked] = await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"');
    expect(embarked?.to).toBe('ephemeral');
    expect(embarked?.content).toContain('1 galley x 0 + 9 troop transports x 3 = 27 figure(s)');
    expect(embarked?.content).toContain('Second Regiment (14)');

    const [sail] = await h.run('@prince /sail army:aeskrvald to:0506');
    expect(sail?.content).toContain('- Day 1, morning: 2303, 2202, 2102');
    expect(sail?.content).toContain('- Day 1, night: 1402, 1302, 1202');
    expect(sail?.content).toContain('Arrives Day 2, evening (7 half period(s)');

    await h.run('@referee /weather set fog:true');
    const [foggy] = await h.run('@prince /sail army:aeskrvald to:0506');
    expect(foggy?.content).toMatch(/port is closed to seagoing ships/);

    // Fog in port: the fleet cannot leave.
    await h.run('!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('2304');
    expect(h.dms('prince').at(-1)?.content).toMatch(/closed to seagoing ships/);

    // Fair weather: three hexes each half period, day and night.
    for (let i = 0; i < 3; i++) await h.run(FAIR, '!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('1503');
    for (let i = 0; i < 4; i++) await h.run(FAIR, '!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('0506');
    expect(state(h).clock).toEqual({ day: 3, half: 0 });
    expect(h.dms('prince').some((d) => d.content.includes('has arrived: land with /debark'))).toBe(true);
    // The lizard men at 0507 see the fleet come in: reported, not fought.
    expect(h.channel().some((c) => c.content.includes('are in sight of each other') && c.content.includes('Ssessik'))).toBe(true);

    const tooFar = await h.run('@prince /debark army:aeskrvald hex:0508');
    expect(tooFar.at(-1)).toMatchObject({ data: { error: 'debark.tooFar' } });
    const [landed] = await h.run('@prince /debark army:aeskrvald hex:0506');
    expect(landed?.content).toContain('landed at 0506');
    expect(landed?.content).toMatch(/does not march until its other regiments arrive by shuttle/);
    expect(state(h).armies['aeskrvald']?.status.embarked).toBe(false);
    expect(state(h).orders['aeskrvald']?.kind).toBe('debark');
  });
});

describe('a river voyage blocked by a cataract', () => {
  it('GIVEN the Northmen on the old canal WHEN they sail for the falls THEN the cataract stops them; between the falls they row by day', async () => {
    h = await consoleHarness({ seed: 3, setup: SETUP });
    await h.run('@referee /army edit army:noerdenheim hex:3409');
    const [emb] = await h.run('@jarl /embark army:noerdenheim vessels:longship=9');
    expect(emb?.content).toContain('9 longships x 2 = 18 figure(s)');
    const blocked = await h.run('@jarl /sail army:noerdenheim path:"3410 3311"');
    expect(blocked.at(-1)).toMatchObject({ to: 'ephemeral', data: { error: 'sail.cataract' } });
    expect(blocked.at(-1)?.content).toContain('Cataract at 3311');
    const noRoute = await h.run('@jarl /sail army:noerdenheim to:3312');
    expect(noRoute.at(-1)).toMatchObject({ data: { error: 'sail.noRoute' } });
    const sea = await h.run('@jarl /sail army:noerdenheim to:3404');
    expect(sea.at(-1)).toMatchObject({ data: { error: 'sail.noRoute' } });
    const [ok] = await h.run('@jarl /sail army:noerdenheim path:3410');
    expect(ok?.content).toContain('Day 1, morning: 3410');
    await h.run(FAIR, '!tick');
    expect(hexOf(h, 'noerdenheim')).toBe('3410');
  });
});

describe('couriers', () => {
  async function courierAtNight(): Promise<{ h: Harness; hex: string }> {
    const x = await consoleHarness({ seed: 5, setup: SETUP });
    await x.run(FAIR, '!tick');
    const [sent] = await x.run('@prince /courier send from-army:aeskrvald to-army:throrgrmir message:"Meet us at Valdheim on the third day."');
    expect(sent?.to).toBe('ephemeral');
    expect(sent?.content).toMatch(/Courier k\d+ sent/);
    await x.run(FAIR, '!tick');
    const c = Object.values(state(x).couriers)[0];
    if (!c) throw new Error('no courier');
    const hex = map.format(c.hex);
    expect(c.status).toBe('travelling');
    // Couriers never show in the channel.
    expect(x.channel().some((o) => o.content.includes('Valdheim on the third day'))).toBe(false);
    return { h: x, hex };
  }

  it('GIVEN a courier resting for the night WHEN the lizard men come upon it and roll a 5 THEN they read the message and the sender hears only that it has not arrived', async () => {
    const run = await courierAtNight();
    h = run.h;
    await h.run(`@referee /army edit army:lizardmen hex:${run.hex}`);
    h.script.push(5);
    await h.run(FAIR, '!tick');
    expect(Object.values(state(h).couriers)[0]?.status).toBe('captured');
    expect(h.dms('ssessik').at(-1)?.content).toContain('Meet us at Valdheim on the third day.');
    expect(h.dms('harbard').some((d) => d.content.includes('Valdheim on the third day'))).toBe(false);
    for (let i = 0; i < 6; i++) await h.run(FAIR, '!tick');
    const told = h.dms('prince').filter((d) => d.content.includes('has not arrived'));
    expect(told).toHaveLength(1);
    expect(told[0]?.content).not.toContain('Valdheim on the third day');
  });

  it('GIVEN a courier resting for the night WHEN the lizard men come upon it and it rolls a 6 THEN it escapes and is delivered with the times sent and received', async () => {
    const run = await courierAtNight();
    h = run.h;
    await h.run(`@referee /army edit army:lizardmen hex:${run.hex}`);
    h.script.push(6);
    await h.run(FAIR, '!tick');
    expect(Object.values(state(h).couriers)[0]?.status).toBe('travelling');
    for (let i = 0; i < 3; i++) await h.run(FAIR, '!tick');
    expect(Object.values(state(h).couriers)[0]?.status).toBe('delivered');
    const dm = h.dms('harbard').find((d) => d.content.includes('Meet us at Valdheim'));
    expect(dm?.content).toContain('sent Day 1, afternoon');
    expect(dm?.content).toMatch(/received Day 2, (morning|afternoon)/);
    expect(h.dms('ssessik').some((d) => d.content.includes('Valdheim on the third day'))).toBe(false);
  });

  it('refuses a message over 1,500 characters', async () => {
    h = await consoleHarness({ seed: 5, setup: SETUP });
    const out = await h.run(`@prince /courier send from-army:aeskrvald to-army:throrgrmir message:"${'x'.repeat(1501)}"`);
    // The transport checks the option's length first (Discord does too); the use-case refuses it as well.
    expect(out.at(-1)?.to).toBe('ephemeral');
    expect(['console.badValue', 'courier.tooLong']).toContain((out.at(-1)?.data as { error: string }).error);
    expect(out.at(-1)?.content).toMatch(/1,?500/);
    expect(Object.keys(state(h).couriers)).toHaveLength(0);
  });
});
