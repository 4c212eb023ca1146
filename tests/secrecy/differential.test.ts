import fc from 'fast-check';
import type Sharp from 'sharp';
import type * as RenderModule from '../../src/render/index.js';
import { describe, expect, it, vi } from 'vitest';
import { neighbours, parseHex, formatHex } from '../../src/engine/hex/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { FAR_HEXES, script, TACTICALS } from './campaignScript.js';
import { SPECTATOR_PAGE, webName, webPageOf, type WebPageReader } from './webReader.js';
import { autocompletingOptions, CHANNEL_READER, firstDifference, playWorld, player, type Reader, type Script, TYPED, type Variation, type World } from './worlds.js';

/*
 * Issue 23, item 5: one campaign that reaches contacts, a battle, a courier, ships, undo and
 * exports, played in two worlds that differ only in facts hidden from a reader: alice (Hadewych,
 * chaos), bob (Grallune, law), carol (Aeskrvald, law) or the channel. Every byte each of them
 * receives must be the same in both worlds. The facts (fast-check picks their values):
 * - the figures of Grunnthraesir (an elven army none of them meets); in fog of war also where it
 *   stands and where it marches (it is hidden from them all);
 * - in fog, a contact between other sides (Grunnthraesir and the Lizard Men, who have no
 *   commander): there in one world, not in the other, or met in another place (the battle moved);
 * - the values of the secret dice (the campaign's secret master): what decides estimates, scouts
 *   and contact dice. Carol is in no contact and, in fog, the channel hears of none.
 * Where fast-check picks the facts it also picks the table the battle is fought on (Valormr's, the
 * 002 chapter's or Fantasy Warlord's): the briefing, the sketch and the deployment read the state
 * through the tactical profile, and secrets must be kept at every table.
 * The web pages are readers too (issue 28; webReader.ts), in every test: each commander's page
 * and the spectators' (for the channel), dave's once he holds the seat. What their routes serve
 * (status, headers, bodies; every past day's frame; requests for what is not theirs) and every
 * event of their live streams, checked after each line, must be the same bytes in both worlds; so
 * must how often the server worked each page out anew, and its answers to revalidations (304s).
 * Each distinct picture is drawn, scaled and cut once in the file (drawnOnce.ts).
 */

// Each distinct picture drawn, scaled and cut once in the file (drawnOnce.ts): both worlds, and many tests, ask for the same ones.
vi.mock('../../src/render/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof RenderModule>();
  return { ...real, renderMap: (await import('./drawnOnce.js')).mapsDrawnOnce(real.renderMap) };
});
vi.mock('sharp', async (importOriginal) => {
  const real = await importOriginal<{ default: typeof Sharp }>();
  return { ...real, default: (await import('./drawnOnce.js')).sharpOnce(real.default) };
});

const HIDDEN = 'grunnthraesir';

interface Hidden {
  readonly hex: string;
  /** The hidden army's figures, per company (each at least 1). */
  readonly figures: number;
  /** Which neighbour of its hex it marches to (fog), or none (it rests). */
  readonly march: number | undefined;
}

const hexOf = (id: string) => {
  const hex = parseHex(id);
  if (!hex) throw new Error(id);
  return hex;
};

function placed(state: CampaignState, armyId: string, hexId: string): CampaignState {
  const army = state.armies[armyId];
  if (!army) throw new Error(`no ${armyId}`);
  return { ...state, armies: { ...state.armies, [armyId]: { ...army, hex: hexOf(hexId) } } };
}

function marching(state: CampaignState, armyId: string, to: string): CampaignState {
  const order = { kind: 'move', armyId, givenBy: 'referee', givenAt: state.clock, period: 'day', path: [hexOf(to)], forced: false, unformed: false, save: false } as const;
  return { ...state, orders: { ...state.orders, [armyId]: order } };
}

const hiddenArmy = (fog: boolean): Variation<Hidden> => ({
  name: fog ? 'an unseen enemy: its figures, where it stands and where it marches' : "an enemy's figures",
  hiddenFrom: ['alice', 'bob', 'carol', 'channel'],
  apply(state: CampaignState, v: Hidden): CampaignState {
    const army = state.armies[HIDDEN];
    if (!army) throw new Error('no hidden army');
    const regiments = army.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, figures: v.figures })) }));
    const s = { ...state, armies: { ...state.armies, [HIDDEN]: { ...army, regiments } } };
    if (!fog) return s;
    const there = placed(s, HIDDEN, v.hex);
    const to = neighbours(hexOf(v.hex))[v.march ?? 0];
    return v.march === undefined || !to ? there : marching(there, HIDDEN, formatHex(to));
  },
});

/** Where the hidden contact is made: nowhere, or at one of two places (the Lizard Men next to Grunnthraesir). */
type HiddenContact = 'none' | 'north' | 'south';
const CONTACT_PLACES: Record<Exclude<HiddenContact, 'none'>, { elves: string; lizardmen: string }> = {
  north: { elves: '1608', lizardmen: '1607' },
  south: { elves: '1708', lizardmen: '1709' },
};

const hiddenContact: Variation<HiddenContact> = {
  name: 'a contact between other sides (none, or made in another place)',
  // Alice commands a chaos army, and her side's armies are her own to see: the Lizard Men are chaos.
  hiddenFrom: ['bob', 'carol', 'channel'],
  apply(state: CampaignState, v: HiddenContact): CampaignState {
    if (v === 'none') return state;
    const where = CONTACT_PLACES[v];
    const s = placed(placed(state, HIDDEN, where.elves), 'lizardmen', where.lizardmen);
    // The Lizard Men's plan delays when they meet anyone: the hidden contact rolls (secret) dice.
    const plan = { armyId: 'lizardmen', order: { kind: 'hold' }, contact: 'delay', setBy: 'referee', setAt: s.clock } as const;
    return { ...s, plans: { ...s.plans, lizardmen: plan } };
  },
};

/**
 * In fog, whether bob's and alice's armies meet at all (Grallune next to Hadewych, or far off):
 * the channel must not learn of their contact, battle or its recording.
 */
const theirBattle: Variation<boolean> = {
  name: "alice's and bob's contact and battle (there, or never made)",
  hiddenFrom: ['channel'],
  apply: (state: CampaignState, met: boolean): CampaignState => (met ? state : placed(state, 'grallune', '1126')),
};

/**
 * In fog, whether an army nobody sees (Grunnthraesir, far off) has been destroyed: nothing a player
 * or the channel reads (`/turn status`, `/campaign status`, maps, `/move` answers) may count it out.
 */
const unseenDestroyed: Variation<boolean> = {
  name: 'an unseen enemy destroyed, or still in the field',
  hiddenFrom: ['alice', 'bob', 'carol', 'channel'],
  apply(state: CampaignState, destroyed: boolean): CampaignState {
    const s = placed(state, HIDDEN, FAR_HEXES[0]);
    const army = s.armies[HIDDEN];
    if (!army || !destroyed) return s;
    const regiments = army.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, figures: 0 })) }));
    return { ...s, armies: { ...s.armies, [HIDDEN]: { ...army, regiments, individuals: [], status: { ...army.status, destroyed: true } } } };
  },
};

/** The secret stream's commitment is the one string allowed to differ: it is the hash of what differs. */
const maskSecretCommitment = (text: string): string => text
  .replace(/(a secret seed whose SHA-256 is `)[0-9a-f]{64}`/g, '$1<secret commitment>`')
  // The chronicle's dice footer: "period N SHA-256 `public` / `secret`" (the public hash still compared).
  .replace(/(SHA-256 `[0-9a-f]{64}` \/ `)[0-9a-f]{64}`/g, '$1<secret commitment>`')
  .replace(/("secretCommitment":")[0-9a-f]{64}"/g, '$1<secret commitment>"');

const secretDice = (fog: boolean): Variation<string> => ({
  name: 'the values of the secret dice',
  // Carol is in no contact. With positions public the channel (so carol too) hears the battle's
  // deployment dice and sees its sketch once announced: then only carol's own answers and DMs.
  hiddenFrom: fog ? ['carol', 'channel'] : ['carol (own)'],
  apply(state: CampaignState, master: string): CampaignState {
    const secret = state.rng.secret;
    if (!secret) throw new Error('no secret stream');
    return { ...state, rng: { ...state.rng, secret: { ...secret, master } } };
  },
  normalize: maskSecretCommitment,
});

/** Carol's own answers and DMs, without the channel. */
const CAROL_OWN: Reader = { name: 'carol (own)', user: 'carol', receives: (o) => (o.to === 'ephemeral' || o.to === 'dm') && o.user === 'carol' };
const READERS = [player('alice'), player('bob'), player('carol'), CHANNEL_READER, CAROL_OWN];

/** What the script must reach in every world, or the test would quietly stop covering it. */
const MUST_REACH = ['contactMade', 'battleFought', 'courierSent', 'courierDelivered', 'fleetSailed', 'turnUndone'] as const;

function assertReached(world: World, variation: string): void {
  expect(MUST_REACH.filter((type) => !world.reached.has(type)), `${variation}: what the script did not reach`).toEqual([]);
  const files = (world.transcripts.get('alice') ?? []).join('\n');
  // Alice typed into every option that autocompletes (at the `!autocomplete` line), and was offered something.
  expect(autocompletingOptions(), 'options that autocomplete').toBeGreaterThan(20);
  expect(files.match(/"autocomplete":/g)?.length, `${variation}: alice's autocomplete lines`).toBe(autocompletingOptions() * TYPED.length);
  expect(files, `${variation}: alice was offered her army`).toMatch(/"autocomplete":"\/move army:","choices":\[\{"name":"Army of Hadewych/);
  expect(files, `${variation}: alice's book was exported`).toMatch(/\.zip:[0-9a-f]{64}/);
}

/** The web pages read: each commander's, and the spectators' (the referee's page is no reader: it shows everything). */
const WEB_PAGES: readonly WebPageReader[] = [webPageOf('alice'), webPageOf('bob'), webPageOf('carol'), SPECTATOR_PAGE];

async function compare<T>(s: Script, variation: Variation<T>, a: T, b: T, web: readonly WebPageReader[] = []): Promise<void> {
  await compareWorlds(s, variation, a, b, true, web);
}

/**
 * The two worlds played; what the script reaches is checked in the first (`reach`). `web`: the
 * web pages read too; a page is compared when the reader it stands for is one the fact is hidden from.
 */
async function compareWorlds<T>(s: Script, variation: Variation<T>, a: T, b: T, reach = true, web: readonly WebPageReader[] = []): Promise<World> {
  // The pages of the readers the fact is hidden from; with them, one more half period, so that the day the script played is a past day on the timeline.
  const read = web.filter((p) => variation.hiddenFrom.includes(p.standsFor));
  if (web.length > 0) expect(read.length, 'web pages compared').toBeGreaterThan(0);
  const played = read.length > 0 ? { ...s, play: [...s.play, '!tick'] } : s;
  const worldA = await playWorld(played, variation, a, READERS, read);
  const worldB = await playWorld(played, variation, b, READERS, read);
  if (reach) assertReached(worldA, variation.name);
  const pages = read.map((p) => webName(p.standsFor));
  for (const reader of [...variation.hiddenFrom, ...pages]) {
    const ta = worldA.transcripts.get(reader) ?? [];
    expect(ta.length, `${reader} received something`).toBeGreaterThan(5);
    expect(firstDifference(ta, worldB.transcripts.get(reader) ?? []), `${reader}, ${variation.name}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBeUndefined();
  }
  // Manual dice hold the ticks (the contact waits for them): then no day is over, and the timeline has no past day.
  for (const page of pages) assertPageRead(worldA, page, reach);
  return worldA;
}

/** What a web page's transcript must hold, or the comparison would quietly cover less: its pages, pictures and tiles served, and a live stream that said something. */
function assertPageRead(world: World, page: string, pastDay = true): void {
  const lines = world.transcripts.get(page) ?? [];
  const served = (path: RegExp) => lines.filter((l) => path.test(l) && / 200 /.test(l)).length;
  expect(served(/^GET \/page\.json /), `${page}: page.json`).toBe(1);
  expect(served(/^GET \/map\.png /), `${page}: map.png`).toBe(1);
  expect(served(/^GET \/tile\//), `${page}: tiles`).toBeGreaterThanOrEqual(4);
  // A person's page: a past day on the timeline, its frame's tiles served.
  if (pastDay && !page.startsWith('channel')) expect(served(/^GET \/map\.json\?day=1 /), `${page}: day 1 on the timeline`).toBe(1);
  // Revalidations answered 304 (the ETag just served), and the recomputations counted while the script played.
  expect(lines.filter((l) => / if-none-match 304 /.test(l)).length, `${page}: 304s`).toBeGreaterThanOrEqual(3);
  expect(lines.find((l) => l.startsWith('recomputed while played')), `${page}: recomputations counted`).toMatch(/: \|*[pm][pm|]*$/);
  const events = lines.at(-1) ?? '';
  expect(events, `${page}: its live stream`).toMatch(/^events: retry: 3000\nevent: hello\ndata: "[A-Za-z0-9_-]{22}"/);
  expect(events, `${page}: updates pushed`).toMatch(/event: update\ndata: "/);
}

const arbHidden = fc.record({ hex: fc.constantFrom(...FAR_HEXES), figures: fc.integer({ min: 1, max: 12 }), march: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }) });
const arbHiddenPair = fc.tuple(arbHidden, arbHidden).filter(([a, b]) => a.hex !== b.hex && a.figures !== b.figures);
const arbContactPair = fc.tuple(fc.constantFrom<HiddenContact>('none', 'north', 'south'), fc.constantFrom<HiddenContact>('none', 'north', 'south')).filter(([a, b]) => a !== b);
const arbMaster = fc.stringMatching(/^[0-9a-f]{32}$/);
const arbMasterPair = fc.tuple(arbMaster, arbMaster).filter(([a, b]) => a !== b);
/** The table the battle is fought on (its briefing, sketch and deployment read the strategic state): any of the three, not only Valormr's. */
const arbTactical = fc.constantFrom(...TACTICALS);

/*
 * Issue 27, item 3: a substitute learns only what their army knew. alice commands Hadewych and
 * Solon Theros; Solon meets Grallune while alice is away from the table; dave, of no side, is
 * given Hadewych's seat. What differs between the worlds is what only Solon knew (its own figures,
 * and Grallune's, which Solon's estimates come from): dave must receive the same bytes.
 */
const HER_OTHER_ARMY = ['solon', 'grallune'] as const;
const substituteWorld: Variation<number> = {
  name: "what the previous commander's other army knew (its figures and its enemy's)",
  hiddenFrom: ['dave'],
  apply(state: CampaignState, figures: number): CampaignState {
    const armies = { ...state.armies };
    for (const id of HER_OTHER_ARMY) {
      const army = armies[id];
      if (!army) throw new Error(`no ${id}`);
      armies[id] = { ...army, regiments: army.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, figures })) })) };
    }
    return { ...state, armies };
  },
};

const SEAT_OFFERED = '@referee /seat offer army:hadewych user:dave';

const substituteScript = (positions: 'public' | 'fog'): Script => ({
  setup: [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:solon user:alice',
    '@referee /army edit army:solon hex:1122',
    '@referee /army edit army:grallune hex:1121',
    '@referee /campaign settings absent-after:1',
    `@referee /campaign settings positions:${positions}`,
  ],
  play: [
    '@referee /campaign start',
    '@alice /army status army:solon', '@alice /map view:mine',
    '!tick',
    '@alice /intel army:solon',
    '!tick',
    SEAT_OFFERED,
    '@dave /intel army:hadewych', '@dave /army status', '@dave /map view:mine', '@dave /turn status', '@dave /campaign status',
    '@dave /intel army:solon', '@dave /army status army:solon',
    '@dave /rest',
    '!tick',
    '@dave /intel', '@dave /map view:mine',
    '!tick',
    '@dave /dice log', '@dave /army status',
  ],
});

describe('differential secrecy: the same campaign in two worlds that differ only in hidden facts', () => {
  for (const positions of ['public', 'fog'] as const) {
    it(`GIVEN positions:${positions} and ${substituteWorld.name} WHEN dave holds Hadewych's seat THEN he receives the same bytes in both worlds, on his web page too`, async () => {
      const readers = [player('dave'), player('alice')];
      // Dave's web page: he logs in by his /web link once he holds the seat.
      const web = [webPageOf('dave', SEAT_OFFERED)];
      const worldA = await playWorld(substituteScript(positions), substituteWorld, 3, readers, web);
      const worldB = await playWorld(substituteScript(positions), substituteWorld, 11, readers, web);
      // The fact is real: alice, who commanded Solon, read it (her army's figures, her estimates of Grallune).
      expect(worldA.reached.has('contactMade'), 'Solon met Grallune').toBe(true);
      expect(firstDifference(worldA.transcripts.get('alice') ?? [], worldB.transcripts.get('alice') ?? []), 'alice read the fact').toBeDefined();
      const ta = worldA.transcripts.get('dave') ?? [];
      expect(ta.filter((t) => t.includes('"user":"dave"')).length, 'dave received answers and DMs').toBeGreaterThan(8);
      expect(ta.join('\n')).toContain('You command **Army of Hadewych**');
      expect(firstDifference(ta, worldB.transcripts.get('dave') ?? [])).toBeUndefined();
      const page = webName('dave');
      expect(firstDifference(worldA.transcripts.get(page) ?? [], worldB.transcripts.get(page) ?? []), `${page}, ${substituteWorld.name}`).toBeUndefined();
      assertPageRead(worldA, page);
    }, 600_000);
  }

  for (const positions of ['public', 'fog'] as const) {
    for (const profile of ['valormr', 'acks'] as const) {
      const fog = positions === 'fog';
      it(`GIVEN positions:${positions} and profile:${profile} and ${hiddenArmy(fog).name} WHEN played in both worlds THEN every reader receives the same bytes`, async () => {
        await fc.assert(fc.asyncProperty(arbHiddenPair, arbTactical, async ([a, b], tactical) => compare(script(positions, profile, false, tactical), hiddenArmy(fog), a, b, WEB_PAGES)), { numRuns: 1, endOnFailure: true });
      }, 600_000);
      it(`GIVEN positions:${positions} and profile:${profile} and ${secretDice(fog).name} WHEN played in both worlds THEN every reader they are hidden from receives the same bytes`, async () => {
        // With positions public the channel hears the battle's deployment dice, so every page's chronicle shows them: in fog, carol's and the spectators' pages are read.
        await fc.assert(fc.asyncProperty(arbMasterPair, arbTactical, async ([a, b], tactical) => compare(script(positions, profile, false, tactical), secretDice(fog), a, b, fog ? WEB_PAGES : [])), { numRuns: 1, endOnFailure: true });
      }, 600_000);
      if (fog) {
        it(`GIVEN positions:fog and profile:${profile} and ${theirBattle.name} WHEN played in both worlds THEN the channel receives the same bytes`, async () => {
          await compareWorlds(script(positions, profile), theirBattle, true, false, true, WEB_PAGES);
        }, 600_000);
        it(`GIVEN positions:fog and profile:${profile} and ${unseenDestroyed.name} WHEN played in both worlds THEN every reader receives the same bytes`, async () => {
          await compareWorlds(script(positions, profile), unseenDestroyed, true, false, true, WEB_PAGES);
        }, 600_000);
        if (profile === 'valormr') {
          // The hidden contact's dice are the referee's to enter: asked for first, they must not move the ids of alice's and bob's.
          it(`GIVEN positions:fog and manual contact dice and ${hiddenContact.name} WHEN played in both worlds THEN every reader it is hidden from receives the same bytes, manual roll ids included`, async () => {
            // The contact waits for the dice into the next tick, so the battle comes later than the script goes: not asserted here.
            const world = await compareWorlds(script(positions, profile, true), hiddenContact, 'north', 'none', false, WEB_PAGES);
            const alice = (world.transcripts.get('alice') ?? []).join('\n');
            expect(alice, 'alice was asked for her dice by DM').toMatch(/"type":"diceAsked"/);
            expect(alice, 'the rolls are named by derived ids').toMatch(/roll \*\*r[a-z]{6}\*\*/);
          }, 600_000);
        }
        it(`GIVEN positions:fog and profile:${profile} and ${hiddenContact.name} WHEN played in both worlds THEN every reader it is hidden from receives the same bytes`, async () => {
          await fc.assert(fc.asyncProperty(arbContactPair, arbTactical, async ([a, b], tactical) => compare(script(positions, profile, false, tactical), hiddenContact, a, b, WEB_PAGES)), { numRuns: 1, endOnFailure: true });
        }, 600_000);
      }
    }
  }
});
