import { afterEach, describe, expect, it } from 'vitest';
import { setRoles } from '../../src/app/movement/setRoles.js';
import { campaignState, consoleHarness, hexIdOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:grallune user:alice',
  '@referee /campaign assign army:hadewych user:bob',
].join('\n');
const err = (o: { data?: unknown } | undefined) => (o?.data as { error?: string } | undefined)?.error;

describe('/move for nocturnal folk (000 Nocturnal Movement)', () => {
  it('GIVEN the goblin horde THEN its march is by night by default; a day march is refused with the reason, unless the referee allows it', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [night] = await h.run('@referee /move army:arkthark path:"0715"');
    expect((night?.data as { plan: { order: { period: string } } }).plan.order.period).toBe('night');
    const [day] = await h.run('@referee /move army:arkthark path:"0715" period:day');
    expect(err(day)).toBe('move.nocturnalByDay');
    expect(day?.content).toMatch(/goblins, kobolds and orcs suffer in sunlight and always march by night/);
    await h.run('@referee /campaign settings nocturnal-day-march:true');
    const [allowed] = await h.run('@referee /move army:arkthark path:"0715" period:day');
    expect((allowed?.data as { plan: { order: { period: string } } }).plan.order.period).toBe('day');
  });
});

describe('/move', () => {
  it('GIVEN a path THEN the answer previews each hex, half period and points left, privately', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /move army:grallune path:"1825 1824"');
    expect(out?.to).toBe('ephemeral');
    expect(out?.content).toContain('- 1825 clear: 6 pts — today, morning, 6 left');
    expect(out?.content).toContain('- 1824 clear: 6 pts — today, afternoon, 0 left');
    expect(out?.content).toContain('/hold');
  });

  it('GIVEN the order THEN the half periods move the army and the chronicle says so', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start', '@alice /move army:grallune path:"1825 1824"', '!tick', '!tick');
    expect(h.channel().some((o) => o.content.includes('Ingegerd marched from 1826 to 1825'))).toBe(true);
    expect(h.dms('alice').some((o) => o.content.includes('marched 1825 -> 1824'))).toBe(true);
  });

  it('GIVEN to: THEN the bot finds a route and previews it over the days needed', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /move army:grallune to:1822');
    expect(out?.to).toBe('ephemeral');
    expect(out?.content).toMatch(/1822 .*tomorrow/);
    expect((out?.data as { plan: { days: number } }).plan.days).toBe(2);
  });

  it('refuses what the rules forbid, saying what would be accepted', async () => {
    h = await consoleHarness({ setup: SETUP });
    const cases: [string, string, RegExp][] = [
      ['@alice /move army:grallune path:"1824"', 'move.notAdjacent', /not next to 1826/],
      ['@alice /move army:grallune path:"9999"', 'move.badHex', /ids like 0712/],
      ['@alice /move army:grallune path:"1825" period:split', 'move.splitNeedsDarkSight', /period:day/],
      ['@alice /move army:grallune path:"1825" to:1824', 'move.pathAndTo', /either/],
      ['@alice /move army:grallune to:1826', 'move.alreadyThere', /already at 1826/],
      ['@alice /move army:hadewych path:"0817"', 'army.notYours', /not your army/],
      ['@alice /move army:grallune path:"1825" cross:true', 'move.noRiverAtEnd', /no river/],
    ];
    for (const [line, code, text] of cases) {
      const [out] = await h.run(line);
      expect(err(out), line).toBe(code);
      expect(out?.content, line).toMatch(text);
      expect(out?.to, line).toBe('ephemeral');
    }
  });

  it('GIVEN a march into a hex another commander holds THEN accepted with the warning: one commander per hex is judged at the tick (case 030)', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@bob /move army:hadewych path:"0916"');
    expect(err(out)).toBeUndefined();
    expect(out?.to).toBe('ephemeral');
    expect(out?.content).toMatch(/⚠ 0916 is held by .*: one commander per hex, .*the order is cancelled\./);
  });

  it('warns about a forced march and unformed stragglers', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /move army:grallune path:"1825 1824 1823" forced:true unformed:true');
    expect(out?.content).toContain('rest all of tomorrow or be fatigued');
    expect(out?.content).toContain('straggles');
  });
});

describe('/rest and /hold', () => {
  it('GIVEN a move order THEN /hold cancels it and /rest replaces it', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@alice /move army:grallune path:"1825"');
    const [held] = await h.run('@alice /hold army:grallune');
    expect(held?.content).toContain('its move order is cancelled');
    const [again] = await h.run('@alice /hold army:grallune');
    expect(again?.content).toContain('had no standing order');
    const [rest] = await h.run('@alice /rest army:grallune');
    expect(rest?.to).toBe('ephemeral');
    expect(rest?.content).toContain('rests at 1826');
    expect(err((await h.run('@alice /rest army:hadewych'))[0])).toBe('army.notYours');
  });

  it('lets the referee order any army, and says so', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@referee /move army:hadewych path:"0817"');
    expect(out?.content).toContain('(by the referee)');
  });
});

describe('/army roles (use-case setRoles)', () => {
  it('GIVEN a new assault regiment THEN the order of march changes privately; unknown regiments are refused', async () => {
    h = await consoleHarness({ setup: SETUP });
    const alice = { userId: 'alice', userName: 'alice', guildId: 'console', channelId: 'console', roleIds: [] };
    const before = (await h.run('@alice /army status army:grallune'))[0]?.data as { regiments: { id: string; role: string }[] };
    const ids = before.regiments.map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const [out] = setRoles(h.app, alice, { army: 'grallune', assault: ids[1] as string });
    expect(out?.to).toBe('ephemeral');
    expect((out?.data as { roles: { id: string; role: string }[] }).roles[0]).toEqual({ id: ids[1], role: 'assault' });
    expect(() => setRoles(h!.app, alice, { army: 'grallune', assault: 'nonesuch' })).toThrow(/has no regiment/);
  });
});

describe('/move preview as the tick plays it (found by tests/engine/previewProperty)', () => {
  const STARTED = [SETUP, '@referee /campaign start'].join('\n');
  /** Clear skies all week: every weather die a 1 ("no change" on the clear column). */
  const CLEAR_WEEK = Array.from({ length: 200 }, () => 1);
  const pointsLeft = (x: Harness) => campaignState(x).armies['grallune']?.march.pointsLeft;

  it('GIVEN a forced day march ordered in the evening THEN its first day is previewed with fresh forced points (fatigue comes the day after a forced march)', async () => {
    h = await consoleHarness({ setup: STARTED, dice: CLEAR_WEEK });
    await h.run('@referee /army edit army:grallune hex:1121', '!tick', '!tick');
    const [plan] = await h.run('@alice /move army:grallune path:"1221 1222" forced:true');
    expect(err(plan)).toBeUndefined();
    // 12 a day, 18 forced; the preview counted the army fatigued from tomorrow (13): 7 left.
    expect(plan?.content).toContain('- 1221 clear: 6 pts — tomorrow, morning, 12 left');
    expect(plan?.content).toContain('- 1222 clear: 6 pts — tomorrow, afternoon, 6 left');
    // One day of forced march: no fatigue to warn of within the order (it said 'from tomorrow').
    expect(plan?.content).not.toContain('over several days');
    await h.run('!tick', '!tick', '!tick');
    expect([hexIdOf(h, 'grallune'), pointsLeft(h)]).toEqual(['1221', 12]);
    await h.run('!tick');
    expect([hexIdOf(h, 'grallune'), pointsLeft(h)]).toEqual(['1222', 6]);
  });

  it('GIVEN an unformed army that stood a day WHEN ordered over a mountain without unformed:true THEN the order is taken as the tick plays it: the preview ends where the reformed army stops, and says why and what to give instead', async () => {
    h = await consoleHarness({ setup: STARTED, dice: CLEAR_WEEK });
    await h.run('@referee /army edit army:grallune hex:2705', '@alice /move army:grallune path:"2706" unformed:true');
    // Day 1 unformed into 2706; day 2 stands; Day 2, evening.
    await h.run('!tick', '!tick', '!tick', '!tick', '!tick', '!tick');
    expect(campaignState(h).armies['grallune']?.formation).toBe('unformed');
    const [stops] = await h.run('@alice /move army:grallune path:"2707 2708"');
    expect(err(stops)).toBeUndefined();
    expect(stops?.content).toContain('- 2707 hill: 9 pts — tomorrow, afternoon, 3 left');
    expect(stops?.content).not.toContain('- 2708');
    expect(stops?.content).toContain('⚠ Army of Grallune reforms at daybreak after a day without movement, and on Day 3, afternoon the march stops and the order ends:');
    expect(stops?.content).toContain('To march on unformed, give the order with unformed:true.');
    const [plan] = await h.run('@alice /move army:grallune path:"2707 2708" unformed:true');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('- 2707 hill: 9 pts — tomorrow, afternoon, 3 left');
    await h.run('!tick', '!tick', '!tick');
    expect(campaignState(h).armies['grallune']?.formation).toBe('formed');
    expect(hexIdOf(h, 'grallune')).toBe('2706');
    await h.run('!tick');
    expect([hexIdOf(h, 'grallune'), pointsLeft(h)]).toEqual(['2707', 3]);
  });
});
