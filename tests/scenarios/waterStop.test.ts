import { afterEach, describe, expect, it } from 'vitest';
import { campaignState, hexIdOf, consoleHarness, type Harness } from './harness.js';

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign assign army:noerdenheim user:jarl',
  '@referee /campaign assign army:throrgrmir user:harbard',
  '@referee /campaign start',
].join('\n');
const FAIR = '@referee /weather set fog:false wind:none';

let h: Harness | undefined;
afterEach(() => h?.close());

const state = campaignState;
const hexOf = hexIdOf;

describe('stopping a fleet under way', () => {
  it('GIVEN Aeskrvald sailing for Skullhaven WHEN the prince gives /sail stop:true THEN the fleet lies hove to where it is, the army stays aboard and the next ticks do not move it', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    await h.run(FAIR, '@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"', '@prince /sail army:aeskrvald to:0506');
    await h.run('!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('2102');

    const [stopped] = await h.run('@prince /sail army:aeskrvald stop:true');
    expect(stopped).toMatchObject({ to: 'ephemeral', data: { armyId: 'aeskrvald', hex: '2102', berth: 'atSea' } });
    expect(stopped?.content).toContain('the voyage to 0506 is cancelled');
    expect(stopped?.content).toContain('hove to at sea at 2102, in coastal waters');
    expect(stopped?.content).toContain('the army stays aboard');
    expect(stopped?.content).toContain('sail to a coast hex or a port first');
    expect(state(h).orders['aeskrvald']).toMatchObject({ kind: 'sail', path: [] });

    for (let i = 0; i < 2; i++) await h.run(FAIR, '!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('2102');
    expect(state(h).armies['aeskrvald']?.status.embarked).toBe(true);
    expect(h.channel().filter((c) => c.content.includes('fleet sailed'))).toHaveLength(1);

    // A new voyage sails on from there.
    const [again] = await h.run('@prince /sail army:aeskrvald to:0506');
    expect(again?.content).toContain('Sail order for Army of Aeskrvald');
    await h.run(FAIR, '!tick');
    expect(hexOf(h, 'aeskrvald')).not.toBe('2102');
  });

  it('GIVEN a fleet under way WHEN its commander gives /hold THEN it stops just as /sail stop:true does; /rest and /move stay refused aboard ship', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    await h.run(FAIR, '@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"', '@prince /sail army:aeskrvald to:0506');
    await h.run('!tick', FAIR, '!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('1802');

    const [held] = await h.run('@prince /hold army:aeskrvald');
    expect(held).toMatchObject({ to: 'ephemeral', data: { armyId: 'aeskrvald', hex: '1802', berth: 'atSea' } });
    expect(held?.content).toContain('the voyage to 0506 is cancelled');
    expect(held?.content).toContain('hove to at sea at 1802');
    await h.run(FAIR, '!tick');
    expect(hexOf(h, 'aeskrvald')).toBe('1802');
    expect(state(h).armies['aeskrvald']?.status.embarked).toBe(true);

    // Nothing left to stop: /hold again says where the fleet lies.
    const [idle] = await h.run('@prince /hold army:aeskrvald');
    expect(idle?.content).toContain('had no voyage under way; it lies hove to at sea at 1802');

    const [rest] = await h.run('@prince /rest army:aeskrvald');
    expect(rest).toMatchObject({ to: 'ephemeral', data: { error: 'rest.embarked' } });
    const [move] = await h.run('@prince /move army:aeskrvald to:2306');
    expect(move).toMatchObject({ to: 'ephemeral', data: { error: 'move.embarked' } });
  });

  it('GIVEN a fleet docked at East Port with no voyage WHEN the referee stops it THEN the answer says it lies in port, by the referee', async () => {
    h = await consoleHarness({ seed: 7, setup: SETUP });
    await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"');
    const [docked] = await h.run('@referee /sail army:aeskrvald stop:true');
    expect(docked).toMatchObject({ to: 'ephemeral', data: { berth: 'docked', cancelled: [] } });
    expect(docked?.content).toContain('(by the referee)');
    expect(docked?.content).toContain('docked in the port of East Port (2304)');
  });
});

describe('refusals', () => {
  it('GIVEN the various wrong uses THEN each is refused with its reason and nothing changes', async () => {
    h = await consoleHarness({ seed: 3, setup: SETUP });
    await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"', '@prince /sail army:aeskrvald to:0506');

    const [both] = await h.run('@prince /sail army:aeskrvald stop:true to:0506');
    expect(both).toMatchObject({ to: 'ephemeral', data: { error: 'sail.stopAndRoute' } });
    expect(state(h).orders['aeskrvald']).toMatchObject({ kind: 'sail', path: expect.arrayContaining([expect.anything()]) });

    const [ashore] = await h.run('@harbard /sail army:throrgrmir stop:true');
    expect(ashore).toMatchObject({ to: 'ephemeral', data: { error: 'sail.notEmbarked' } });
    expect(ashore?.content).toContain('/hold');

    // Longships on the canal lie on the bank; set down in open sea by the referee they cannot stay.
    await h.run('@referee /army edit army:noerdenheim hex:3409', '@jarl /embark army:noerdenheim vessels:longship=9');
    const [river] = await h.run('@jarl /sail army:noerdenheim stop:true');
    expect(river?.content).toContain('drawn up on the bank of the Canal of the Greater Race at 3409');
    await h.run('@referee /army edit army:noerdenheim hex:2501');
    for (const cmd of ['/sail army:noerdenheim stop:true', '/hold army:noerdenheim']) {
      const [refused] = await h.run(`@jarl ${cmd}`);
      expect(refused).toMatchObject({ to: 'ephemeral', data: { error: 'sail.cannotStop' } });
      expect(refused?.content).toContain('cannot lie at 2501: it is open sea beyond coastal waters, where longships may not go');
    }
  });
});
