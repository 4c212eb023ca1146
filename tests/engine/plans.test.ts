import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../src/engine/contact/index.js';
import type { EngineEvent } from '../../src/engine/events/events.js';
import { beginHalfStep, movementStep } from '../../src/engine/movement/index.js';
import { knowledgeStep } from '../../src/engine/knowledge/index.js';
import { checkPlan, followPlans, type ArmyPlan, type PlanOrder } from '../../src/engine/plans/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';
import { followingPlans, resolveTick } from '../../src/engine/tick/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, at, campaign, dice, hx, mapOf } from './movementFixtures.js';

/** Ten by six hexes of clear ground. */
const OPEN = mapOf(Array.from({ length: 6 }, () => 'cccccccccc'));
/** Two islands of clear ground split by open sea (column 5). */
const ISLANDS = mapOf(Array.from({ length: 6 }, () => 'ccccocccc'));

function withPlan(state: CampaignState, armyId: string, order: PlanOrder, contact: ArmyPlan['contact'] = 'evade', more: Partial<ArmyPlan> = {}): CampaignState {
  const plan: ArmyPlan = { armyId, order, contact, setBy: 'referee', setAt: state.clock, ...more };
  return { ...state, plans: { ...state.plans, [armyId]: plan } };
}

/** Ticks with movement, the daily books, fog knowledge and the plans of `followers`. */
function play(state: CampaignState, map = OPEN, n = 1, followers: readonly string[] = Object.keys(state.plans)): { state: CampaignState; events: EngineEvent[]; trail: string[] } {
  const plan = followingPlans({ closeHalf: [movementStep], openHalf: [beginHalfStep, knowledgeStep], effects: () => NO_WEATHER_EFFECTS }, new Set(followers));
  let s = state;
  const events: EngineEvent[] = [];
  const trail: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = resolveTick(s, map, dice(), plan);
    s = out.state;
    events.push(...out.events);
    trail.push(...Object.keys(s.plans).map((id) => at(s, map, id)));
  }
  return { state: s, events, trail };
}

const planLines = (events: readonly EngineEvent[]) => events.filter((e) => e.type === 'planDecided');

describe('plans: orders for each half period', () => {
  it('GIVEN a hold plan WHEN followed THEN the army rests where it stands, told once to the referee with its reason', () => {
    const s = withPlan(campaign([army('a', '0303')]), 'a', { kind: 'hold' });
    const first = followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']);
    expect(first.state.orders['a']).toMatchObject({ kind: 'rest', givenBy: 'plan' });
    expect(first.events).toHaveLength(1);
    expect(first.events[0]?.audience).toEqual({ kind: 'referee' });
    expect(first.events[0]?.text).toBe('Plan of Army of a (hold): Army of a rests where it stands: the plan is to hold.');
    // The same decision is not told again.
    expect(followPlans(first.state, OPEN, NO_WEATHER_EFFECTS, ['a']).events).toEqual([]);
  });

  it('GIVEN a march plan WHEN played THEN the army marches by the movement rules, arrives and holds', () => {
    const s = withPlan(campaign([army('a', '0101')]), 'a', { kind: 'march', to: hx('0801') });
    const out = play(followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']).state, OPEN, 20);
    expect(at(out.state, OPEN, 'a')).toBe('0801');
    expect(out.state.orders['a']?.kind).toBe('rest');
    const reasons = planLines(out.events).map((e) => (e.data as { reason: string }).reason);
    expect(reasons).toContain('arrived');
    // 12 points a day and 6 a hex of clear ground without a road: two hexes a day, by day only.
    expect(out.trail.slice(0, 4)).toEqual(['0201', '0301', '0301', '0301']);
  });

  it('GIVEN a patrol of three points WHEN played for days THEN it walks the circuit, back to its first point and on', () => {
    const s = withPlan(campaign([army('a', '0202')]), 'a', { kind: 'patrol', points: [hx('0202'), hx('0602'), hx('0605')] });
    const out = play(s, OPEN, 80);
    const visits = out.trail.filter((h, i) => h !== out.trail[i - 1] && ['0202', '0602', '0605'].includes(h));
    expect(visits.slice(0, 6)).toEqual(['0202', '0602', '0605', '0202', '0602', '0605']);
    // It marched day after day: the rest the rules owe was taken (never fatigued by its plan).
    expect(planLines(out.events).some((e) => (e.data as { reason: string }).reason === 'restDue')).toBe(true);
  });

  it('GIVEN a fatigued army WHEN its plan would march THEN it rests first, saying the rest is owed', () => {
    const s = withPlan(campaign([army('a', '0101', { fatigued: true })]), 'a', { kind: 'march', to: hx('0801') });
    const out = followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']);
    expect(out.state.orders['a']?.kind).toBe('rest');
    expect(out.events[0]?.data).toMatchObject({ action: 'rest', reason: 'restDue' });
  });

  it('GIVEN a march plan to a hex another army holds WHEN followed THEN it rests, with the rules\' refusal as its reason', () => {
    const s = withPlan(campaign([army('a', '0101'), army('b', '0401')]), 'a', { kind: 'march', to: hx('0401') });
    const out = followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']);
    expect(out.state.orders['a']?.kind).toBe('rest');
    expect(out.events[0]?.data).toMatchObject({ action: 'rest', reason: 'blocked' });
    expect(out.events[0]?.text).toMatch(/0401 is held by Army of b/);
  });

  it('GIVEN armies that do not follow WHEN the plans run THEN their plans give no order', () => {
    const s = withPlan(campaign([army('a', '0101')]), 'a', { kind: 'march', to: hx('0801') });
    expect(followPlans(s, OPEN, NO_WEATHER_EFFECTS, []).state.orders).toEqual({});
  });
});

describe('plans: shadow and withdraw judge on what the army knows', () => {
  it('GIVEN a shadow plan and an enemy in sight WHEN followed THEN it marches to two hexes from it', () => {
    const s = withPlan(campaign([army('a', '0101'), army('e', '0801', { side: 'chaos' })]), 'a', { kind: 'shadow', target: 'e' });
    const out = play(s, OPEN, 6);
    expect(Math.abs(Number(at(out.state, OPEN, 'a').slice(0, 2)) - 8)).toBeGreaterThanOrEqual(2);
    expect(planLines(out.events).map((e) => (e.data as { reason: string }).reason)).toContain('watching');
  });

  it('PROPERTY in fog of war, a shadow plan follows where its side last knew the enemy: the unseen true position changes nothing', () => {
    const base = campaign([army('a', '0101'), army('e', '0901', { side: 'chaos' })]);
    const fog: CampaignState = {
      ...withPlan(base, 'a', { kind: 'shadow', target: 'e' }),
      settings: { ...base.settings, positions: 'fog' },
      knowledge: { armies: { a: { e: { hex: hx('0801'), at: { day: 1, half: 0 }, how: 'public' } } }, reports: {} },
    };
    const far = ['0906', '1006', '0905', '1005', '1004', '0904'];
    fc.assert(fc.property(fc.constantFrom(...far), (truth) => {
      const world = { ...fog, armies: { ...fog.armies, e: { ...fog.armies['e'], hex: hx(truth) } as CampaignState['armies'][string] } };
      const out = followPlans(world, OPEN, NO_WEATHER_EFFECTS, ['a']);
      const reference = followPlans(fog, OPEN, NO_WEATHER_EFFECTS, ['a']);
      expect(out.state.orders).toEqual(reference.state.orders);
      expect(out.events.map((e) => e.text)).toEqual(reference.events.map((e) => e.text));
      expect(out.events[0]?.text).toContain('last known at 0801');
    }), { numRuns: 12 });
  });

  it('GIVEN a shadow plan in fog with no sighting of its quarry WHEN followed THEN it holds and says so', () => {
    const base = campaign([army('a', '0101'), army('e', '0901', { side: 'chaos' })]);
    const s = { ...withPlan(base, 'a', { kind: 'shadow', target: 'e' }), settings: { ...base.settings, positions: 'fog' as const } };
    const out = followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']);
    expect(out.state.orders['a']?.kind).toBe('rest');
    expect(out.events[0]?.data).toMatchObject({ reason: 'noSighting' });
  });

  it('GIVEN a withdraw plan WHEN a known enemy near it is one it estimated stronger THEN it falls back, and holds there for good', () => {
    const s = withPlan(campaign([army('a', '0505', { figures: [20] }), army('e', '0705', { side: 'chaos' })]), 'a', { kind: 'withdraw', to: hx('0101') }, 'evade', { estimates: { e: { figures: 30, at: 0 } } });
    const out = followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']);
    expect(out.state.orders['a']?.kind).toBe('move');
    expect(out.state.plans['a']?.fellBack).toBe(true);
    expect(out.events[0]?.text).toMatch(/estimates it stronger \(its estimate: 30 figures against its own 20\): it falls back/);
    const weaker = followPlans(withPlan(s, 'a', { kind: 'withdraw', to: hx('0101') }, 'evade', { estimates: { e: { figures: 10, at: 0 } } }), OPEN, NO_WEATHER_EFFECTS, ['a']);
    expect(weaker.state.orders['a']?.kind).toBe('rest');
    expect(weaker.state.plans['a']?.fellBack).toBeUndefined();
  });
});

describe('plans: contact answers by policy', () => {
  const contactState = (policy: ArmyPlan['contact'], record: Partial<ContactRecord> = {}, estimates?: ArmyPlan['estimates']): CampaignState => {
    const s = withPlan(campaign([army('a', '0303', { figures: [20] }), army('e', '0403', { side: 'chaos' })]), 'a', { kind: 'hold' }, policy, estimates ? { estimates } : {});
    const c: ContactRecord = { id: 'c1', armyIds: ['a', 'e'], hexes: [hx('0303'), hx('0403')], openedAt: s.clock, step: 'step1', data: {}, ...record };
    return { ...s, contacts: { c1: c } };
  };
  const answer = (s: CampaignState) => followPlans(s, OPEN, NO_WEATHER_EFFECTS, ['a']);

  it('GIVEN step 1 and no estimate yet THEN it proceeds to learn one', () => {
    const out = answer(contactState('delay'));
    expect(out.state.contacts['c1']?.data.step1?.['a']).toEqual({ kind: 'proceed' });
    expect(out.events[0]?.data).toMatchObject({ action: 'answer', answer: 'proceed', reason: 'noEstimate' });
    expect(out.state.orders).toEqual({});
  });

  it('GIVEN step 1 and an estimate that says it is weaker THEN policy delay delays and policy evade stays silent', () => {
    expect(answer(contactState('delay', {}, { e: { figures: 25, at: 0 } })).state.contacts['c1']?.data.step1?.['a']).toEqual({ kind: 'delay' });
    expect(answer(contactState('evade', {}, { e: { figures: 25, at: 0 } })).state.contacts['c1']?.data.step1?.['a']).toEqual({ kind: 'silent' });
  });

  const estimate = (figures: number) => ({ observerId: 'a', targetId: 'e', modifiedDie: 4, awareness: 'estimate' as const, sizeBand: 'pm25' as const, compositionLevel: 'types' as const, estimatedFigures: figures });

  it('GIVEN the decision and its estimate of this contact THEN stronger engages, weaker evades, each with the figures it judged on', () => {
    const stronger = answer(contactState('evade', { step: 'decision', data: { estimates: { a: { e: estimate(12) } }, contactDice: { a: { raw: 4, modifiers: [], modified: 4 } } } }));
    expect(stronger.state.contacts['c1']?.data.decisions?.['a']).toBe('engage');
    expect(stronger.events[0]?.text).toContain('its estimate says it is the stronger (its estimate: 12 figures against its own 20)');
    const weaker = answer(contactState('evade', { step: 'decision', data: { estimates: { a: { e: estimate(28) } }, contactDice: { a: { raw: 4, modifiers: [], modified: 4 } } } }));
    expect(weaker.state.contacts['c1']?.data.decisions?.['a']).toBe('evade');
    // What it estimated is remembered for later (a withdraw plan falls back on it).
    expect(weaker.state.plans['a']?.estimates?.['e']?.figures).toBe(28);
  });

  it('GIVEN the decision and an army unaware of the enemy (contact die 1) THEN it cannot evade and engages, saying why', () => {
    const out = answer(contactState('evade', { step: 'decision', data: { contactDice: { a: { raw: 1, modifiers: [], modified: 1 } } } }));
    expect(out.state.contacts['c1']?.data.decisions?.['a']).toBe('engage');
    expect(out.events[0]?.data).toMatchObject({ reason: 'cannotEvade' });
  });

  it('GIVEN policy referee THEN the plan never answers and the referee is told the contact is theirs', () => {
    const out = answer(contactState('referee'));
    expect(out.state.contacts['c1']?.data.step1).toBeUndefined();
    expect(out.events[0]?.text).toMatch(/does not answer contact c1: yours to answer/);
  });
});

describe('plans: checked before they are stored', () => {
  const s = campaign([army('a', '0202'), army('e', '0702', { side: 'chaos' }), army('f', '0102')]);
  it('GIVEN a patrol across open sea THEN it is refused, naming the leg that cannot be walked', () => {
    const r = checkPlan(s, ISLANDS, { armyId: 'a', order: { kind: 'patrol', points: [hx('0202'), hx('0402'), hx('0702')] }, contact: 'evade', setBy: 'r' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.violation.code).toBe('plan.patrolNoRoute');
      expect(r.violation.message).toContain('no route from 0402 to 0702 (leg 2 of 3');
    }
  });
  it('GIVEN a patrol of one point, a shadow of an ally, a garrison of open ground THEN each is refused with what is accepted', () => {
    const codes = [
      checkPlan(s, OPEN, { armyId: 'a', order: { kind: 'patrol', points: [hx('0202')] }, contact: 'evade', setBy: 'r' }),
      checkPlan(s, OPEN, { armyId: 'a', order: { kind: 'shadow', target: 'f' }, contact: 'evade', setBy: 'r' }),
      checkPlan(s, OPEN, { armyId: 'a', order: { kind: 'garrison', town: hx('0505') }, contact: 'evade', setBy: 'r' }),
      checkPlan(s, ISLANDS, { armyId: 'a', order: { kind: 'march', to: hx('0802') }, contact: 'evade', setBy: 'r' }),
    ].map((r) => (r.ok ? 'ok' : r.violation.code));
    expect(codes).toEqual(['plan.patrolPoints', 'plan.notAnEnemy', 'plan.notATown', 'plan.noRoute']);
  });
  it('GIVEN a walkable patrol THEN it is stored with who set it and when', () => {
    const r = checkPlan(s, OPEN, { armyId: 'a', order: { kind: 'patrol', points: [hx('0202'), hx('0505')] }, contact: 'delay', setBy: 'r' });
    expect(r).toEqual({ ok: true, value: { armyId: 'a', order: { kind: 'patrol', points: [hx('0202'), hx('0505')] }, contact: 'delay', setBy: 'r', setAt: s.clock } });
  });
});

describe('plans: stored state', () => {
  it('GIVEN a state of version 7 (before plans) WHEN loaded THEN no army has a plan and every rule reads the shape', async () => {
    const { upgradeState } = await import('../../src/engine/campaign/upgrade.js');
    const { plans: _none, ...old } = campaign([army('a', '0101')]);
    expect(upgradeState(old, 7).plans).toEqual({});
  });
});

describe('plans: given by the scenario', () => {
  const doc = (): Record<string, unknown> & { armies: Record<string, unknown>[] } => JSON.parse(readFileSync(fileURLToPath(new URL('../../assets/scenarios/valormr.json', import.meta.url)), 'utf8'));
  const withPlans = (plans: Readonly<Record<string, unknown>>) => {
    const d = doc();
    return { ...d, armies: d.armies.map((a) => (typeof a['id'] === 'string' && plans[a['id']] ? { ...a, plan: plans[a['id']] } : a)) };
  };

  it('GIVEN armies with plans in the scenario file WHEN a campaign opens THEN they have them, set by the scenario', () => {
    const checked = validateScenario(withPlans({
      grunnthraesir: { kind: 'hold', contact: 'referee' },
      groennendr: { kind: 'patrol', places: ['1116', '1113'] },
      laugher: { kind: 'shadow', target: 'grallune', contact: 'delay' },
      oberon: { kind: 'garrison', places: ['2317'] },
    }));
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    const s = newCampaign({ id: 'c', name: 'c', scenario: checked.scenario, seed: 1 });
    expect(Object.keys(s.plans).sort()).toEqual(['groennendr', 'grunnthraesir', 'laugher', 'oberon']);
    expect(s.plans['laugher']).toEqual({ armyId: 'laugher', order: { kind: 'shadow', target: 'grallune' }, contact: 'delay', setBy: 'scenario', setAt: { day: 1, half: 0 } });
    expect(s.plans['groennendr']?.contact).toBe('evade');
  });

  it('GIVEN bad plans in the scenario file THEN each is refused with its path and what is accepted, all at once', () => {
    const checked = validateScenario(withPlans({
      lizardmen: { kind: 'patrol', places: ['0507', '0101'] },
      laugher: { kind: 'shadow', target: 'nobody' },
      oberon: { kind: 'garrison', places: ['3615'] },
      heagh: { kind: 'march', places: ['3307', '3306'] },
      kobolds: { kind: 'hold', places: ['0810'] },
      arkthark: { kind: 'march', places: ['0716'], contact: 'charge' },
    }));
    expect(checked.ok).toBe(false);
    const problems = checked.ok ? [] : checked.problems.map((p) => `${p.path}: ${p.message}`).sort();
    expect(problems.some((p) => /^armies\[\d+\]\.plan\.contact: /.test(p))).toBe(true);
    const fixed = validateScenario(withPlans({
      lizardmen: { kind: 'patrol', places: ['0507', '0101'] },
      laugher: { kind: 'shadow', target: 'nobody' },
      oberon: { kind: 'garrison', places: ['3615'] },
      heagh: { kind: 'march', places: ['3307', '3306'] },
      kobolds: { kind: 'hold', places: ['0810'] },
    }));
    const messages = fixed.ok ? [] : fixed.problems.map((p) => p.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringContaining('The patrol cannot be walked: Lizard Men of Skullhaven has no route from 0507 to 0101'),
      'There is no army "nobody" on the map to shadow.',
      expect.stringContaining('3615 is not a town: a garrison holds a town, e.g. Valdheim (2317)'),
      'a march plan takes one place in "places" (it has 2)',
      'a hold plan takes no "places"',
    ]));
    expect(fixed.ok ? [] : fixed.problems.every((p) => /^armies\[\d+\]\.plan$/.test(p.path))).toBe(true);
  });
});
