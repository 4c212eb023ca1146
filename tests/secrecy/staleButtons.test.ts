import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactButtons } from '../../commands/_contactButtons.js';
import { UserError } from '../../src/app/errors.js';
import { runButton } from '../../src/app/journal/invocation.js';
import { inCampaign } from '../../src/app/unitOfWork.js';
import { parseHex } from '../../src/engine/hex/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { campaignIdOf, consoleHarness, type Harness } from '../scenarios/harness.js';
import { FAR_HEXES, FOG_CONTACT_SETUP } from './campaignScript.js';

/*
 * The refusals of stale buttons keep secrets too (the differential property of differential.test.ts,
 * for presses, which its console script cannot make): in fog, a contact of alice (Hadewych) and bob
 * (Grallune) stands and asks again; each presses buttons of the earlier round (refused), of the
 * round open now (taken), of the old format (taken), and one after its question was settled. What
 * each receives (the answers and refusals of their presses, their DMs and answers) must be the same
 * bytes in two worlds that differ in what they cannot know: an unseen elven army's figures and
 * where it stands, and (hidden from bob) a contact between other sides made in the same tick.
 */

const HIDDEN = 'grunnthraesir';
/** The Lizard Men (chaos, alice's side: hers to see) next to the elves: a contact only bob cannot know of. */
const CONTACT_PLACES = { north: { elves: '1608', lizardmen: '1607' }, south: { elves: '1708', lizardmen: '1709' } } as const;

interface Hidden {
  readonly figures: number;
  readonly hex: (typeof FAR_HEXES)[number];
  readonly contact: 'none' | keyof typeof CONTACT_PLACES;
}

function placed(state: CampaignState, armyId: string, hexId: string): CampaignState {
  const army = state.armies[armyId];
  const hex = parseHex(hexId);
  if (!army || !hex) throw new Error(`no ${armyId} or ${hexId}`);
  return { ...state, armies: { ...state.armies, [armyId]: { ...army, hex } } };
}

function hide(state: CampaignState, v: Hidden): CampaignState {
  const army = state.armies[HIDDEN];
  if (!army) throw new Error('no hidden army');
  const regiments = army.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, figures: v.figures })) }));
  const s = placed({ ...state, armies: { ...state.armies, [HIDDEN]: { ...army, regiments } } }, HIDDEN, v.hex);
  if (v.contact === 'none') return s;
  const where = CONTACT_PLACES[v.contact];
  const met = placed(placed(s, HIDDEN, where.elves), 'lizardmen', where.lizardmen);
  const plan = { armyId: 'lizardmen', order: { kind: 'hold' }, contact: 'delay', setBy: 'referee', setAt: met.clock } as const;
  return { ...met, plans: { ...met.plans, lizardmen: plan } };
}

/** The contact buttons of each DM `user` received, oldest first. */
function contactButtonsOf(x: Harness, user: string): string[][] {
  return x.dms(user).map((o) => ((o.data as { buttons?: { id: string }[] } | undefined)?.buttons ?? []).map((b) => b.id)).filter((ids) => ids.some((id) => id.startsWith('contact:')));
}

const pick = (ids: readonly string[] | undefined, choice: string): string => {
  const id = ids?.find((b) => b.split(':')[3] === choice);
  if (!id) throw new Error(`no ${choice} button in ${JSON.stringify(ids)}`);
  return id;
};

/** One world played: each reader's lines (their presses' answers and refusals, then their DMs and answers), the campaign id masked. */
async function world(v: Hidden): Promise<Map<string, string[]>> {
  const h = await consoleHarness({ seed: 5 });
  try {
    await h.run(FOG_CONTACT_SETUP);
    const campaignId = campaignIdOf(h);
    inCampaign(h.app, { campaignId }, (tx) => ({ state: hide(tx.state, v), result: undefined }));
    const start = h.outputs.length;
    await h.run('@referee /contact open armies:"hadewych,grallune"', '!tick');
    const pressed = new Map<string, string[]>([['alice', []], ['bob', []]]);
    const press = async (user: string, customId: string): Promise<void> => {
      const lines = pressed.get(user) ?? [];
      try {
        for (const r of await runButton(contactButtons, { app: h.app, userId: user, customId })) lines.push(JSON.stringify({ to: r.to, content: r.content, data: r.data ?? null }));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        lines.push(JSON.stringify({ refused: error.code, content: error.message }));
      }
    };
    const [alice1, alice2] = contactButtonsOf(h, 'alice');
    const [bob1] = contactButtonsOf(h, 'bob');
    await press('alice', pick(alice1, 'proceed'));
    await press('bob', pick(bob1, 'silent'));
    await press('alice', pick(alice2, 'proceed'));
    // Bob's round-1 id in the old format answers the round open now: both have answered, the contact phase runs.
    await press('bob', pick(bob1, 'proceed').replace(/:t\d+\.[0-9a-z]{4}$/, ''));
    await press('alice', pick(alice2, 'delay'));
    await h.deliver();
    const own = (user: string): string[] => h.outputs.slice(start).filter((o) => o.user === user && (o.to === 'dm' || o.to === 'ephemeral')).map((o) => JSON.stringify({ to: o.to, content: o.content, data: o.data ?? null }));
    return new Map([...pressed].map(([user, lines]) => [user, [...lines, ...own(user)].map((l) => l.split(campaignId).join('<campaign>'))]));
  } finally {
    h.close();
  }
}

describe('stale buttons keep secrets', () => {
  it('GIVEN two worlds differing in an unseen army (figures, place) and, for bob, a contact of other sides WHEN alice and bob press stale, current and old-format buttons THEN each receives the same bytes', async () => {
    const base: Hidden = { figures: 1, hex: FAR_HEXES[0], contact: 'none' };
    const a = await world(base);
    // What the property covers: refusals of an earlier round, and the presses taken.
    const alice = (a.get('alice') ?? []).join('\n');
    expect(alice).toContain('"refused":"contact.roundOver"');
    expect(alice).toContain('"refused":"contact.buttonStale"');
    expect(alice).toContain('Recorded for Army of Hadewych: proceed to the contact phase.');
    expect((a.get('bob') ?? []).join('\n')).toContain('"refused":"contact.roundOver"');
    await fc.assert(fc.asyncProperty(
      fc.record({ figures: fc.integer({ min: 2, max: 60 }), hex: fc.constantFrom(...FAR_HEXES), contact: fc.constantFrom('none', 'north', 'south') as fc.Arbitrary<Hidden['contact']> }),
      async (v) => {
        const b = await world(v);
        for (const reader of v.contact === 'none' ? ['alice', 'bob'] : ['bob']) {
          expect(b.get(reader), `${reader}: ${JSON.stringify(base)} vs ${JSON.stringify(v)}`).toEqual(a.get(reader));
        }
      },
    ), { numRuns: 4, seed: 22 });
  });
});
