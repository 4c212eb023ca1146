import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { allEvents } from '../../src/db/eventRepo.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import type { Harness } from './harness.js';
import { campaignState } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

interface Roll { purpose: string; sides: number; value: number; source: string; period: number; draw?: number }

const rollsOf = (x: Harness, period: number): Roll[] => allEvents(x.app.db, campaignState(x).id)
  .filter((e) => e.type === 'diceRolled' && (e.data as Roll).period === period).map((e) => e.data as Roll);
const revealOf = (x: Harness, period: number) => allEvents(x.app.db, campaignState(x).id)
  .find((e) => e.type === 'diceSeedRevealed' && (e.data as { period: number }).period === period)?.data as { seed: string; draws: number; period: number } | undefined;

/** A die by hand, as docs/dice.md says: SHA-256("seed:draw"), first 8 hex digits, rejected at or above the largest multiple of the sides, mod sides, plus one. */
function byHand(seed: string, draw: number, sides: number): { value: number; draw: number } {
  const limit = Math.floor(2 ** 32 / sides) * sides;
  for (let i = draw; ; i++) {
    const n = Number.parseInt(createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, 8), 16);
    if (n < limit) return { value: (n % sides) + 1, draw: i };
  }
}

/** Hadewych and Grallune in contact, both proceed and engage over a few ticks: dice of every kind. */
async function playedCampaign(): Promise<Harness> {
  const x = await contactHarness();
  await x.run('@referee /campaign start');
  await open(x, 'hadewych,grallune');
  await x.run('@alice /engage', '@bob /engage', '@alice /evade', '@bob /engage', '!tick 4');
  return x;
}

const channelIndex = (x: Harness, pattern: string): number => x.outputs.findIndex((o) => o.to === 'channel' && o.content.includes(pattern));

describe('RULINGS 7: provably fair dice (docs/dice.md)', () => {
  it('GIVEN a played campaign WHEN each revealed seed is replayed by hand THEN it reproduces every logged die of its period, and /dice verify says so in one line', async () => {
    h = await playedCampaign();
    const last = campaignState(h).rng.period - 1;
    expect(last).toBeGreaterThanOrEqual(3);
    let seededDice = 0;
    for (let p = 0; p <= last; p++) {
      const reveal = revealOf(h, p);
      expect(reveal, `period ${p} revealed`).toBeDefined();
      let draw = 0;
      for (const r of rollsOf(h, p)) {
        expect(r.source).toBe('seeded');
        const die = byHand(reveal!.seed, draw, r.sides);
        expect([r.purpose, r.value, r.draw]).toEqual([r.purpose, die.value, die.draw]);
        draw = die.draw + 1;
        seededDice++;
      }
      expect(draw).toBe(reveal!.draws);
      const [answer] = await h.run(`@carol /dice verify tick:${p}`);
      expect(answer?.content).toMatch(new RegExp(`^✅ Dice period ${p} checks out`));
      expect(answer?.content.split('\n')).toHaveLength(1);
    }
    expect(seededDice).toBeGreaterThan(10);
  });

  it('GIVEN a die changed in the log after the fact THEN /dice verify finds it, naming the die', async () => {
    h = await playedCampaign();
    const period = 0;
    const rolls = allEvents(h.app.db, campaignState(h).id).filter((e) => e.type === 'diceRolled' && (e.data as Roll).period === period);
    const victim = rolls[Math.floor(rolls.length / 2)]!;
    const r = victim.data as Roll;
    h.app.db.$client.prepare("update events set data = json_set(data, '$.value', ?) where id = ?").run(r.value === r.sides ? 1 : r.value + 1, victim.id);
    const [answer] = await h.run(`@carol /dice verify tick:${period}`);
    expect(answer?.content).toMatch(/^❌ Dice period 0 does NOT check out: the die for ".+" is logged as \d+, but the seed gives \d+/);
    expect(answer?.content).toContain(r.purpose);
  });

  it('GIVEN a die deleted from the log, or a seed that is not the one committed THEN /dice verify fails', async () => {
    h = await playedCampaign();
    const id = campaignState(h).id;
    const first = allEvents(h.app.db, id).find((e) => e.type === 'diceRolled' && (e.data as Roll).period === 0)!;
    h.app.db.$client.prepare('delete from events where id = ?').run(first.id);
    expect((await h.run('@carol /dice verify tick:0'))[0]?.content).toMatch(/^❌ .*(missing from the log|logged as)/);
    const reveal = allEvents(h.app.db, id).find((e) => e.type === 'diceSeedRevealed' && (e.data as { period: number }).period === 1)!;
    h.app.db.$client.prepare("update events set data = json_set(data, '$.seed', ?) where id = ?").run('0'.repeat(32), reveal.id);
    expect((await h.run('@carol /dice verify tick:1'))[0]?.content).toMatch(/^❌ .*SHA-256 is not the one published/);
  });

  it('GIVEN each tick THEN its seed was committed in the channel before the tick was played, and no channel post shows a seed before its period is over', async () => {
    h = await playedCampaign();
    const state = campaignState(h);
    for (let p = 1; p < state.rng.period; p++) {
      const seed = revealOf(h, p)!.seed;
      const commitment = createHash('sha256').update(seed).digest('hex');
      const committedAt = channelIndex(h, commitment);
      const revealedAt = channelIndex(h, seed);
      // The tick that plays period p is the p-th tick's chronicle ("→"), the commitment came before it.
      const tickAt = h.outputs.map((o, i) => ({ o, i })).filter(({ o }) => o.to === 'channel' && o.content.includes('→'))[p - 1]?.i ?? -1;
      expect(committedAt, `period ${p} committed`).toBeGreaterThanOrEqual(0);
      expect(committedAt).toBeLessThan(tickAt);
      expect(revealedAt).toBeGreaterThan(tickAt);
    }
    // The seeds in play now appear nowhere; a commitment line carries only the hash.
    const everything = h.outputs.map((o: ConsoleOutput) => `${o.content} ${JSON.stringify(o.data)}`).join('\n');
    expect(everything).not.toContain(state.rng.seed);
    expect(everything).not.toContain(state.rng.next);
    const lines = h.outputs.filter((o) => o.to === 'channel').flatMap((o) => o.content.split('\n')).filter((l) => /will be rolled from a seed/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(state.rng.period);
    for (const l of lines) expect(l.match(/[0-9a-f]{32,}/g)?.every((hex) => hex.length === 64)).toBe(true);
  });

  it('GIVEN scripted dice THEN they are marked and left out of the check, which still passes', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start');
    await open(h, 'hadewych,grallune');
    h.app.scriptedDice.push(3, 4);
    await h.run('@alice /engage', '@bob /engage', '!tick');
    const sources = rollsOf(h, 0).map((r) => r.source);
    expect(sources.slice(0, 2)).toEqual(['scripted', 'scripted']);
    const [answer] = await h.run('@carol /dice verify tick:0');
    expect(answer?.content).toMatch(/^✅ .*\(2 scripted not drawn from it\)/);
  });

  it('GIVEN /dice log THEN a commander sees the rolls of their own army only (no estimate dice, nothing of the enemy), the referee every roll', async () => {
    h = await playedCampaign();
    const alice = (await h.run('@alice /dice log'))[0]?.content ?? '';
    expect(alice).toMatch(/contact dice: hadewych/);
    expect(alice).not.toMatch(/grallune/i);
    expect(alice).not.toMatch(/size estimate/);
    const refused = await h.run('@alice /dice log army:grallune');
    expect(refused[0]?.data).toMatchObject({ error: 'army.notYours' });
    const referee = (await h.run('@referee /dice log tick:0'))[0]?.content ?? '';
    expect(referee).toMatch(/contact dice: grallune/);
    expect(referee).toMatch(/size estimate/);
  });

  it('GIVEN a period still in play THEN verify says its seed is not revealed yet', async () => {
    h = await playedCampaign();
    const now = campaignState(h).rng.period;
    expect((await h.run(`@alice /dice verify tick:${now}`))[0]?.data).toMatchObject({ error: 'dice.notRevealed' });
  });
});
