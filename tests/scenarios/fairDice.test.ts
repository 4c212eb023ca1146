import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { allEvents } from '../../src/db/eventRepo.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import type { Harness } from './harness.js';
import { campaignState } from './harness.js';
import { contactHarness, open } from './contactSetup.js';
import { sqlRows } from '../support/sql.js';

let h: Harness | undefined;
afterEach(() => h?.close());

interface Roll { purpose: string; sides: number; value: number; source: string; period: number; draw?: number; stream?: 'public' | 'secret'; nth?: number }

const diceEvents = (x: Harness) => allEvents(x.app.db, campaignState(x).id);
const rollsOf = (x: Harness, period: number): Roll[] => diceEvents(x)
  .filter((e) => e.type === 'diceRolled' && !e.undone && (e.data as Roll).period === period).map((e) => e.data as Roll);
const revealOf = (x: Harness, period: number) => diceEvents(x)
  .find((e) => e.type === 'diceSeedRevealed' && !e.undone && (e.data as { period: number }).period === period)?.data as { seed: string; draws: number; period: number } | undefined;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A die by hand, as docs/dice.md says: SHA-256("seed:purpose#n:i"), first 8 hex digits, rejected at or above the largest multiple of the sides, mod sides, plus one. */
function byHand(seed: string, purpose: string, nth: number, sides: number): number {
  const limit = Math.floor(2 ** 32 / sides) * sides;
  for (let i = 0; ; i++) {
    const n = Number.parseInt(sha(`${seed}:${purpose}#${nth}:${i}`).slice(0, 8), 16);
    if (n < limit) return (n % sides) + 1;
  }
}

/** The secret seed of a period by hand from the master: the first 32 hex digits of SHA-256("master:period"). */
const secretSeed = (master: string, period: number): string => sha(`${master}:${period}`).slice(0, 32);

/** Hadewych and Grallune in contact, both proceed and engage over a few ticks: dice of every kind. */
async function playedCampaign(): Promise<Harness> {
  const x = await contactHarness();
  await x.run('@referee /campaign start');
  await open(x, 'hadewych,grallune');
  await x.run('@alice /engage', '@bob /engage', '@alice /evade', '@bob /engage', '!tick 4');
  return x;
}

const channelIndex = (x: Harness, pattern: string): number => x.outputs.findIndex((o) => o.to === 'channel' && o.content.includes(pattern));

describe('RULINGS 7: provably fair dice, and secret (docs/dice.md)', () => {
  it('GIVEN a played campaign WHEN each revealed public seed is replayed by hand THEN it reproduces every public die (the weather) of its period, and none of the secret ones; /dice verify says which it checked in one line', async () => {
    h = await playedCampaign();
    const last = campaignState(h).rng.period - 1;
    expect(last).toBeGreaterThanOrEqual(3);
    let publicDice = 0;
    let secretDice = 0;
    for (let p = 0; p <= last; p++) {
      const reveal = revealOf(h, p);
      expect(reveal, `period ${p} revealed`).toBeDefined();
      const rolls = rollsOf(h, p);
      for (const r of rolls.filter((x) => x.stream === 'public')) {
        expect([r.purpose, r.value]).toEqual([r.purpose, byHand(reveal!.seed, r.purpose, r.nth!, r.sides)]);
        expect(r.purpose).toMatch(/weather|persistence|wind|fog\/wind/);
        publicDice++;
      }
      expect(rolls.filter((x) => x.stream === 'public')).toHaveLength(reveal!.draws);
      const secret = rolls.filter((x) => x.stream === 'secret');
      secretDice += secret.length;
      // The public seed does not make the secret dice (with a handful of them, matching all by chance is 6^-n).
      if (secret.length >= 4) expect(secret.every((r) => byHand(reveal!.seed, r.purpose, r.nth!, r.sides) === r.value)).toBe(false);
      const [answer] = await h.run(`@carol /dice verify tick:${p}`);
      expect(answer?.content).toMatch(new RegExp(`^✅ Dice period ${p} checks out: the public seed matches the SHA-256 published before the period began, and .*public di(c)?e.*\\. Its secret dice .* when the campaign ends`));
      expect(answer?.content.split('\n')).toHaveLength(1);
      expect(answer?.to).toBe('reply');
    }
    expect(publicDice).toBeGreaterThanOrEqual(1);
    expect(secretDice).toBeGreaterThan(10);
  });

  it('GIVEN the referee THEN /dice verify checks the secret dice too, privately, against the secret seed committed before the period; the referee\'s check agrees with the secret seed by hand', async () => {
    h = await playedCampaign();
    const state = campaignState(h);
    const master = state.rng.secret!.master;
    const commitments = diceEvents(h).filter((e) => e.type === 'diceSeedCommitted').map((e) => e.data as { period: number; secretCommitment?: string });
    for (const p of [0, 1]) {
      for (const r of rollsOf(h, p).filter((x) => x.stream === 'secret')) expect(r.value).toBe(byHand(secretSeed(master, p), r.purpose, r.nth!, r.sides));
      expect(commitments.find((c) => c.period === p)?.secretCommitment).toBe(sha(secretSeed(master, p)));
      const [answer] = await h.run(`@referee /dice verify tick:${p}`);
      expect(answer?.to).toBe('ephemeral');
      expect(answer?.content).toMatch(new RegExp(`^✅ Dice period ${p} checks out: .*public dice.*; the secret seed matches the SHA-256 published before the period began, and (all \\d+ secret dice reproduce|the 1 secret die reproduces|it rolled no secret dice)`));
    }
    // The period in play: the referee checks its rolls so far; a player is told it is not over.
    const now = state.rng.period;
    expect((await h.run(`@referee /dice verify tick:${now}`))[0]?.content).toMatch(new RegExp(`^✅ Dice period ${now} \\(in play: its rolls so far\\) checks out`));
    expect((await h.run(`@alice /dice verify tick:${now}`))[0]?.data).toMatchObject({ error: 'dice.notRevealed' });
  });

  it('GIVEN a die changed in the log after the fact THEN /dice verify finds it, naming the die: a public one for anyone, a secret one for the referee', async () => {
    h = await playedCampaign();
    const bump = (id: number, r: Roll): void => { sqlRows(h!.app.db, 'update events set data = ? where id = ?', JSON.stringify({ ...r, value: r.value === r.sides ? 1 : r.value + 1 }), id); };
    const rolls = diceEvents(h).filter((e) => e.type === 'diceRolled' && (e.data as Roll).period === 0);
    const secret = rolls.find((e) => (e.data as Roll).stream === 'secret' && (e.data as Roll).source === 'seeded')!;
    bump(secret.id, secret.data as Roll);
    expect((await h.run('@carol /dice verify tick:0'))[0]?.content).toMatch(/^✅/);
    const [referee] = await h.run('@referee /dice verify tick:0');
    expect(referee?.content).toMatch(/^❌ Dice period 0 does NOT check out: the secret die ".+#1" is logged as \d+, but its seed gives \d+/);
    expect(referee?.content).toContain((secret.data as Roll).purpose);
    const pub = diceEvents(h).find((e) => e.type === 'diceRolled' && (e.data as Roll).stream === 'public' && (e.data as Roll).period === 2)!;
    bump(pub.id, pub.data as Roll);
    expect((await h.run('@carol /dice verify tick:2'))[0]?.content).toMatch(/^❌ Dice period 2 does NOT check out: the public die ".+" is logged as/);
  });

  it('GIVEN a die deleted from the log, or a seed that is not the one committed THEN /dice verify fails', async () => {
    h = await playedCampaign();
    const id = campaignState(h).id;
    const secret = diceEvents(h).filter((e) => e.type === 'diceRolled' && (e.data as Roll).stream === 'secret' && (e.data as Roll).period === 0);
    sqlRows(h.app.db, 'delete from events where id = ?', secret.at(-1)!.id);
    expect((await h.run('@referee /dice verify tick:0'))[0]?.content).toMatch(/^❌ .*(missing from the log|the log holds \d+ secret dice, but the period rolled)/);
    const weather = diceEvents(h).find((e) => e.type === 'diceRolled' && (e.data as Roll).stream === 'public' && (e.data as Roll).period === 2)!;
    sqlRows(h.app.db, 'delete from events where id = ?', weather.id);
    expect((await h.run('@carol /dice verify tick:2'))[0]?.content).toMatch(/^❌ .*(missing from the log|public dice, but the period rolled)/);
    const reveal = allEvents(h.app.db, id).find((e) => e.type === 'diceSeedRevealed' && (e.data as { period: number }).period === 1)!;
    sqlRows(h.app.db, 'update events set data = ? where id = ?', JSON.stringify({ ...(reveal.data as object), seed: '0'.repeat(32) }), reveal.id);
    expect((await h.run('@carol /dice verify tick:1'))[0]?.content).toMatch(/^❌ .*SHA-256 is not the one published/);
  });

  it('GIVEN each tick THEN its seeds were committed in the channel before the tick was played, no channel post shows a public seed before its period is over, and no output ever shows a secret seed or the master', async () => {
    h = await playedCampaign();
    const state = campaignState(h);
    for (let p = 1; p < state.rng.period; p++) {
      const seed = revealOf(h, p)!.seed;
      const committedAt = channelIndex(h, sha(seed));
      const secretAt = channelIndex(h, sha(secretSeed(state.rng.secret!.master, p)));
      const revealedAt = channelIndex(h, seed);
      // The tick that plays period p is the p-th tick's chronicle ("→"), the commitments came before it.
      const tickAt = h.outputs.map((o, i) => ({ o, i })).filter(({ o }) => o.to === 'channel' && o.content.includes('→'))[p - 1]?.i ?? -1;
      expect(committedAt, `period ${p} committed`).toBeGreaterThanOrEqual(0);
      expect(committedAt).toBeLessThan(tickAt);
      expect(secretAt).toBe(committedAt);
      expect(revealedAt).toBeGreaterThan(tickAt);
    }
    const everything = h.outputs.map((o: ConsoleOutput) => `${o.content} ${JSON.stringify(o.data)}`).join('\n');
    expect(everything).not.toContain(state.rng.seed);
    expect(everything).not.toContain(state.rng.next);
    expect(everything).not.toContain(state.rng.secret!.master);
    for (let p = 0; p <= state.rng.period + 1; p++) expect(everything).not.toContain(secretSeed(state.rng.secret!.master, p));
    // The commitments: the campaign's first post, then each chronicle's dice footer ("period N SHA-256 ...").
    const lines = h.outputs.filter((o) => o.to === 'channel').flatMap((o) => o.content.split('\n'))
      .flatMap((l) => (/will be rolled from a public seed/.test(l) ? [l] : l.includes('_Dice · ') ? l.split(' · ').filter((part) => part.includes('SHA-256')) : []));
    expect(lines.length).toBeGreaterThanOrEqual(state.rng.period);
    for (const l of lines) expect(l.match(/[0-9a-f]{32,}/g)?.every((hex) => hex.length === 64)).toBe(true);
  });

  it('GIVEN scripted dice THEN they are marked and left out of the check, which still passes; only the referee hears of the secret ones', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start');
    await open(h, 'hadewych,grallune');
    h.script.push(3, 4);
    await h.run('@alice /engage', '@bob /engage', '!tick');
    const sources = rollsOf(h, 0).map((r) => r.source);
    expect(sources.slice(0, 2)).toEqual(['scripted', 'scripted']);
    expect((await h.run('@carol /dice verify tick:0'))[0]?.content).not.toMatch(/scripted/);
    expect((await h.run('@referee /dice verify tick:0'))[0]?.content).toMatch(/^✅ .*secret dice reproduce, purpose by purpose \(2 scripted not drawn from it\)/);
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

  it('GIVEN periods played WHEN /dice log tick:N reads one THEN its commitment says what it was rolled from, not "the next tick will be rolled", with the hashes the channel was given; a period not begun is still "will be rolled"', async () => {
    h = await playedCampaign();
    const now = campaignState(h).rng.period;
    const published = (p: number) => diceEvents(h!).find((e) => e.type === 'diceSeedCommitted' && (e.data as { period?: number }).period === p)!.data as { commitment: string; secretCommitment: string };
    for (const p of [1, now - 1, now]) {
      const log = (await h.run(`@bob /dice log tick:${p}`))[0]?.content ?? '';
      const { commitment, secretCommitment } = published(p);
      // Before: "Dice: the next tick (period 5) will be rolled from a public seed whose SHA-256 is ...", read days later.
      expect(log, `period ${p}`).toContain(`Dice: period ${p} draws its dice from a public seed whose SHA-256 is \`${commitment}\` and a secret seed whose SHA-256 is \`${secretCommitment}\` (published before it began).`);
      expect(log).not.toMatch(/will be rolled/);
    }
    const ahead = (await h.run(`@bob /dice log tick:${now + 1}`))[0]?.content ?? '';
    expect(ahead).toContain(`Dice: the next tick (period ${now + 1}) will be rolled from a public seed whose SHA-256 is \`${published(now + 1).commitment}\``);
  });

});

describe('RULINGS 7: /turn undo keeps the dice; reroll:true is the announced exception (docs/commands.md)', () => {
  /** The first tick brings Hadewych and Grallune into contact; alice proceeds, bob says nothing, so the next tick (with weather) rolls the contact's dice. */
  async function beforeContactTick(): Promise<Harness> {
    const x = await contactHarness();
    await x.run('@referee /campaign start', '!tick', '@alice /engage');
    return x;
  }
  const labelled = (rolls: readonly Roll[]): Record<string, number> => Object.fromEntries(rolls.filter((r) => r.source === 'seeded').map((r) => [`${r.purpose}#${r.nth}`, r.value]));
  const undoneRolls = (x: Harness, period: number): Roll[] => diceEvents(x).filter((e) => e.type === 'diceRolled' && e.undone && (e.data as Roll).period === period).map((e) => e.data as Roll);

  it('GIVEN a tick with weather and contact dice WHEN it is undone and played again with the same orders THEN the same dice come out (the same weather, the same contact dice), the undo says so, and /dice verify checks both plays', async () => {
    h = await beforeContactTick();
    const period = campaignState(h).rng.period + 1;
    await h.run('!tick');
    const first = rollsOf(h, period);
    expect(first.some((r) => r.purpose.startsWith('weather'))).toBe(true);
    expect(first.some((r) => r.purpose.startsWith('contact dice'))).toBe(true);
    const undo = await h.run('@referee /turn undo');
    expect(undo[0]?.content).toMatch(/Its dice are kept/);
    expect(h.channel().at(-1)?.content).toMatch(/Its dice are kept: it will be played again from the same committed seeds/);
    expect(campaignState(h).rng.period).toBe(period - 1);
    await h.run('!tick');
    expect(campaignState(h).rng.period).toBe(period);
    expect(undoneRolls(h, period)).toEqual(first);
    expect(labelled(rollsOf(h, period))).toEqual(labelled(first));
    await h.run('!tick');
    expect((await h.run(`@carol /dice verify tick:${period}`))[0]?.content).toMatch(/^✅/);
    expect((await h.run(`@referee /dice verify tick:${period}`))[0]?.content).toMatch(/^✅ .*withdrawn by an undo check out too/);
  });

  it('GIVEN /turn undo reroll:true THEN the replay rolls from later periods\' committed seeds, its dice differ, and the channel is told; players cannot ask for it', async () => {
    h = await beforeContactTick();
    const period = campaignState(h).rng.period + 1;
    await h.run('!tick');
    const first = rollsOf(h, period);
    expect((await h.run('@alice /turn undo reroll:true'))[0]?.data).toMatchObject({ error: expect.any(String) });
    const undo = await h.run('@referee /turn undo reroll:true');
    expect(undo[0]?.content).toMatch(/re-rolled/);
    expect(h.channel().at(-1)?.content).toMatch(/The referee chose to re-roll its dice/);
    const logged = diceEvents(h).filter((e) => e.type === 'turnUndone').at(-1)?.data;
    expect(logged).toMatchObject({ dice: 'rerolled', reroll: true });
    await h.run('!tick');
    expect(campaignState(h).rng.period).toBe(period + 2);
    const replay = rollsOf(h, period + 2);
    // The same rolls are made again (the dice may lead elsewhere after them); on those, the dice differ.
    const [a, b] = [labelled(first), labelled(replay)];
    const same = Object.keys(a).filter((k) => k in b);
    expect(same.length).toBeGreaterThanOrEqual(6);
    expect(same.map((k) => b[k])).not.toEqual(same.map((k) => a[k]));
  });
});

describe('RULINGS 7: at the campaign\'s end every die can be checked (docs/dice.md)', () => {
  it('GIVEN /campaign end THEN its answer reveals the secret master, from which every secret die of every period is recomputed by hand, each secret seed matching its commitment', async () => {
    h = await playedCampaign();
    const state = campaignState(h);
    expect((await h.run('@alice /campaign end confirm:"Autumn War"'))[0]?.data).toMatchObject({ error: expect.any(String) });
    expect((await h.run('@referee /campaign end confirm:"Winter War"'))[0]?.data).toMatchObject({ error: 'campaign.confirmEnd' });
    const [end] = await h.run('@referee /campaign end confirm:"Autumn War"');
    expect(end?.to).toBe('reply');
    const master = /master was `([0-9a-f]{32})`/.exec(end?.content ?? '')?.[1];
    expect(master).toBeDefined();
    const log = allEvents(h.app.db, state.id);
    const commitments = log.filter((e) => e.type === 'diceSeedCommitted').map((e) => e.data as { period: number; secretCommitment?: string });
    let checked = 0;
    for (let p = 0; p <= state.rng.period; p++) {
      expect(commitments.find((c) => c.period === p)?.secretCommitment).toBe(sha(secretSeed(master!, p)));
      for (const r of log.filter((e) => e.type === 'diceRolled' && (e.data as Roll).period === p).map((e) => e.data as Roll).filter((x) => x.stream === 'secret')) {
        expect([r.purpose, r.value]).toEqual([r.purpose, byHand(secretSeed(master!, p), r.purpose, r.nth!, r.sides)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    // The campaign is over: no more ticks, and the channel is free.
    expect((await h.run('@referee /turn status'))[0]?.content).toMatch(/There is no campaign in this channel/);
    // But its dice can still be checked there, as docs/dice.md promises: a commander's /dice verify
    // now checks the secret dice too, in the channel (before the fix: "There is no campaign in this channel").
    const period = log.findLast((e) => e.type === 'diceRolled' && (e.data as Roll).stream === 'secret')!.data as Roll;
    const [verify] = await h.run(`@alice /dice verify tick:${period.period}`);
    expect(verify?.to).toBe('reply');
    expect(verify?.data).toMatchObject({ period: period.period, ok: true, checked: ['public', 'secret'] });
    expect(verify?.content).toMatch(new RegExp(`^✅ Dice period ${period.period} checks out: .*secret`));
    const [dice] = await h.run(`@alice /dice log tick:${period.period}`);
    expect(dice?.content).toMatch(new RegExp(`period ${period.period}`));
    expect(dice?.data).not.toHaveProperty('error');
  });
});
