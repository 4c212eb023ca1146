import { describe, expect, it } from 'vitest';
import { campaignIdOf, consoleHarness } from '../scenarios/harness.js';
import { FOG_CONTACT_SETUP } from './campaignScript.js';

/*
 * A standoff's end keeps secrets (the differential property of differential.test.ts, for the
 * message that a standoff is over): in fog, Hadewych (alice) and Grallune (bob) face each other and
 * nobody presses the contact, round after round; then alice marches away, out of contact. Bob is
 * told that the two no longer face each other (his own army is out of contact: his to know), but
 * not where she went: every byte bob receives (DMs and answers) must be the same whichever hex she
 * marched to. Alice's own DM says where she went.
 */

/** Hexes next to Hadewych's 1122 and not next to Grallune's 1121: a march there ends the standoff. */
const AWAY = ['1123', '1022', '1222'] as const;

/** Each reader's lines (DMs and private answers) when alice marches to `to` after two rounds nobody pressed, the campaign id masked. */
async function world(to: string, profile: 'valormr' | 'acks'): Promise<Map<string, string[]>> {
  const h = await consoleHarness({ seed: 5 });
  try {
    await h.run(profile === 'valormr' ? FOG_CONTACT_SETUP : FOG_CONTACT_SETUP.replace('@referee /campaign start', `@referee /campaign settings profile:${profile}\n@referee /campaign start`));
    const campaignId = campaignIdOf(h);
    const start = h.outputs.length;
    // The contact opens, nobody presses it (twice); alice's march waits for the morning.
    await h.run('!tick', '!tick', `@alice /move army:hadewych to:${to}`, '!tick 4');
    const own = (user: string): string[] => h.outputs.slice(start).filter((o) => o.user === user && (o.to === 'dm' || o.to === 'ephemeral'))
      .map((o) => JSON.stringify({ to: o.to, content: o.content, data: o.data ?? null }).split(campaignId).join('<campaign>'));
    return new Map([['alice', own('alice')], ['bob', own('bob')]]);
  } finally {
    h.close();
  }
}

describe('a standoff that ends keeps secrets', () => {
  it.each(['valormr', 'acks'] as const)('GIVEN fog, the %s movement profile and a standoff nobody presses WHEN alice marches away to one of three hexes THEN bob is told the contact is over, and receives the same bytes whichever hex it was', async (profile) => {
    const worlds = new Map<string, Map<string, string[]>>();
    for (const to of AWAY) worlds.set(to, await world(to, profile));
    const first = worlds.get(AWAY[0])!;
    const bob = first.get('bob')!.join('\n');
    expect(bob).toContain('Ingegerd and Hadewych the Arbiter no longer face each other: the contact is over.');
    expect(bob).not.toContain('face each other for another half period');
    for (const to of AWAY) {
      expect(worlds.get(to)!.get('alice')!.join('\n')).toContain(`marched 1122 -> ${to}`);
      expect(worlds.get(to)!.get('bob'), `bob, alice marched to ${to}`).toEqual(first.get('bob'));
    }
    expect(bob).not.toMatch(new RegExp(AWAY.join('|')));
  });
});
