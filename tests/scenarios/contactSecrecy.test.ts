import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleOutput } from '../../src/console/session.js';
import { consoleHarness, type Harness } from './harness.js';
import { SECRET_PATTERN } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const USERS: Readonly<Record<string, string>> = { hadewych: 'alice', grallune: 'bob', aeskrvald: 'carol', lanze: 'dan', minke: 'frank' };
const SECRET_EVENTS = ['contactEstimated', 'scoutsReturned', 'scoutCaptured', 'disengagementRolled', 'battleLossesApplied', 'terrainDealt'];

function eventTypes(o: ConsoleOutput): string[] {
  return ((o.data as { events?: { type: string }[] } | undefined)?.events ?? []).map((e) => e.type);
}

describe('RULINGS 6 secrets through a whole scripted campaign', () => {
  it('GIVEN several contacts, battles and disengagements THEN no channel message carries an estimate or a strength, and each DM goes only to its commander', async () => {
    h = await consoleHarness({ seed: 7, closedDms: ['frank'] });
    await h.run([
      '@referee /campaign create scenario:valormr name:"Autumn War"',
      ...Object.entries(USERS).map(([army, user]) => `@referee /campaign assign army:${army} user:${user}`),
      '@referee /army edit army:hadewych hex:1122',
      '@referee /army edit army:grallune hex:1121',
      '@referee /army edit army:aeskrvald hex:1222',
      '@referee /army edit army:lanze hex:1220',
      '@referee /army edit army:minke hex:1120',
      '@alice /scouts count:2',
      '@bob /scouts count:1',
      // 1. Three forces, one battle; Lanze supports Grallune.
      '@referee /contact open armies:"hadewych,grallune,aeskrvald"',
      '@dan /support of:grallune',
      '@alice /engage', '@bob /engage', '@carol /engage',
      '@alice /engage', '@bob /engage', '@carol /evade',
      '@referee /battle result losses:"hadewych/first=5, grallune/first=3" withdraw:"grallune=retreat"',
      // 2. Minke (closed DMs) meets Grallune: fight on the morrow, then a delay.
      '@referee /contact open armies:"minke,grallune"',
      '@referee /contact resolve',
    ].join('\n'));
    await h.run('@referee /army edit army:minke hex:1019', '@referee /army edit army:minke hex:1120');
    await h.run([
      '@referee /contact open armies:"minke,grallune"',
      '@frank /delay', '@bob /engage',
      '@frank /intel',
    ].join('\n'));

    // The story happened.
    const contactsSeen = new Set(h.outputs.flatMap((o) => eventTypes(o)));
    for (const t of ['contactEstimated', 'disengagementRolled', 'battleLossesApplied', 'deploymentBriefed']) expect(contactsSeen.has(t), t).toBe(true);

    // Nothing secret in any channel message.
    for (const o of h.channel()) {
      expect(o.content, o.content).not.toMatch(SECRET_PATTERN);
      for (const t of eventTypes(o)) expect(SECRET_EVENTS).not.toContain(t);
    }
    // Public replies carry no numbers about forces either.
    for (const o of h.outputs.filter((x) => x.to === 'reply')) expect(o.content).not.toMatch(SECRET_PATTERN);

    // Each army's DM went only to its commander; referee DMs only to the referee.
    for (const o of h.outputs.filter((x) => x.to === 'dm')) {
      const armyId = (o.data as { armyId?: string } | undefined)?.armyId;
      if (armyId) expect({ armyId, user: o.user }).toEqual({ armyId, user: USERS[armyId] ?? 'referee' });
      else if (eventTypes(o).some((t) => t === 'contactTruth' || t === 'diceRolled')) expect(o.user).toBe('referee');
      // A secret without an army is the referee's copy.
      if (eventTypes(o).some((t) => SECRET_EVENTS.includes(t)) && !armyId) expect(o.user, o.content).toBe('referee');
    }

    // Closed DMs: the channel says so without content; /intel reads the kept message.
    expect(h.dms('frank')).toEqual([]);
    expect(h.channel().some((o) => /could not send you a direct message/.test(o.content) && o.content.includes('frank'))).toBe(true);
    const intel = h.outputs.filter((o) => o.to === 'ephemeral' && o.user === 'frank').at(-1);
    expect(intel?.content).toMatch(/could not reach you by DM[\s\S]*delaying action/);
  });
});
