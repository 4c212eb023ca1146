import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/app/errors.js';
import { rulesReference } from '../../src/app/reference/rulesReference.js';
import { RULES_TOPICS } from '../../src/app/reference/topics.js';
import { LOSSES_TABLE, SIZE_ESTIMATION_TABLE } from '../../src/engine/contact/index.js';
import { MOVE_POINTS } from '../../src/engine/forces/army.js';
import { TERRAIN_COST } from '../../src/engine/movement/index.js';
import { consoleHarness, type Harness } from './harness.js';

const CREATE = '@referee /campaign create scenario:valormr name:"Autumn War"';
const TOPICS = ['move-rates', 'terrain', 'crossings', 'rest', 'weather', 'scouts', 'contact', 'size', 'disengagement', 'deployment', 'terrain-cards', 'vessels', 'profile'];
let h: Harness | undefined;
afterEach(() => h?.close());

/** The code-block row that starts with `label`, split into cells. */
const row = (content: string, label: string): string[] => {
  const line = content.split('\n').find((l) => l.startsWith(`${label} `));
  expect(line, `row "${label}"`).toBeDefined();
  return (line ?? '').slice(label.length).trim().split(/\s{2,}/);
};

describe('/rules without a campaign', () => {
  it('GIVEN no topic THEN it lists every topic privately', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules');
    expect(out).toMatchObject({ to: 'ephemeral', user: 'alice' });
    for (const t of TOPICS) expect(out?.content).toContain(`\`${t}\``);
    expect((out?.data as { topics: { id: string }[] }).topics.map((t) => t.id)).toEqual(TOPICS);
    expect(RULES_TOPICS.map((t) => t.id)).toEqual(TOPICS);
  });

  it('GIVEN each topic THEN it answers privately, under 2,000 characters, with the data it was rendered from', async () => {
    h = await consoleHarness();
    for (const topic of TOPICS) {
      const [out] = await h.run(`@alice /rules topic:${topic}`);
      expect(out?.to, topic).toBe('ephemeral');
      expect(out?.content.length, `${topic}: ${out?.content.length ?? 0} characters`).toBeLessThan(2000);
      expect(out?.content.length, topic).toBeGreaterThan(100);
      expect(out?.data, topic).toMatchObject({ topic });
      expect(out?.content, topic).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it('GIVEN move-rates THEN infantry 12, cavalry 24, courier 48, forced and fatigued as the engine computes them, and the vessels', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:move-rates');
    expect(row(out?.content ?? '', 'infantry')).toEqual(['12', '18', '9']);
    expect(row(out?.content ?? '', 'cavalry')).toEqual(['24', '36', '18']);
    expect(row(out?.content ?? '', 'courier')).toEqual(['48', '72', '36']);
    expect(row(out?.content ?? '', 'galley')).toEqual(['18', '72']);
    expect(row(out?.content ?? '', 'river boat')).toEqual(['36', '-']);
    expect(out?.data).toMatchObject({ movePoints: MOVE_POINTS, byClass: { infantry: { daily: 12, forced: 18, fatigued: 9 } } });
  });

  it('GIVEN terrain THEN clear 6, forest 9, mountain 12, road x2/3, track x1, formed and night limits', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:terrain');
    const c = out?.content ?? '';
    expect(row(c, 'clear')).toEqual(['6', '4', '6', '12', '8', 'all']);
    expect(row(c, 'forest')).toEqual(['9', '6', '9', 'closed', '12', 'infantry']);
    expect(row(c, 'mountain')).toEqual(['12', '8', '12', 'closed', '16', 'none']);
    expect(c).toContain('clear cost (forest: 6)');
    expect(out?.data).toMatchObject({ terrainCost: TERRAIN_COST });
  });

  it('GIVEN crossings THEN a ford costs infantry half its day, ferries 1 and 2 days, rafts 3 days', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:crossings');
    const c = out?.content ?? '';
    expect(row(c, 'bridge')).toEqual(['free', 'free']);
    expect(row(c, 'ferry, minor river')).toEqual(['1 day', '1 day']);
    expect(row(c, 'ferry, major river')).toEqual(['2 days', '2 days']);
    expect(row(c, 'ford (minor river)')).toEqual(['+6 pts', 'free']);
    expect(row(c, 'minor, no site')).toEqual(['rafts 3 days', '+12 pts']);
    expect(row(c, 'major, no site')).toEqual(['rafts 3 days', 'rafts 3 days']);
    expect(c).toContain('fords impassable from rain level 1');
    expect(c).toContain('ferries inoperable from level 2');
  });

  it('GIVEN rest THEN the rest, weekly, forced march and fatigue rules', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:rest');
    const c = out?.content ?? '';
    expect(c).toContain('one half period 50 %');
    expect(c).toContain('at most 6 days of movement in a row');
    expect(c).toContain('+50 % daily points');
    expect(c).toContain('-25 % daily points');
    expect(c).toContain('5-15 % of each regiment');
  });

  it('GIVEN weather THEN the d6 table, the fog/wind dice and the rain levels', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:weather');
    const c = out?.content ?? '';
    expect(row(c, '6')).toEqual(['cloudy*', 'rain*', 'hard rain']);
    expect(row(c, '3')).toEqual(['-', 'clears*', 'cloudy*']);
    expect(c).toContain('Fog/wind die: 1 fog · 2-5 nothing · 6 wind');
    expect(c).toContain('Wind die: 1 calm · 2-4 nothing · 5 high winds · 6 gale');
    expect(c).toContain('fog goes on on 1-2, wind on 1');
    expect(c).toContain('once the ground has dried for one clear period (or 2 cloudy), each further one clear period (or 2 cloudy) lowers it by 1');
    expect(row(c, '4+')).toEqual(['×0', 'closed', 'closed']);
    expect(c).toContain('×0.75');
  });

  it('GIVEN the contact tables THEN modifiers, contact table, size and losses cells match the engine', async () => {
    h = await consoleHarness();
    const [scouts] = await h.run('@alice /rules topic:scouts');
    expect(scouts?.content).toContain('1 captured · 2 killed · 3-4 unsuccessful · 5-6 successful');
    const [contact] = await h.run('@alice /rules topic:contact');
    expect(contact?.content).toContain('−1 all opponents in mountain terrain');
    expect(row(contact?.content ?? '', '3')).toEqual(['±50%', 'infantry or cavalry']);
    expect(row(contact?.content ?? '', '1-')).toEqual(['unaware', '-']);
    const [size] = await h.run('@alice /rules topic:size');
    // 2d6 = 3: −40 % / −20 % / accurate in the ±10 % column (as printed in the rule text).
    expect(row(size?.content ?? '', '3')).toEqual(['−40%', '−20%', 'accurate']);
    expect(row(size?.content ?? '', '12')).toEqual(['+50%', '+25%', '+10%']);
    expect(SIZE_ESTIMATION_TABLE.pm25[3]).toBe(-10);
    const [dis] = await h.run('@alice /rules topic:disengagement');
    // Difference −8: delay 50 % displaced, evade 30 %, avoid 25 %.
    expect(row(dis?.content ?? '', '-8')).toEqual(['50% D', '30%', '25%']);
    expect(row(dis?.content ?? '', '-4 to -1')).toEqual(['25%', '10%', '5%']);
    expect(row(dis?.content ?? '', '≤-12')).toEqual(['destroyed', 'destroyed', 'destroyed']);
    expect(dis?.content).toContain('formation: formed +2, retreat −1, rout −2');
    expect(dis?.content).toContain('tactics: maneuver +1, aggressive pursuit +2, rearguard +2');
    expect((dis?.data as { losses: unknown[] }).losses).toHaveLength(LOSSES_TABLE.length);
    const [cards] = await h.run('@alice /rules topic:terrain-cards');
    expect(cards?.content).toContain('a deck of 20');
    expect(row(cards?.content ?? '', 'blank')).toEqual(['8']);
  });

  it('GIVEN deployment without a campaign THEN the default 48" table gives a forward baseline at 20.25" and 3" intervals', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:deployment');
    const c = out?.content ?? '';
    expect(c).toContain('default settings: table 48", short bow 7.5"');
    expect(c).toContain('Forward baseline 20.25" from your edge, then every 3"');
    expect(row(c, 'column of battalions')).toEqual(['1 regiment', '1 regiment']);
    expect(row(c, 'column of figures (4 x 10 troops)')).toEqual(['3 companies', '4 companies']);
    expect(out?.data).toMatchObject({ fromCampaign: false, baselines: { tableWidth: 48, interval: 3 } });
  });

  it('GIVEN vessels THEN capacity, cost and waters', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:vessels');
    const c = out?.content ?? '';
    expect(row(c, 'troop transport')).toEqual(['-', '72', '3', '3']);
    expect(row(c, 'river boat')).toEqual(['36', '-', '¼', '¼']);
    expect(row(c, 'longship')).toEqual(['18', '90', '2', 'n/a']);
    expect(c).toContain('**troop transport**: sea, open sea; port only; coast hexes only with a channel or port');
  });
});

describe('/rules refusals', () => {
  it('GIVEN an unknown topic on the console THEN the line is refused with the list of topics', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /rules topic:catapults');
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'console.badValue' } });
    for (const t of TOPICS) expect(out?.content).toContain(t);
  });

  it('GIVEN an unknown topic reaching the use-case THEN it is refused with the list of topics', async () => {
    h = await consoleHarness();
    const actor = { userId: 'alice', userName: 'alice', guildId: 'console', channelId: 'console', roleIds: [] };
    expect(() => rulesReference(h!.app, actor, 'catapults')).toThrow(UserError);
    try {
      rulesReference(h.app, actor, 'catapults');
    } catch (err) {
      expect((err as UserError).code).toBe('rules.unknownTopic');
      for (const t of TOPICS) expect((err as Error).message).toContain(`\`${t}\``);
    }
    expect(rulesReference(h.app, actor, 'Move Rates')[0]?.data).toMatchObject({ topic: 'move-rates' });
  });
});

describe('/rules in a campaign channel', () => {
  it('GIVEN the referee set a 36" table and 6" bow range THEN deployment uses them', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign settings table-width:36 bow-range:6');
    const [out] = await h.run('@alice /rules topic:deployment');
    expect(out?.content).toContain('this campaign: table 36", short bow 6"');
    expect(out?.content).toContain('Forward baseline 15" from your edge, then every 2"');
    expect(out?.data).toMatchObject({ fromCampaign: true, baselines: { tableWidth: 36, shortBowRange: 6, forward: 15, interval: 2 } });
  });

  it('GIVEN a campaign THEN /help lists /rules under Reference and stays under 2,000 characters', async () => {
    h = await consoleHarness({ setup: CREATE });
    const [out] = await h.run('@alice /help');
    expect(out?.content).toContain('**Reference**: `/rules` `/help`');
    expect(out?.content.length).toBeLessThan(2000);
  });
});
