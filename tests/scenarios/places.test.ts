import { afterEach, describe, expect, it } from 'vitest';
import { armyChoices, placeChoices } from '../../src/app/autocomplete.js';
import { placesOf } from '../../src/app/places.js';
import { consoleHarness, valormrMap, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign start',
].join('\n');

const hexOf = (name: string): string => {
  const p = placesOf(valormrMap).find((x) => x.name === name);
  if (!p) throw new Error(`no place ${name}`);
  return p.id;
};
const last = (out: { data?: unknown }[]): { plan?: { steps: { hex: string }[] }; error?: string; details?: Record<string, unknown> } => (out.at(-1)?.data ?? {}) as never;
const where = { userId: 'alice', guildId: 'console', channelId: 'console', roleIds: [] };

describe('place names in to: and path:', () => {
  it('GIVEN a town\'s name THEN /move routes to its hex, whatever the case and accents', async () => {
    h = await consoleHarness({ setup: SETUP });
    const valdheim = hexOf('Valdheim');
    const exact = await h.run('@alice /move army:hadewych to:Valdheim');
    expect(last(exact).plan?.steps.at(-1)?.hex).toBe(valdheim);
    const forgiving = await h.run('@alice /move army:hadewych to:"VALDHÉIM"');
    expect(last(forgiving).plan?.steps.at(-1)?.hex).toBe(valdheim);
    // A name of two words, unquoted inside a path with hex ids.
    const path = await h.run('@alice /move army:hadewych path:"0817 0918 1017"');
    expect(last(path).plan?.steps.map((s) => s.hex)).toEqual(['0817', '0918', '1017']);
  });

  it('GIVEN a port\'s name THEN /sail takes it as the destination', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"');
    const [sail] = await h.run('@prince /sail army:aeskrvald to:skullhaven');
    expect(sail?.content).toContain('Sail order for Army of Aeskrvald');
    expect((sail?.data as { path: string[] }).path.at(-1)).toBe(hexOf('Skullhaven'));
  });

  it('GIVEN a name several places share THEN it is refused with each candidate and the exact form to type', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [refused] = await h.run('@alice /move army:hadewych to:throrgrmir');
    expect(refused?.data).toMatchObject({ error: 'place.ambiguous' });
    expect(refused?.content).toContain(`Throrgrmir Citadel (fortification, ${hexOf('Throrgrmir Citadel')}): \`to:"Throrgrmir Citadel"\``);
    expect(refused?.content).toContain('Throrgrmir Valley (region,');
    expect(refused?.content).toContain('Throrgrmir Massif (region,');
  });

  it('GIVEN a name of no place THEN it is refused, naming the nearest places', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [typo] = await h.run('@alice /move army:hadewych to:Valdhem');
    expect(typo?.data).toMatchObject({ error: 'move.badHex' });
    expect(typo?.content).toContain(`Did you mean Valdheim (town, ${hexOf('Valdheim')}): \`to:Valdheim\``);
    const [unknown] = await h.run('@alice /move army:hadewych to:Atlantis');
    expect(unknown?.content).toMatch(/"Atlantis" is neither a hex of this map \(ids like 0712.*\) nor a place on it\. Places of this map: .*Valdheim/);
    const [badId] = await h.run('@alice /move army:hadewych to:9999');
    expect(badId?.content).toContain('"9999" is not a hex of this map');
  });

  it('GIVEN autocomplete THEN places come with their hex ids, and a player\'s own armies first', async () => {
    h = await consoleHarness({ setup: SETUP });
    // Towns first; a later word of a name matches too ("Throrgrmir Valley").
    expect(placeChoices(h.app, where, 'val')).toEqual([{ name: `Valdheim (town, ${hexOf('Valdheim')})`, value: hexOf('Valdheim') }, { name: `Throrgrmir Valley (region, ${hexOf('Throrgrmir Valley')})`, value: hexOf('Throrgrmir Valley') }]);
    expect(placeChoices(h.app, where, 'east').map((c) => c.name)).toContain(`East Port (port, ${hexOf('East Port')})`);
    expect(placeChoices(h.app, where, '0816')[0]).toEqual({ name: '0816 (The Keep)', value: '0816' });
    await h.run('@referee /campaign assign army:grallune user:referee');
    const ref = armyChoices(h.app, { ...where, userId: 'referee' }, '');
    expect(ref[0]).toEqual({ name: 'yours: Army of Grallune (Ingegerd)', value: 'grallune' });
    expect(ref.length).toBe(24);
  });
});

describe('refusals that point the way', () => {
  it('GIVEN a player with two armies WHEN army: is left out, wrong or not theirs THEN the refusal names their armies as they would type them', async () => {
    h = await consoleHarness({ setup: `${SETUP}\n@referee /campaign assign army:solon user:alice` });
    const [missing] = await h.run('@alice /move to:0913');
    expect(missing?.content).toBe('Say which army: you command Army of Hadewych (`army:hadewych`) and Army of Solon Theros (`army:solon`).');
    const [wrong] = await h.run('@alice /move army:hadewich to:0913');
    expect(wrong?.content).toBe('There is no army "hadewich" in this campaign. You command Army of Hadewych (`army:hadewych`) and Army of Solon Theros (`army:solon`).');
    const [notYours] = await h.run('@alice /army status army:aeskrvald');
    expect(notYours?.content).toBe('Army of Aeskrvald is not your army. You command Army of Hadewych (`army:hadewych`) and Army of Solon Theros (`army:solon`).');
    // One army: army: may be left out, on ships too.
    const [embark] = await h.run('@prince /embark vessels:"troopTransport=9,galley=1"');
    expect(embark?.content).toContain('Army of Aeskrvald embarks');
  });
});
