import { describe, expect, it } from 'vitest';
import { baselines, describeConditions, describeDeployment, publicConditions, resolveDecision } from '../../src/engine/contact/index.js';
import { describeTableNotes } from '../../src/engine/contact/describeTable.js';
import { namesOf } from '../../src/engine/events/index.js';
import type { Army } from '../../src/engine/forces/army.js';
import { CHAPTER_002, TACTICAL_PROFILES, VALORMR_TABLE, WARLORD_003 } from '../../src/engine/profiles/index.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { asciiMap, dice, makeState } from './contactFixtures.js';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

const die = (raw: number) => ({ raw, modifiers: [], modified: raw });
const clear = asciiMap(['ccccc', 'ccccc', 'ccccc']);

/** Ingegerd (fatigued, force-marched today) meets Hadewych in the rain; both engage. */
function battleUnder(settings: Partial<CampaignState['settings']>, tweak: (a: Army) => Army = (a) => a): CampaignState {
  const s = makeState({ hadewych: { side: 'chaos', hex: '0202' }, ingegerd: { side: 'law', hex: '0201', fatigued: true } }, { day: 2, half: 0 });
  const ing = s.armies['ingegerd'] as Army;
  return {
    ...s,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    weather: { ...s.weather, sky: 'lightRain', rainLevel: 1 },
    armies: { ...s.armies, ingegerd: tweak({ ...ing, march: { ...ing.march, forcedMarchDay: 2 } }) },
    contacts: {
      c1: {
        id: 'c1', armyIds: ['hadewych', 'ingegerd'], hexes: [], openedAt: { day: 2, half: 0 }, step: 'decision',
        data: {
          contactDice: { hadewych: die(4), ingegerd: die(3) }, contactHour: 5, decisions: { hadewych: 'engage', ingegerd: 'engage' },
          terrain: [{ armyId: 'hadewych', card: 'woods' }, { armyId: 'ingegerd', card: 'stream' }, { armyId: 'hadewych', card: 'hill' }],
        },
      },
    },
  };
}

describe('Tactical profiles as data (002, 003)', () => {
  it('GIVEN the shipped profiles THEN Valormr is in inches, 002 in inches, 003 in centimetres; the chapters\' rates are the referee\'s', () => {
    expect(Object.keys(TACTICAL_PROFILES)).toEqual(['valormr', 'chapter002', 'warlord']);
    expect(VALORMR_TABLE).toMatchObject({ unit: 'inch', presets: { tableWidth: 48, shortBowRange: 7.5 }, ratesFromReferee: false });
    expect(CHAPTER_002).toMatchObject({ unit: 'inch', ratesFromReferee: true, startingFormation: { skirmishers: 'openOrder' } });
    expect(WARLORD_003).toMatchObject({ unit: 'cm', presets: { tableWidth: 122, shortBowRange: 19 }, ratesFromReferee: true, flying: { combatHeight: [1.5, 20] } });
  });
});

describe('001 Deployment baselines in the table\'s unit', () => {
  it('GIVEN 003\'s presets in centimetres (122 cm, bow 19 cm) THEN Bf = 51.5 cm, Bi = 7.5 cm (to the nearest half centimetre), six baselines', () => {
    const l = baselines(122, 19, 'cm');
    expect(l).toMatchObject({ unit: 'cm', forward: 51.5, interval: 7.5, narrowException: false, notes: [] });
    expect(l.distances).toEqual([51.5, 44, 36.5, 29, 21.5, 14]);
    expect(l.precalculated).toBeUndefined();
  });
  it('GIVEN centimetre tables of 32-35 inches or under 28.5 inches THEN the inch-sized rules apply to the width in inches', () => {
    expect(baselines(85, 19, 'cm')).toMatchObject({ narrowException: true, interval: 4.5 });
    expect(baselines(60, 10, 'cm').notes).toEqual(['The baseline formula is meant for tables at least 28.5 inches wide (72.4 cm).']);
  });
  it('GIVEN inches THEN the layout is as before (no unit recorded)', () => {
    expect(baselines(48, 7.5)).toEqual(baselines(48, 7.5, 'inch'));
    expect(baselines(48, 7.5)).not.toHaveProperty('unit');
  });
  it('GIVEN a battle under 003 THEN the briefing reads in centimetres', () => {
    const out = must(resolveDecision(battleUnder({ tactical: 'warlord', tableWidth: 122, shortBowRange: 19 }), clear, 'c1', dice(3, 4)));
    const b = out.state.contacts['c1']?.data.deployment;
    if (!b) throw new Error('no deployment');
    const parts = describeDeployment('c1', b, namesOf(out.state.armies));
    expect(parts[0]?.text).toBe('Battle c1: deployment (table 122 cm, short bow 19 cm)');
    expect(parts[1]?.text).toBe('Forward baselines 51.5 cm from each edge; interval 7.5 cm; baselines at 51.5 cm, 44 cm, 36.5 cm, 29 cm, 21.5 cm, 14 cm from the edge.');
    expect(parts[2]?.text).toMatch(/cm from the edge\)/);
  });
});

describe('002 on the table: a force that force-marched or is fatigued', () => {
  const out = must(resolveDecision(battleUnder({ tactical: 'chapter002', marchAttrition: true }, (a) => ({
    ...a,
    regiments: a.regiments.map((r, i) => (i === 0 ? { ...r, companies: [...r.companies, { troopType: 'slingers', basic: 'infantry' as const, figures: 4, skirmishers: true }, { troopType: 'peasant levy', basic: 'infantry' as const, figures: 6 }] } : r)),
  })), clear, 'c1', dice(3, 4)));
  const conditions = out.state.contacts['c1']?.data.conditions;

  it('GIVEN a fatigued force that force-marched today THEN its commander\'s briefing line sets the forced-march attrition and the exhaustion check', () => {
    const own = out.events.find((e) => e.type === 'forceCondition' && e.audience.kind === 'army' && e.audience.armyId === 'ingegerd');
    expect(own?.text).toContain('fatigued from the march: it fights fatigued');
    expect(own?.text).toContain('force-marched today and fatigued: it starts with the table\'s forced-march attrition (each stand loses endurance by its discipline: excellent -1, good -2, poor or wild -4) and an exhaustion check for each unit (a d10: exhausted on 9-10 with the steadier overall morale, 7-10 with the shakier overall morale; an exhausted unit may not move in the next turn except in response to morale results)');
    expect(own?.text).toContain('starting out of the force\'s formation: in open order slingers (ingegerd first regiment); in mass peasant levy (ingegerd first regiment)');
    expect(conditions?.forces['hadewych']?.table).toBeUndefined();
  });

  it('GIVEN the setting march-attrition off (the default) THEN a strategic forced march brings no attrition to the table: 002\'s rule is for forced marches on the table', () => {
    const off = must(resolveDecision(battleUnder({ tactical: 'chapter002' }), clear, 'c1', dice(3, 4)));
    const own = off.events.find((e) => e.type === 'forceCondition' && e.audience.kind === 'army' && e.audience.armyId === 'ingegerd');
    expect(own?.text).toContain('fatigued from the march: it fights fatigued');
    expect(own?.text).not.toContain('forced-march attrition');
  });

  it('GIVEN the campaign\'s rain and the dealt cards THEN the channel reads wet roads, dense woods, the stream at fords and bridges, the starting formations, and the referee\'s rates', () => {
    if (!conditions) throw new Error('no conditions');
    const parts = describeConditions(publicConditions(conditions), namesOf(out.state.armies));
    const byLabel = Object.fromEntries(parts.map((p) => [p.label, p.text]));
    expect(byLabel['Roads']).toBe('Dirt roads count as muddy ground: the campaign\'s rain has left them wet (rain level 1).');
    expect(byLabel['Terrain cards']).toBe('On the hill, movement uphill costs double; the woods are read as the chapter\'s dense trees, impenetrable to formed troops (the cards do not tell light woods from dense; treat a wood as brush if you agree it is light); the stream is read as the chapter\'s river row: crossed only at a bridge or a ford.');
    expect(byLabel['Starting formations']).toMatch(/^From the march formation: Hadewych in line; Ingegerd in line\./);
    expect(byLabel['Table']).toMatch(/inches\. The chapter's movement rates are not in the bot's copy of the text: the referee sets them\./);
    expect(JSON.stringify(publicConditions(conditions))).not.toMatch(/fatigued|forcedMarch|slingers|levy/);
  });

  it('GIVEN a hill card dealt under 002 THEN the briefing reads the chapter\'s uphill doubling on it', () => {
    expect(describeTableNotes([{ kind: 'terrainCards', cards: [{ card: 'hill', reading: CHAPTER_002.terrainCards?.hill ?? 'impassableToFormed' }] }], namesOf({}))).toEqual([{ label: 'Terrain cards', text: 'On the hill, movement uphill costs double.' }]);
  });

  it('GIVEN the Valormr table THEN none of it: the briefing is as before', () => {
    const plain = must(resolveDecision(battleUnder({}), clear, 'c1', dice(3, 4)));
    const c = plain.state.contacts['c1']?.data.conditions;
    expect(c?.table).toBeUndefined();
    expect(c?.forces['ingegerd']).toEqual({ armyId: 'ingegerd', fatigued: true, unformed: false, asIfInRetreat: false });
  });
});

describe('003 on the table: rout, pursuit, evade, flight', () => {
  it('GIVEN a battle under 003 THEN the channel reads rout as fled the field (a withdrawal in rout), pursuit and the tabletop evade apart from the contact\'s; a flying force gets the flight rules', () => {
    const out = must(resolveDecision(battleUnder({ tactical: 'warlord', tableWidth: 122, shortBowRange: 19 }, (a) => ({ ...a, individuals: [...a.individuals, { id: 'wyrm', name: 'Wyrm', kind: 'dragon', flying: true }] })), clear, 'c1', dice(3, 4)));
    const conditions = out.state.contacts['c1']?.data.conditions;
    if (!conditions) throw new Error('no conditions');
    const rout = describeConditions(publicConditions(conditions), namesOf(out.state.armies)).find((p) => p.label === 'Rout and pursuit')?.text ?? '';
    expect(rout).toContain('fled the field: its force counts as withdrawing in rout');
    expect(rout).toContain('aggressive pursuit');
    expect(rout).toContain('it is not the evade of the contact');
    const own = out.events.find((e) => e.type === 'forceCondition' && e.audience.kind === 'army' && e.audience.armyId === 'ingegerd');
    expect(own?.text).toContain('flying: combat height 1.5-20 cm above the ground troops');
    expect(own?.text).not.toContain('forced-march attrition');
  });
});

describe('004 Forced Marching: the +2 initiative on the deployment dice', () => {
  it('GIVEN ACKS and a forced march declared before the day\'s march THEN +2 on the deployment dice; declared during the day, nothing; Valormr, nothing', () => {
    const early = (a: Army): Army => ({ ...a, status: { ...a.status, fatigued: false }, march: { ...a.march, forcedMarchEarly: true } });
    const acks = must(resolveDecision(battleUnder({ profile: 'acks' }, early), clear, 'c1', dice(3, 3)));
    const entry = acks.state.contacts['c1']?.data.deployment?.entries.find((e) => e.armyId === 'ingegerd');
    expect(entry?.modifiers).toContainEqual({ code: 'forcedMarchEarly', label: 'forced march declared before the day\'s march', value: 2 });
    const late = must(resolveDecision(battleUnder({ profile: 'acks' }), clear, 'c1', dice(3, 3)));
    expect(late.state.contacts['c1']?.data.deployment?.entries.find((e) => e.armyId === 'ingegerd')?.modifiers.map((m) => m.code)).not.toContain('forcedMarchEarly');
    const valormr = must(resolveDecision(battleUnder({}, early), clear, 'c1', dice(3, 3)));
    expect(valormr.state.contacts['c1']?.data.deployment?.entries.find((e) => e.armyId === 'ingegerd')?.modifiers.map((m) => m.code)).not.toContain('forcedMarchEarly');
  });

  it('GIVEN ACKS war machines disassembled THEN the commander is told they cannot be used; the weather\'s missile penalty is in the public briefing', () => {
    const machines = (a: Army): Army => ({ ...a, regiments: a.regiments.map((r) => ({ ...r, companies: [...r.companies, { troopType: 'catapults', basic: 'infantry' as const, figures: 2, warMachine: true }] })) });
    const s = battleUnder({ profile: 'acks' }, machines);
    const out = must(resolveDecision({ ...s, weather: { ...s.weather, sky: 'hardRain', wind: 'highWinds' } }, clear, 'c1', dice(3, 3)));
    const own = out.events.find((e) => e.type === 'forceCondition' && e.audience.kind === 'army' && e.audience.armyId === 'ingegerd');
    expect(own?.text).toContain('its war machines (catapults (ingegerd first regiment)) are not assembled: they cannot be used in this battle');
    const conditions = out.state.contacts['c1']?.data.conditions;
    if (!conditions) throw new Error('no conditions');
    const weather = describeConditions(publicConditions(conditions), namesOf(out.state.armies)).find((p) => p.label === 'Weather')?.text;
    expect(weather).toBe('Hard rain; high winds; missile units -4 to their attack throws in this weather.');
  });
});
