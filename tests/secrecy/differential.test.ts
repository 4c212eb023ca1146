import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHex } from '../../src/engine/hex/index.js';
import type { CampaignState } from '../../src/engine/state/campaign.js';
import { CHANNEL_READER, firstDifference, playWorld, player, type Script, type Variation } from './worlds.js';

/*
 * Issue 23, item 5: one campaign that reaches contacts, a battle, a courier, ships, undo and
 * exports, played in two worlds that differ only in facts hidden from alice (Hadewych, chaos),
 * bob (Grallune, law), carol (Aeskrvald, law) and the channel: the figures of Grunnthraesir (an
 * elven army none of them meets) and, in fog of war, where it stands (it is hidden from them all).
 * Every byte each of them receives must be the same in both worlds.
 */

const HIDDEN = 'grunnthraesir';
/** Hexes far from every army of the script, where the hidden army may stand (in fog). */
const FAR_HEXES = ['1708', '1807', '1707', '1509'] as const;

interface Hidden {
  readonly hex: string;
  /** The hidden army's figures, per company (each at least 1). */
  readonly figures: number;
}

const hiddenArmy = (fog: boolean): Variation<Hidden> => ({
  name: fog ? 'an unseen enemy: its figures and where it stands' : "an enemy's figures",
  hiddenFrom: ['alice', 'bob', 'carol', 'channel'],
  apply(state: CampaignState, v: Hidden): CampaignState {
    const army = state.armies[HIDDEN];
    if (!army) throw new Error('no hidden army');
    const hex = parseHex(v.hex);
    if (!hex) throw new Error(v.hex);
    const regiments = army.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, figures: v.figures })) }));
    return { ...state, armies: { ...state.armies, [HIDDEN]: { ...army, regiments, ...(fog ? { hex } : {}) } } };
  },
});

const script = (positions: 'public' | 'fog', profile: 'valormr' | 'acks'): Script => ({
  setup: [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    `@referee /campaign settings profile:${profile} commander-books:true`,
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign assign army:aeskrvald user:carol',
    '@referee /army edit army:hadewych hex:1122',
    '@referee /army edit army:grallune hex:1121',
    `@referee /campaign settings positions:${positions}`,
  ],
  play: [
    '@referee /campaign start',
    '@alice /army status', '@bob /army status army:grallune', '@carol /army status',
    // Orders into and through the hexes the hidden army may hold.
    ...FAR_HEXES.map((h) => `@alice /move to:${h}`),
    '@alice /move path:"1022 0922"', '@alice /rest', '@alice /hold',
    '@bob /scouts count:1', '@alice /scouts count:1',
    '@carol /embark', '@carol /sail to:2204', '@carol /debark',
    '@bob /courier send from-army:grallune to-army:aeskrvald message:"Hold the port"',
    '@alice /map', '@alice /map view:mine', '@bob /map view:mine', '@carol /map view:mine',
    '!tick',
    '@referee /contact open armies:"hadewych,grallune"',
    '@alice /engage', '@bob /engage',
    '!tick',
    '@alice /intel', '@bob /intel',
    '@alice /engage', '@bob /engage',
    '@alice /turn status', '@bob /campaign status', '@carol /weather show',
    '@referee /battle result losses:"hadewych/first=2, grallune/first=1"',
    '!tick',
    '@referee /turn undo',
    '@bob /rest',
    '!tick',
    '@alice /dice verify', '@bob /dice log', '@carol /rules topic:weather', '@alice /help',
    '@alice /campaign export format:markdown', '@bob /campaign export format:markdown public:true',
    '@alice /intel', '@carol /intel', '@bob /turn status',
  ],
});

const READERS = [player('alice'), player('bob'), player('carol'), CHANNEL_READER];

const arbHidden = fc.record({ hex: fc.constantFrom(...FAR_HEXES), figures: fc.integer({ min: 1, max: 12 }) });
const arbWorlds = fc.tuple(arbHidden, arbHidden).filter(([a, b]) => a.hex !== b.hex && a.figures !== b.figures);

describe('differential secrecy: the same campaign in two worlds that differ only in hidden facts', () => {
  for (const positions of ['public', 'fog'] as const) {
    for (const profile of ['valormr', 'acks'] as const) {
      it(`GIVEN positions:${positions} and profile:${profile} WHEN played in both worlds THEN every reader receives the same bytes`, async () => {
        const variation = hiddenArmy(positions === 'fog');
        await fc.assert(fc.asyncProperty(arbWorlds, async ([a, b]) => {
          const s = script(positions, profile);
          const worldA = await playWorld(s, variation, a, READERS);
          const worldB = await playWorld(s, variation, b, READERS);
          for (const reader of variation.hiddenFrom) {
            const ta = worldA.get(reader) ?? [];
            expect(ta.length, `${reader} received something`).toBeGreaterThan(10);
            expect(firstDifference(ta, worldB.get(reader) ?? []), `${reader}, ${variation.name}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBeUndefined();
          }
        }), { numRuns: 1 });
      }, 600_000);
    }
  }
});
