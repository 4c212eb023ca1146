import { afterEach, describe, expect, it } from 'vitest';
import { allEvents } from '../../src/db/eventRepo.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/**
 * Issue 27's table: a referee and four players, 12 game days (48 half periods). Annemie marches
 * next to Groennendr and nobody presses the contact for five days (a standoff); then both engage,
 * the battle is recorded, and a second standoff follows for six days under rain and fog.
 */
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Long Autumn"',
  '@referee /campaign assign army:annemie user:alice',
  '@referee /campaign assign army:groennendr user:bob',
  '@referee /campaign assign army:elf-king user:carol',
  '@referee /campaign assign army:hadewych user:dave',
  '@referee /campaign start',
  '@alice /move army:annemie to:1016', '@dave /move army:hadewych to:1015', '@carol /move army:elf-king to:1215', '@bob /hold army:groennendr',
].join('\n');

/**
 * On main before this change (ba780f9) this campaign's chronicle had 398 lines over its 48 ticks
 * (8.29 a tick; 96 of them seed and hash lines, 90 naming the two standoffs), and the referee got
 * a DM after 46 of the 48 ticks. With it: 189 lines (3.94 a tick), none with a seed, 4 naming
 * the standoffs, 2 tick DMs to the referee.
 */
const LINES_PER_TICK_BEFORE = 398 / 48;

/** The chronicle posts (a tick's card): each line of the card below its title. */
function chronicles(outputs: readonly ConsoleOutput[]): string[][] {
  return outputs.filter((o) => o.to === 'channel' && o.content.includes('**Chronicle of '))
    .map((o) => o.content.split('\n').slice(1).filter((l) => !l.includes('**Chronicle of ')));
}

/** A line that names a standoff: its contact, its deferral, or its going on. */
const STANDOFF = /in contact near|on the morrow|face each other/;

async function playTwelveDays(): Promise<Harness> {
  const x = await consoleHarness({ seed: 7, setup: SETUP });
  for (let k = 0; k < 48; k++) {
    if (k === 20) await x.run('@alice /engage army:annemie');
    if (k === 22) await x.run('@bob /engage army:groennendr', '@alice /engage army:annemie');
    await x.run('!tick');
    const battles = Object.values(campaignState(x).contacts).filter((c) => c.step === 'battle');
    for (const b of battles) await x.run(`@referee /battle result contact:${b.id}`);
  }
  return x;
}

describe('issue 27 item 1: the chronicle of a 12-day campaign worth reading', () => {
  it('GIVEN four players and a referee over 12 days WHEN the chronicle is read THEN it has half the lines a tick, no dice hex, each standoff named at most twice, and the referee is DMed only with news', async () => {
    h = await playTwelveDays();
    const state = campaignState(h);
    expect(state.clock.day, 'all 12 days were played').toBe(13);
    const ticks = chronicles(h.outputs);
    expect(ticks.length).toBe(48);
    const lines = ticks.flat();
    expect(lines.length / ticks.length).toBeLessThanOrEqual(LINES_PER_TICK_BEFORE / 2);
    // No seed or hash in the chronicle's body: one footer line a tick holds the dice (the seed
    // revealed, the hashes committed ahead, in the channel before their period is played).
    const footers = lines.filter((l) => l.startsWith('│ _Dice · '));
    expect(footers.length).toBe(48);
    expect(lines.filter((l) => !footers.includes(l) && /[0-9a-f]{16,}/.test(l))).toEqual([]);
    // Weather in words: no table column, no die.
    expect(lines.filter((l) => /column \d|die \d/.test(l))).toEqual([]);
    // The standoffs: long ones (the log has every round), each named at most twice in public.
    const log = allEvents(h.app.db, state.id).map((e) => ({ type: e.type, data: (e.data ?? {}) as { contactId?: string; standing?: string } }));
    const rounds = new Map<string, number>();
    for (const e of log) if (e.type === 'contactDeferred') rounds.set(String(e.data.contactId), (rounds.get(String(e.data.contactId)) ?? 0) + 1);
    expect([...rounds.values()].filter((n) => n >= 10).length, 'two standoffs of ten rounds or more').toBe(2);
    expect(lines.filter((l) => STANDOFF.test(l)).length).toBeLessThanOrEqual(2 * rounds.size);
    // The referee: a tick DM only when something new waits (the contacts and the battle), never
    // for the same contact still waiting.
    const refereeTickDms = h.outputs.filter((o) => o.to === 'dm' && o.user === 'referee' && o.content.includes('→'));
    const started = new Set(log.filter((e) => e.type === 'contactMade' && e.data.standing === undefined).map((e) => String(e.data.contactId)));
    expect(refereeTickDms.length).toBeLessThanOrEqual(2 * started.size + 1);
    for (const dm of refereeTickDms.filter((d) => d.content.includes('Waiting on you'))) expect(dm.content).toContain('New: ');
    // The folded lines are kept where the table reads them: the seeds in `/dice log tick:N`.
    const [dice] = await h.run('@bob /dice log tick:5');
    expect(dice?.content).toMatch(/period 5 is over; its public seed was `[0-9a-f]{32}`/);
    expect(dice?.content).toMatch(/period 5 draws its dice from a public seed whose SHA-256 is `[0-9a-f]{64}`/);
    expect(dice?.content).toMatch(/weather/i);
  }, 240_000);
});
