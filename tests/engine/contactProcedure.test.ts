import { describe, expect, it } from 'vitest';
import { applyBattleResult, battlefieldSketchOf, assumeRole, awaitingAnswers, chooseDecision, chooseStep1, contactStep, declareReinforce, exploit, forceSecondContact, intelFor, maneuver, relief, resolveDecision, resolveStep1, splitContact, supportOperation, type ContactOutput } from '../../src/engine/contact/index.js';
import { contactView } from '../../src/engine/contact/view.js';
import { halfPeriodSpent, isQuietPair } from '../../src/engine/contact/queries.js';
import { placeTerrainCard } from '../../src/engine/contact/terrainPlacement.js';
import { resolveDisengagement, type DisengageContext } from '../../src/engine/contact/disengage.js';
import { formatHex } from '../../src/engine/hex/hexId.js';
import type { EngineEvent } from '../../src/engine/events/events.js';
import { regimentFigures } from '../../src/engine/forces/army.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { asciiMap, dice, hx, makeState, withContact } from './contactFixtures.js';

const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
const wooded = asciiMap(['fffffff', 'fffffff', 'fffffff', 'fffffff', 'fffffff', 'fffffff']);

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

const figures = (s: CampaignState, id: string): number => regimentFigures(s.armies[id]!.regiments[0]!);
/** What the channel learns: the public facts, without their sentences. */
const publicFacts = (events: readonly EngineEvent[]) => events.filter((e) => e.audience.kind === 'public').map((e) => ({ type: e.type, data: e.data }));
const NO_CTX: DisengageContext = { supports: {}, reinforce: {}, maneuvering: new Set(), meleeToday: new Set() };

/** Hadewych (Chaos) at 0303 faces Ingegerd (0302, north) and Aeskrvald (0403, south-east). */
function threeForces(extra: Parameters<typeof makeState>[0] = {}): CampaignState {
  return makeState({
    hadewych: { side: 'chaos', hex: '0303', scouts: 1 },
    ingegerd: { side: 'law', hex: '0302' },
    aeskrvald: { side: 'law', hex: '0403', scouts: 1 },
    ...extra,
  });
}

function twoForces(extra: Parameters<typeof makeState>[0] = {}): CampaignState {
  return withContact(makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, ...extra }), ['hadewych', 'ingegerd']);
}

function proceedAll(s: CampaignState, ids: string[], contactId = 'c1'): CampaignState {
  for (const id of ids) s = must(chooseStep1(s, clear, contactId, id, { kind: 'proceed' })).state;
  return s;
}

describe('001 Contact Dice: the worked example', () => {
  it('GIVEN Hadewych 4+1, Ingegerd 3+1, Aeskrvald 5+1+1 THEN 5, 4 and 7, contact in the 10th hour, estimates by DM only', () => {
    let s = withContact(threeForces(), ['hadewych', 'ingegerd', 'aeskrvald']);
    s = proceedAll(s, ['hadewych', 'ingegerd', 'aeskrvald']);
    // scouts: Hadewych 2 (killed), Aeskrvald 5 (successful); contact dice 4, 3, 5; size rolls.
    const out = must(resolveStep1(s, clear, 'c1', dice(2, 5, 4, 3, 5, 6, 1, 3, 3, 1, 1)));
    const c = out.state.contacts['c1']!;
    const d = c.data;
    expect(c.step).toBe('decision');
    expect(d.scouts).toEqual({ hadewych: ['killed'], aeskrvald: ['successful'] });
    expect(d.contactDice?.['hadewych']).toMatchObject({ raw: 4, modified: 5 });
    expect(d.contactDice?.['hadewych']?.modifiers.map((m) => m.code)).toEqual(['opponentsClear']);
    expect(d.contactDice?.['ingegerd']).toMatchObject({ raw: 3, modified: 4 });
    expect(d.contactDice?.['aeskrvald']).toMatchObject({ raw: 5, modified: 7 });
    expect(d.contactDice?.['aeskrvald']?.modifiers.map((m) => m.code)).toEqual(['scouts', 'opponentsClear']);
    expect(d.contactHour).toBe(10);
    expect(d.estimates?.['hadewych']?.['ingegerd']).toMatchObject({ sizeBand: 'pm10', sizeRoll: 7, sizeErrorPercent: 0, estimatedFigures: 20, compositionLevel: 'proportions' });
    expect(d.estimates?.['hadewych']?.['aeskrvald']).toMatchObject({ sizeRoll: 6, sizeErrorPercent: -5, estimatedFigures: 19 });
    expect(d.estimates?.['ingegerd']?.['hadewych']).toMatchObject({ sizeBand: 'pm25', sizeRoll: 2, estimatedFigures: 15, composition: { basic: ['infantry'], troopTypes: ['heavy foot'] } });
    expect(d.estimates?.['aeskrvald']?.['hadewych']).toMatchObject({ sizeBand: 'accurate', estimatedFigures: 20, composition: { companies: [{ troopType: 'heavy foot', figures: 20 }] } });
    expect(d.terrain).toHaveLength(12);
    expect(d.terrain?.slice(0, 2).map((t) => t.armyId)).toEqual(['aeskrvald', 'aeskrvald']);
    // A killed scout does not shrink what the army deploys at its next contact (RULINGS 5).
    expect(out.state.armies['hadewych']!.scouts).toBe(1);
    // Secrets: estimates only to their commander; nothing numeric in public.
    const estimates = out.events.filter((e) => e.type === 'contactEstimated');
    expect(estimates.map((e) => e.audience)).toEqual([{ kind: 'army', armyId: 'hadewych' }, { kind: 'army', armyId: 'ingegerd' }, { kind: 'army', armyId: 'aeskrvald' }]);
    expect(publicFacts(out.events)).toEqual([{ type: 'contactPhaseRun', data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd', 'aeskrvald'] } }]);
    expect(out.events.find((e) => e.type === 'contactTruth')?.audience).toEqual({ kind: 'referee' });
    // Views and intel.
    const mine = contactView(c, { kind: 'army', armyId: 'ingegerd' }).data;
    expect(Object.keys(mine.estimates ?? {})).toEqual(['ingegerd']);
    expect(Object.keys(mine.contactDice ?? {})).toEqual(['ingegerd']);
    expect(intelFor(Object.values(out.state.contacts), 'ingegerd')[0]?.estimates[0]?.targetId).toBe('hadewych');
  });

  it('GIVEN a captured scout THEN the captor adds 1, at most 1 however many', () => {
    let s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303', scouts: 2 }, ingegerd: { side: 'law', hex: '0302' } }), ['hadewych', 'ingegerd']);
    s = proceedAll(s, ['hadewych', 'ingegerd']);
    const out = must(resolveStep1(s, wooded, 'c1', dice(1, 1, 3, 3)));
    const d = out.state.contacts['c1']!.data;
    expect(d.contactDice?.['ingegerd']?.modifiers.map((m) => m.code)).toEqual(['capturedScouts']);
    expect(d.contactDice?.['hadewych']?.modified).toBe(3);
    expect(out.events.filter((e) => e.type === 'scoutCaptured').map((e) => e.audience)).toEqual([{ kind: 'army', armyId: 'ingegerd' }]);
  });

  it('GIVEN more points, the smaller army and a previous contact THEN +1 each', () => {
    let s = makeState({ hadewych: { side: 'chaos', hex: '0303', points: 24 }, ingegerd: { side: 'law', hex: '0302', extraRegiments: 1 } }, { day: 2, half: 1 });
    s = { ...s, contacts: { old: { id: 'old', armyIds: ['hadewych', 'ingegerd'], hexes: [], openedAt: { day: 1, half: 3 }, step: 'closed', data: {} } } };
    s = proceedAll(withContact(s, ['hadewych', 'ingegerd']), ['hadewych', 'ingegerd']);
    const out = must(resolveStep1(s, wooded, 'c1', dice(2, 2)));
    expect(out.state.contacts['c1']!.data.contactDice?.['hadewych']?.modifiers.map((m) => m.code)).toEqual(['morePoints', 'smallest', 'previousContact']);
  });
});

describe('001 Engage or Evade', () => {
  it('GIVEN a modified contact die of 1 THEN the commander is unaware, cannot evade, and engages', () => {
    let s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, wooded, 'c1', dice(1, 4, 3, 4))).state;
    const r = chooseDecision(s, 'c1', 'hadewych', 'evade');
    expect(r.ok ? '' : r.violation.code).toBe('contact.cannotEvadeUnaware');
    expect(s.contacts['c1']!.data.decisions).toEqual({ hadewych: 'engage' });
    expect(s.contacts['c1']!.data.estimates?.['hadewych']?.['ingegerd']).toMatchObject({ awareness: 'unaware' });
    expect(awaitingAnswers(s.contacts['c1']!)).toEqual(['ingegerd']);
  });

  it('GIVEN both evade THEN no battle and the forces are quiet until the next half period', () => {
    let s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, wooded, 'c1', dice(4, 4, 6, 1, 6, 1))).state;
    s = must(chooseDecision(s, 'c1', 'hadewych', 'evade')).state;
    const both = must(chooseDecision(s, 'c1', 'ingegerd', 'evade'));
    expect(both.allAnswered).toBe(true);
    const out = must(resolveDecision(both.state, wooded, 'c1', dice()));
    expect(out.state.contacts['c1']!.step).toBe('closed');
    expect(out.state.contacts['c1']!.data.outcome).toBe('bothEvaded');
    expect(isQuietPair(out.state, 'hadewych', 'ingegerd')).toBe(true);
    expect(isQuietPair(out.state, 'hadewych', 'ingegerd', { day: 1, half: 2 })).toBe(false);
    expect(out.state.armies['hadewych']!.status.inContact).toBe(false);
  });

  it('GIVEN one evades THEN a disengagement roll on the evade column from the assault regiment', () => {
    let s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, clear, 'c1', dice(4, 4, 6, 1, 6, 1))).state;
    s = must(chooseDecision(s, 'c1', 'hadewych', 'evade')).state;
    // Hadewych 1 + 3 (formed, rearguard, clear) = 4; Ingegerd 4 + 3 (formed, clear) = 7: -3 -> 10%.
    const out = must(resolveDecision(s, clear, 'c1', dice(1, 4)));
    const o = out.state.contacts['c1']!.data.disengagements?.[0];
    expect(o).toMatchObject({ operation: 'evade', modified: 4, percent: 10, figuresLost: 2 });
    expect(figures(out.state, 'hadewych')).toBe(18);
    expect(out.state.contacts['c1']!.data.outcome).toBe('evaded');
    expect(publicFacts(out.events)).toEqual([{ type: 'forceDisengaged', data: { armyId: 'hadewych', operation: 'evade', opposed: true } }]);
  });
});

describe('001 Avoid, Evade, Delay, and Withdraw: the evade example', () => {
  it('GIVEN Hadewych 1+3 against Ingegerd 4+4 and Aeskrvald 6+3 THEN 10% then 25%, together 35%', () => {
    const s = threeForces({ arn: { side: 'law', hex: '0401' } });
    const ctx = { ...NO_CTX, supports: { arn: 'ingegerd' } };
    const r = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd', 'aeskrvald'], operation: 'evade', ctx }, dice(1, 4, 6));
    expect(r.outcome.modifiers.map((m) => [m.code, m.value])).toEqual([['formed', 2], ['rearguard', 2], ['unfavorable', -1]]);
    expect(r.outcome.modified).toBe(4);
    const [i, a] = r.outcome.against;
    expect(i).toMatchObject({ modified: 8, difference: -4, cell: { percent: 10 } });
    expect(i?.modifiers.map((m) => m.code)).toEqual(['formed', 'supported', 'favorable']);
    expect(a).toMatchObject({ modified: 9, difference: -5, cell: { percent: 25 } });
    expect(r.outcome.percent).toBe(35);
    expect(r.outcome.figuresLost).toBe(7);
    expect(figures(r.state, 'hadewych')).toBe(13);
  });

  it('GIVEN two opponents THEN the losses of both results are added together', () => {
    const s = threeForces();
    // Hadewych unformed (as if in retreat, -1), in clear: 1 + 2 (rearguard above half strength) - 1 - 1 = 1; opponents 6 + 3 = 9: -8 twice -> 30% + 30%.
    const r = resolveDisengagement({ ...s, armies: { ...s.armies, hadewych: { ...s.armies['hadewych']!, formation: 'unformed' } } }, clear, { armyId: 'hadewych', opponentIds: ['ingegerd', 'aeskrvald'], operation: 'evade', ctx: NO_CTX }, dice(1, 6, 6));
    expect(r.outcome.against.map((a) => a.difference)).toEqual([-8, -8]);
    expect(r.outcome.percent).toBe(60);
  });
});

describe('001 Displacement', () => {
  // Ingegerd is north of Hadewych: the opposite hex is 0304.
  const base = (): CampaignState => makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } });

  it('GIVEN a D result THEN the force is pushed to the hex opposite the contact and pays its points', () => {
    // Delay: 1 + 3 = 4 against 6 + 6 (favorable, and a fresh... ) use unformed Hadewych to reach -8.
    const s = base();
    const r = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'delay', formation: 'rout', ctx: NO_CTX }, dice(1, 3));
    // rout -2, clear -1: -2; Ingegerd 3 + 2 + 1 = 6: difference -8 -> 50% D.
    expect(r.outcome.against[0]).toMatchObject({ difference: -8, cell: { percent: 50, displaced: true } });
    expect(formatHex(r.state.armies['hadewych']!.hex)).toBe('0304');
    expect(r.state.armies['hadewych']!.march.pointsLeft).toBe(6);
    expect(figures(r.state, 'hadewych')).toBe(10);
  });

  it('GIVEN the opposite hex holds an enemy THEN the next line down is read until no displacement', () => {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, gyrhawk: { side: 'law', hex: '0304' } });
    const r = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'delay', formation: 'rout', ctx: NO_CTX }, dice(1, 3));
    expect(r.outcome.linesDown).toBe(2);
    expect(r.outcome.destroyed).toBe(true);
    expect(formatHex(r.state.armies['hadewych']!.hex)).toBe('0303');
    expect(figures(r.state, 'hadewych')).toBe(0);
  });

  it('GIVEN no points to enter the opposite hex THEN the next line down is read', () => {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303', points: 3 }, ingegerd: { side: 'law', hex: '0302' } });
    const r = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'evade', formation: 'rout', ctx: NO_CTX }, dice(1, 5));
    // -2 against 8: -10 -> evade 75% D, blocked -> -11 destroyed.
    expect(r.outcome.against[0]?.difference).toBe(-10);
    expect(r.outcome.linesDown).toBe(1);
    expect(r.outcome.destroyed).toBe(true);
  });

  it('GIVEN a supporter that reinforces THEN no displacement and normal losses', () => {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, solon: { side: 'chaos', hex: '0203' } });
    const ctx = { ...NO_CTX, supports: { solon: 'hadewych' }, reinforce: { solon: true } };
    // supported +1: -1 against 2 + 3 + 2 (die 2)... Ingegerd die 4: 4 + 3 = 7: -8 -> 50% D, reinforced.
    const r = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'delay', formation: 'rout', ctx }, dice(1, 4));
    expect(r.outcome.modified).toBe(-1);
    expect(r.outcome.reinforcedBy).toBe('solon');
    expect(r.outcome.displacedTo).toBeUndefined();
    expect(formatHex(r.state.armies['hadewych']!.hex)).toBe('0303');
    expect(figures(r.state, 'hadewych')).toBe(10);
  });

  it('GIVEN a supporter in the opposite hex that does not reinforce THEN it is pushed back too', () => {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, solon: { side: 'chaos', hex: '0304' } });
    const ctx = { ...NO_CTX, supports: { solon: 'hadewych' } };
    const r = resolveDisengagement(s, clear, { armyId: 'hadewych', opponentIds: ['ingegerd'], operation: 'delay', formation: 'rout', ctx }, dice(1, 4));
    expect(formatHex(r.state.armies['hadewych']!.hex)).toBe('0304');
    expect(formatHex(r.state.armies['solon']!.hex)).toBe('0305');
    expect(r.outcome.supporterDisplaced?.armyId).toBe('solon');
  });
});

describe('RULINGS 5 Step 1', () => {
  it('GIVEN everyone silent THEN fight on the morrow: closed, quiet until the next half period', () => {
    const out = must(resolveStep1(twoForces(), clear, 'c1', dice()));
    const c = out.state.contacts['c1']!;
    expect(c.step).toBe('closed');
    expect(c.data).toMatchObject({ outcome: 'fightOnMorrow', quietUntil: 2 });
    expect(out.events.map((e) => e.type)).toEqual(['contactDeferred']);
  });

  it('GIVEN avoid without the points (even by a forced march) THEN refused with what would be accepted', () => {
    const base = twoForces({ hadewych: { side: 'chaos', hex: '0303', points: 4 } });
    // Already force-marched today: no forced march extra to make up the 6 points of the hex.
    const h = base.armies['hadewych']!;
    const s = { ...base, armies: { ...base.armies, hadewych: { ...h, march: { ...h.march, forcedMarchDay: base.clock.day } } } };
    const r = chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') });
    expect(r.ok ? '' : r.violation.code).toBe('contact.avoidNoPoints');
    const far = chooseStep1(twoForces(), clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0306') });
    expect(far.ok ? '' : far.violation.code).toBe('contact.avoidNotAdjacent');
  });

  it('GIVEN an avoid THEN the avoid column, then the move into the named hex', () => {
    const s = must(chooseStep1(twoForces(), clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') })).state;
    // 6 + 3 = 9 against 1 + 3 = 4: +5, negligible.
    const out = must(resolveStep1(s, clear, 'c1', dice(6, 1)));
    expect(formatHex(out.state.armies['hadewych']!.hex)).toBe('0304');
    expect(out.state.armies['hadewych']!.march.pointsLeft).toBe(6);
    expect(figures(out.state, 'hadewych')).toBe(20);
    expect(out.state.contacts['c1']!.data.outcome).toBe('disengaged');
  });

  it('GIVEN a delay THEN the delay column and the half period is spent', () => {
    const s = must(chooseStep1(twoForces(), clear, 'c1', 'hadewych', { kind: 'delay' })).state;
    // 1 + 3 = 4 against 6 + 3 = 9: -5 -> 30%.
    const out = must(resolveStep1(s, clear, 'c1', dice(1, 6)));
    expect(figures(out.state, 'hadewych')).toBe(14);
    expect(halfPeriodSpent(out.state, 'hadewych')).toBe(true);
    expect(halfPeriodSpent(out.state, 'ingegerd')).toBe(false);
    expect(out.state.contacts['c1']!.step).toBe('closed');
  });

  it('GIVEN one proceeds THEN the contact phase runs', () => {
    const s = must(chooseStep1(twoForces(), clear, 'c1', 'ingegerd', { kind: 'proceed' })).state;
    const out = must(resolveStep1(s, clear, 'c1', dice(3, 3, 3, 3, 3, 3)));
    expect(out.state.contacts['c1']!.step).toBe('decision');
  });
});

describe('Both engage: deployment and battle result', () => {
  function toBattle(): ContactOutput {
    let s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, clear, 'c1', dice(4, 4, 6, 1, 6, 1))).state;
    return must(resolveDecision(s, clear, 'c1', dice(3, 5)));
  }

  it('GIVEN both engage THEN deployment dice, baselines and schedules; the contact waits in battle', () => {
    const out = toBattle();
    const c = out.state.contacts['c1']!;
    expect(c.step).toBe('battle');
    const dep = c.data.deployment!;
    expect(dep.layout.interval).toBe(3);
    expect(dep.entries.map((e) => [e.armyId, e.die, e.score])).toEqual([['hadewych', 3, 4], ['ingegerd', 5, 6]]);
    expect(dep.initiative).toBe('ingegerd');
    expect(dep.entries[0]?.formation).toBe('battalions');
    expect(out.state.armies['hadewych']!.status.inBattle).toBe(true);
    expect(halfPeriodSpent(out.state, 'hadewych')).toBe(true);
  });

  it('GIVEN the referee records losses and a rout with an aggressive pursuit THEN losses, withdraw roll and displacement', () => {
    const { state } = toBattle();
    const bad = applyBattleResult(state, clear, 'c1', { losses: { hadewych: { 'hadewych-1': 25 } } }, dice());
    expect(bad.ok ? '' : bad.violation.code).toBe('battle.badLosses');
    // Hadewych loses 4 (80% strength), routs: 1 - 2 - 1 = -2; Ingegerd pursues: 1 + 2 + 2 + 1 = 6: -8 -> 50% D.
    const out = must(applyBattleResult(state, clear, 'c1', { losses: { hadewych: { 'hadewych-1': 4 }, ingegerd: { 'ingegerd-1': 2 } }, withdrawals: [{ armyId: 'hadewych', condition: 'rout' }], pursuers: ['ingegerd'] }, dice(1, 1)));
    expect(figures(out.state, 'hadewych')).toBe(8);
    expect(figures(out.state, 'ingegerd')).toBe(18);
    expect(formatHex(out.state.armies['hadewych']!.hex)).toBe('0304');
    expect(out.state.armies['ingegerd']!.march.pointsLeft).toBe(6);
    const c = out.state.contacts['c1']!;
    expect(c.step).toBe('closed');
    expect(c.data.outcome).toBe('battle');
    expect(out.state.armies['hadewych']!.status.inBattle).toBe(false);
    expect(publicFacts(out.events)).toEqual([
      // The withdrawal and where it was pushed back are told once, in the line that ends the battle.
      { type: 'battleFought', data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], withdrew: ['hadewych'], pushedBack: { hadewych: '0304' } } },
    ]);
    const own = out.events.find((e) => e.type === 'battleLossesApplied' && e.audience.kind === 'army' && e.audience.armyId === 'hadewych');
    expect(own?.data).toMatchObject({ armyId: 'hadewych', regiments: [{ figures: 8, strength: 40 }] });
  });

  it('GIVEN a pursuit of a force withdrawing in good order THEN refused', () => {
    const { state } = toBattle();
    const r = applyBattleResult(state, clear, 'c1', { losses: {}, withdrawals: [{ armyId: 'hadewych', condition: 'formed' }], pursuers: ['ingegerd'] }, dice());
    expect(r.ok ? '' : r.violation.code).toBe('battle.nothingToPursue');
  });
});

describe('001 Map Contact: three or more forces', () => {
  it('GIVEN a referee split THEN separate contacts, each in step 1', () => {
    let s = threeForces({ minke: { side: 'chaos', hex: '0503' } });
    s = withContact(s, ['hadewych', 'ingegerd', 'aeskrvald', 'minke']);
    const bad = splitContact(s, clear, 'c1', [['hadewych', 'ingegerd'], ['aeskrvald']]);
    expect(bad.ok ? '' : bad.violation.code).toBe('contact.splitNotPartition');
    const out = must(splitContact(s, clear, 'c1', [['hadewych', 'ingegerd'], ['aeskrvald', 'minke']]));
    expect(out.contactIds).toHaveLength(2);
    expect(out.state.contacts['c1']!.step).toBe('closed');
    expect(out.contactIds.map((id) => out.state.contacts[id]!.armyIds)).toEqual([['hadewych', 'ingegerd'], ['aeskrvald', 'minke']]);
  });

  it('GIVEN one battle of three THEN one evader rolls against both engagers and the others fight', () => {
    let s = withContact(threeForces({ hadewych: { side: 'chaos', hex: '0303' }, aeskrvald: { side: 'law', hex: '0403' } }), ['hadewych', 'ingegerd', 'aeskrvald']);
    s = proceedAll(s, ['hadewych', 'ingegerd', 'aeskrvald']);
    s = must(resolveStep1(s, clear, 'c1', dice(4, 3, 5, 1, 1, 1, 1, 1, 1))).state;
    s = must(chooseDecision(s, 'c1', 'ingegerd', 'evade')).state;
    const out = must(resolveDecision(s, clear, 'c1', dice(6, 1, 4, 4, 4)));
    const c = out.state.contacts['c1']!;
    expect(c.step).toBe('battle');
    expect(c.armyIds).toEqual(['hadewych', 'aeskrvald']);
    expect(c.data.departed).toEqual(['ingegerd']);
  });
});

describe('001 Support, Reserve, Maneuver', () => {
  // Chaos Hadewych 0303 against Law Ingegerd 0302; Arn 0401 may support Ingegerd; Aeskrvald 0501 in reserve.
  function lawTeam(): CampaignState {
    const s = makeState({
      hadewych: { side: 'chaos', hex: '0303' },
      ingegerd: { side: 'law', hex: '0302' },
      arn: { side: 'law', hex: '0401' },
      aeskrvald: { side: 'law', hex: '0501' },
    });
    return withContact(s, ['hadewych', 'ingegerd']);
  }

  it('GIVEN roles THEN support needs adjacency and no enemy contact; reserve needs a supporter next to it', () => {
    let s = lawTeam();
    const early = assumeRole(s, 'aeskrvald', 'reserve', 'ingegerd');
    expect(early.ok ? '' : early.violation.code).toBe('contact.reserveNoSupporter');
    s = must(assumeRole(s, 'arn', 'support', 'ingegerd')).state;
    s = must(assumeRole(s, 'aeskrvald', 'reserve', 'ingegerd')).state;
    expect(s.contacts['c1']!.data).toMatchObject({ supports: { arn: 'ingegerd' }, reserves: { aeskrvald: 'ingegerd' } });
  });

  it('GIVEN a relief before the contact dice THEN the supporter takes the contact; the second switch of the turn costs points', () => {
    let s = must(assumeRole(lawTeam(), 'arn', 'support', 'ingegerd')).state;
    s = must(relief(s, clear, 'arn')).state;
    expect(formatHex(s.armies['arn']!.hex)).toBe('0302');
    expect(formatHex(s.armies['ingegerd']!.hex)).toBe('0401');
    expect(s.contacts['c1']!.armyIds).toEqual(['hadewych', 'arn']);
    expect(s.armies['arn']!.march.pointsLeft).toBe(12);
    s = must(relief(s, clear, 'ingegerd')).state;
    expect(s.armies['ingegerd']!.march.pointsLeft).toBe(6);
  });

  it('GIVEN the support operation THEN the reserve and the supporter switch hexes and roles', () => {
    let s = must(assumeRole(lawTeam(), 'arn', 'support', 'ingegerd')).state;
    s = must(assumeRole(s, 'aeskrvald', 'reserve', 'ingegerd')).state;
    s = must(supportOperation(s, clear, 'aeskrvald')).state;
    expect(formatHex(s.armies['aeskrvald']!.hex)).toBe('0401');
    expect(s.contacts['c1']!.data).toMatchObject({ supports: { aeskrvald: 'ingegerd' }, reserves: { arn: 'ingegerd' } });
  });

  it('GIVEN an exploit after the contact is resolved THEN the reserve moves through the supporter into a new contact', () => {
    let s = must(assumeRole(lawTeam(), 'arn', 'support', 'ingegerd')).state;
    s = must(assumeRole(s, 'aeskrvald', 'reserve', 'ingegerd')).state;
    const early = exploit(s, clear, 'aeskrvald', hx('0402'));
    expect(early.ok ? '' : early.violation.code).toBe('contact.exploitTooEarly');
    s = must(resolveStep1(s, clear, 'c1', dice())).state;
    const out = must(exploit(s, clear, 'aeskrvald', hx('0402')));
    expect(formatHex(out.state.armies['aeskrvald']!.hex)).toBe('0402');
    expect(out.state.armies['aeskrvald']!.march.pointsLeft).toBe(6);
    expect(out.state.contacts[out.contactId]!.armyIds).toEqual(['aeskrvald', 'hadewych']);
    expect(out.state.contacts[out.contactId]!.step).toBe('step1');
  });

  it('GIVEN a maneuver THEN it costs the own hex, adds 1 to disengagement dice, and forces a second contact after the first', () => {
    let s = twoForces();
    s = must(maneuver(s, clear, 'hadewych')).state;
    expect(s.armies['hadewych']!.march.pointsLeft).toBe(6);
    const again = maneuver(s, clear, 'hadewych');
    expect(again.ok ? '' : again.violation.code).toBe('contact.alreadyManeuvering');
    const tooSoon = forceSecondContact(s, clear, 'hadewych');
    expect(tooSoon.ok ? '' : tooSoon.violation.code).toBe('contact.firstNotResolved');
    s = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'delay' })).state;
    const first = must(resolveStep1(s, clear, 'c1', dice(1, 6)));
    expect(first.state.contacts['c1']!.data.disengagements?.[0]?.modifiers.map((m) => m.code)).toContain('rearguard');
    const second = must(forceSecondContact(first.state, clear, 'hadewych'));
    expect(second.state.contacts[second.contactId]!.armyIds).toEqual(['hadewych', 'ingegerd']);
    expect(second.state.contacts[second.contactId]!.data.forcedBy).toBe('hadewych');
    const third = forceSecondContact(second.state, clear, 'hadewych');
    expect(third.ok).toBe(false);
  });

  it('GIVEN a maneuvering force THEN +1 on the deployment dice', () => {
    let s = must(maneuver(twoForces(), clear, 'hadewych')).state;
    s = proceedAll(s, ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, wooded, 'c1', dice(3, 3, 1, 1, 1, 1))).state;
    const out = must(resolveDecision(s, wooded, 'c1', dice(3, 3)));
    const h = out.state.contacts['c1']!.data.deployment?.entries[0];
    expect(h?.modifiers.map((m) => m.code)).toEqual(['maneuver']);
    expect(h?.score).toBe(4);
  });

  it('GIVEN a reinforce declaration THEN it is stored for the supporter', () => {
    let s = must(assumeRole(lawTeam(), 'arn', 'support', 'ingegerd')).state;
    s = must(declareReinforce(s, 'arn', true)).state;
    expect(s.contacts['c1']!.data.reinforce).toEqual({ arn: true });
    const r = declareReinforce(s, 'aeskrvald', true);
    expect(r.ok ? '' : r.violation.code).toBe('contact.notSupporting');
  });
});

describe('RULINGS 5 deadlines: the contact tick step', () => {
  it('GIVEN an open contact at a tick THEN silence is fight on the morrow', () => {
    const s = twoForces();
    const next = contactStep({ state: { ...s, clock: { day: 1, half: 2 } }, map: clear, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(next.state.contacts['c1']!.step).toBe('closed');
    expect(next.state.contacts['c1']!.data.outcome).toBe('fightOnMorrow');
  });

  it('GIVEN a proceed THEN the contact phase at one tick and, at the next, missing answers engage', () => {
    let s = must(chooseStep1(twoForces(), clear, 'c1', 'ingegerd', { kind: 'proceed' })).state;
    s = contactStep({ state: { ...s, clock: { day: 1, half: 2 } }, map: clear, dice: dice(4, 4, 6, 1, 6, 1), weather: NO_WEATHER_EFFECTS }).state;
    expect(s.contacts['c1']!.step).toBe('decision');
    s = contactStep({ state: { ...s, clock: { day: 1, half: 3 } }, map: clear, dice: dice(3, 3), weather: NO_WEATHER_EFFECTS }).state;
    expect(s.contacts['c1']!.step).toBe('battle');
  });
});

describe('RULINGS 5 Terrain reconnaissance: placing cards', () => {
  it('GIVEN dealt cards THEN a commander places their own on the 3 x 3 grid with an orientation', () => {
    let s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, clear, 'c1', dice(4, 4, 6, 1, 6, 1))).state;
    s = must(placeTerrainCard(s, 'c1', 'ingegerd', 2, { row: 'far', column: 'left' }, 90)).state;
    const placed = s.contacts['c1']!.data.terrain!.filter((c) => c.armyId === 'ingegerd')[1];
    expect(placed).toMatchObject({ cell: { row: 'far', column: 'left' }, orientation: 90 });
    const bad = placeTerrainCard(s, 'c1', 'ingegerd', 9, { row: 'far', column: 'left' });
    expect(bad.ok ? '' : bad.violation.code).toBe('contact.noSuchCard');
  });
});

describe('Battlefield sketch', () => {
  it('GIVEN dealt cards THEN they lie on the grid by default and the loser sees the table turned round', () => {
    let s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    s = must(resolveStep1(s, clear, 'c1', dice(5, 2, 6, 1, 6, 1))).state;
    const c = s.contacts['c1']!;
    const winner = battlefieldSketchOf(s, c, 'hadewych');
    const loser = battlefieldSketchOf(s, c, 'ingegerd');
    expect(winner.cards).toHaveLength(8);
    expect(winner.cards[1]).toMatchObject({ row: 'near', column: 'left', orientation: 0 });
    expect(loser.cards[1]).toMatchObject({ row: 'far', column: 'right', orientation: 180 });
    expect(loser.nearSide).toBe('Ingegerd');
  });
});

describe('Purity', () => {
  it('GIVEN any transition THEN the input state is not mutated', () => {
    const s = proceedAll(twoForces(), ['hadewych', 'ingegerd']);
    const before = JSON.stringify(s);
    resolveStep1(s, clear, 'c1', dice(4, 4, 6, 1, 6, 1));
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe('RULINGS 5: the decision deadline is a campaign setting', () => {
  it('GIVEN a deadline of two ticks THEN the first tick only counts and the second applies the defaults', () => {
    const base = twoForces();
    const s0 = { ...base, settings: { ...base.settings, decisionDeadlineTicks: 2 }, clock: { day: 1, half: 2 as const } };
    const first = contactStep({ state: s0, map: clear, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(first.state.contacts['c1']!.step).toBe('step1');
    expect(first.events).toEqual([]);
    const second = contactStep({ state: { ...first.state, clock: { day: 1, half: 3 } }, map: clear, dice: dice(), weather: NO_WEATHER_EFFECTS });
    expect(second.state.contacts['c1']!.step).toBe('closed');
    expect(second.state.contacts['c1']!.data.outcome).toBe('fightOnMorrow');
  });
});
