import { describe, expect, it } from 'vitest';
import { parseHex, type Hex } from '../../src/engine/hex/index.js';
import type { ArmyPlan, PlanOrder } from '../../src/engine/plans/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { CHANNEL_READER, firstDifference, playWorld, player, type Script, type Variation } from './worlds.js';

/*
 * Issue 27, item 8: a plan is the referee's. Two worlds that differ only in the plan of an army
 * nobody commands (Grunnthraesir, an elven regiment none of the players meets) must give alice,
 * bob, carol and the channel the same bytes: its kind, its places, its contact policy and every
 * decision's reason stay with the referee. With positions public the plans differ in what they
 * would do and how they would answer a contact, not in where the army goes (a march is overt); in
 * fog of war one world's plan walks the army about, unseen by every player, the other's holds.
 */

const PLANNED = 'grunnthraesir';

const hex = (id: string): Hex => {
  const h = parseHex(id);
  if (!h) throw new Error(id);
  return h;
};

interface World {
  readonly order: PlanOrder;
  readonly contact: ArmyPlan['contact'];
}

const planned: Variation<World> = {
  name: 'the plan of an army nobody commands',
  hiddenFrom: ['alice', 'bob', 'carol', 'channel'],
  apply(state: CampaignState, w: World): CampaignState {
    const plan: ArmyPlan = { armyId: PLANNED, order: w.order, contact: w.contact, setBy: 'referee', setAt: state.clock };
    return { ...state, plans: { ...state.plans, [PLANNED]: plan } };
  },
};

const script = (positions: 'public' | 'fog'): Script => ({
  setup: [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    '@referee /campaign settings commander-books:true',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign assign army:aeskrvald user:carol',
    `@referee /campaign settings positions:${positions}`,
  ],
  play: [
    '@referee /campaign start',
    '@alice /army status', '@alice /army plan army:grunnthraesir', '@bob /army status army:grunnthraesir',
    '@alice /move to:1122', '@bob /rest',
    '!tick',
    '@alice /turn status', '@bob /campaign status', '@carol /map view:mine', '@alice /intel',
    '!tick', '!tick',
    '@referee /turn undo',
    '!tick', '!tick',
    '@alice /map', '@bob /map view:mine', '@carol /turn status',
    '@alice /campaign export format:markdown', '@bob /campaign export format:markdown public:true',
  ],
});

const READERS = [player('alice'), player('bob'), player('carol'), CHANNEL_READER, player('referee')];

const WORLDS: Readonly<Record<'public' | 'fog', readonly [World, World]>> = {
  // Both hold where they stand; they differ in what they would do on meeting a stronger force and at a contact.
  public: [
    { order: { kind: 'hold' }, contact: 'referee' },
    { order: { kind: 'withdraw', to: hex('1807') }, contact: 'delay' },
  ],
  // One walks to and fro out of every player's sight, the other holds.
  fog: [
    { order: { kind: 'hold' }, contact: 'evade' },
    { order: { kind: 'patrol', points: [hex('1807'), hex('1608')] }, contact: 'referee' },
  ],
};

describe('differential secrecy: two worlds that differ only in an enemy plan', () => {
  for (const positions of ['public', 'fog'] as const) {
    it(`GIVEN positions:${positions} WHEN played in both worlds THEN every player and the channel receive the same bytes`, async () => {
      const [a, b] = WORLDS[positions];
      const s = script(positions);
      const worldA = await playWorld(s, planned, a, READERS);
      const worldB = await playWorld(s, planned, b, READERS);
      for (const reader of planned.hiddenFrom) {
        const ta = worldA.transcripts.get(reader) ?? [];
        expect(ta.length, `${reader} received something`).toBeGreaterThan(8);
        expect(firstDifference(ta, worldB.transcripts.get(reader) ?? []), `${reader}, ${planned.name}`).toBeUndefined();
      }
      // The worlds do differ: the referee is told each plan and its decisions.
      expect(firstDifference(worldA.transcripts.get('referee') ?? [], worldB.transcripts.get('referee') ?? [])).toBeDefined();
    }, 600_000);
  }
});
