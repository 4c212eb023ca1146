import { describe, expect, it } from 'vitest';
import { assumeRole, canAvoidTo, chooseDecision, chooseStep1, exploit, maneuver, relief, resolveDecision, resolveStep1 } from '../../src/engine/contact/index.js';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import type { Army } from '../../src/engine/forces/army.js';
import { formatHex } from '../../src/engine/hex/hexId.js';
import type { MapModel } from '../../src/engine/map/mapModel.js';
import { planMove } from '../../src/engine/movement/index.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { weatherEffects } from '../../src/engine/weather/weatherEffects.js';
import { FIRST_MORNING } from '../../src/engine/weather/types.js';
import { asciiMap, dice, hx, makeState, withContact } from './contactFixtures.js';
import { MOVE, riverDownColumn2, tick, ticks } from './movementFixtures.js';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}
const codeOf = <T>(r: Result<T>): string => (r.ok ? 'accepted' : r.violation.code);

/** Hadewych (Chaos, 0303) in contact with Ingegerd (Law, 0302, to the north), at `clock`. */
function standoff(clock: GameTime = { day: 1, half: 0 }, patch: Partial<Army> = {}): CampaignState {
  const s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } }, clock), ['hadewych', 'ingegerd']);
  const h = s.armies['hadewych']!;
  return { ...s, armies: { ...s.armies, hadewych: { ...h, ...patch, march: { ...h.march, allowanceToday: 12, ...patch.march } } } };
}

const rain = (s: CampaignState, rainLevel: number): CampaignState => ({ ...s, weather: { ...FIRST_MORNING, sky: 'cloudy', rainLevel } });

/** The movement rules' own refusal of the same step, as a march. */
function marchRefusal(s: CampaignState, map: MapModel, to: string, period: 'day' | 'night') {
  const r = planMove(s, map, weatherEffects(s.weather, s.settings), 'hadewych', { ...MOVE, path: [hx(to)], period });
  return r.ok ? undefined : r.violation;
}

describe('RULINGS 4: a contact move is priced and allowed by the movement rules', () => {
  // Row 4 (0x04) is forest to the south of Hadewych.
  const woods = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'fffffff', 'ccccccc']);

  it('GIVEN a light-sighted army at night WHEN it avoids into an off-road forest hex THEN refused with the night rule (000 Nocturnal Movement), as a march is', () => {
    const s = standoff({ day: 1, half: 2 });
    const r = canAvoidTo(s, woods, s.armies['hadewych']!, hx('0304'));
    expect(codeOf(r)).toBe('move.nightTerrain');
    const march = marchRefusal(s, woods, '0304', 'night');
    expect(march?.code).toBe('move.nightTerrain');
    expect(march?.message.startsWith(r.ok ? '-' : r.violation.message)).toBe(true);
  });

  it('GIVEN the same army at night WHEN it avoids into a clear hex THEN it pays double (12), by day single (6)', () => {
    const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
    const night = standoff({ day: 1, half: 2 });
    expect(must(canAvoidTo(night, clear, night.armies['hadewych']!, hx('0304'))).points).toBe(12);
    const day = standoff({ day: 1, half: 0 });
    expect(must(canAvoidTo(day, clear, day.armies['hadewych']!, hx('0304'))).points).toBe(6);
  });

  it('GIVEN a dark-seeing army at night THEN the forest is open to it at its day cost', () => {
    const s = standoff({ day: 1, half: 2 }, { sight: 'dark' });
    expect(must(canAvoidTo(s, woods, s.armies['hadewych']!, hx('0304'))).points).toBe(9);
  });

  // A minor river down column 02 with a ford at 0203: Hadewych stands in 0203 on its east bank.
  const fordMap = asciiMap(['ccccc', 'ccccc', 'ccccc', 'ccccc', 'ccccc'], { rivers: [riverDownColumn2('minor', 'ford', '0203')] });
  function atTheFord(rainLevel: number): CampaignState {
    const s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0203' }, ingegerd: { side: 'law', hex: '0303' } }, { day: 1, half: 0 }), ['hadewych', 'ingegerd']);
    const h = s.armies['hadewych']!;
    return rain({ ...s, armies: { ...s.armies, hadewych: { ...h, bank: 'left', march: { ...h.march, pointsLeft: 12, allowanceToday: 12 } } } }, rainLevel);
  }

  it('GIVEN a dry ford THEN the avoid across it pays the ford (6) and the hex (6)', () => {
    const s = atTheFord(0);
    expect(must(canAvoidTo(s, fordMap, s.armies['hadewych']!, hx('0103'))).points).toBe(12);
  });

  it('GIVEN rain level 1 WHEN an army avoids across the ford THEN refused: the ford is closed and rafts take days', () => {
    const s = atTheFord(1);
    const r = canAvoidTo(s, fordMap, s.armies['hadewych']!, hx('0103'));
    expect(codeOf(r)).toBe('move.fordClosed');
    expect(r.ok ? '' : r.violation.message).toMatch(/The ford at 0203 is closed by rain: the river there can now be crossed only by building rafts, which takes days/);
    // The march preview warns with the same code (it would build rafts over days instead).
    const plan = must(planMove(s, fordMap, weatherEffects(s.weather, s.settings), 'hadewych', { ...MOVE, path: [hx('0103')] }));
    expect(plan.warnings.map((w) => w.code)).toContain('move.fordClosed');
    // Along the same bank, no crossing: the avoid is allowed.
    expect(codeOf(canAvoidTo(s, fordMap, s.armies['hadewych']!, hx('0204')))).toBe('accepted');
  });

  it('GIVEN rain level 4 ("a fourth brings all movement to a halt") WHEN an army avoids THEN refused', () => {
    const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
    const s = rain(standoff(), 4);
    const r = canAvoidTo(s, clear, s.armies['hadewych']!, hx('0304'));
    expect(codeOf(r)).toBe('move.weatherHalted');
    expect(r.ok ? '' : r.violation.message).toBe('No overland movement in this weather (rain level 4).');
  });

  it('GIVEN rain level 3 (movement halved) THEN the day\'s points left are halved for a contact move too', () => {
    const mountains = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'mmmmmmm', 'ccccccc']);
    const s = rain(standoff(), 3);
    // 12 x 0.5 = 6 points today: the mountain (12) is out of reach, even by a forced march (+3).
    expect(codeOf(canAvoidTo(s, mountains, s.armies['hadewych']!, hx('0304')))).toBe('contact.avoidNoPoints');
    const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
    expect(must(canAvoidTo(s, clear, s.armies['hadewych']!, hx('0304'))).forcedMarch).toBe(false);
  });

  it('GIVEN an avoid into an off-road mountain hex THEN the army moves unformed: stragglers at daybreak, a rally day, and its commander is told', () => {
    const mountains = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'mmmmmmm', 'ccccccc']);
    let s = standoff();
    s = must(chooseStep1(s, mountains, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') })).state;
    const out = must(resolveStep1(s, mountains, 'c1', dice(6, 1)));
    const h = out.state.armies['hadewych']!;
    expect(formatHex(h.hex)).toBe('0304');
    expect(h.formation).toBe('unformed');
    expect(h.march).toMatchObject({ unformedToday: true, pointsLeft: 0, spentToday: 12 });
    expect(out.events.find((e) => e.type === 'contactMoveNoted')?.text).toMatch(/moved unformed into 0304/);
    // At daybreak the stragglers of a day's unformed movement are counted (half-dice 3: 15 %).
    const dawn = ticks(out.state, mountains, 4, dice(6, 6, 6, 6, 6, 6)).state;
    expect(dawn.armies['hadewych']!.march.stragglers.length).toBeGreaterThan(0);
  });

  it('GIVEN a flying army and the flying setting THEN it avoids over the mountain at clear cost, formed; with the setting off it pays the mountain', () => {
    const mountains = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'mmmmmmm', 'ccccccc']);
    const s = standoff({ day: 1, half: 0 }, { flying: true, movementClass: 'creature', baseMovePoints: 48, march: { ...standoff().armies['hadewych']!.march, pointsLeft: 48 } });
    expect(must(canAvoidTo(s, mountains, s.armies['hadewych']!, hx('0304')))).toMatchObject({ points: 6, unformed: false });
    const off = { ...s, settings: { ...s.settings, flyingIgnoresTerrain: false } };
    expect(must(canAvoidTo(off, mountains, off.armies['hadewych']!, hx('0304'))).points).toBe(12);
  });

  it('GIVEN a light-sighted force at night in a forest THEN it may not maneuver there (night limits), by day it pays the forest', () => {
    const forest = asciiMap(['fffffff', 'fffffff', 'fffffff', 'fffffff', 'fffffff']);
    expect(codeOf(maneuver(standoff({ day: 1, half: 3 }), forest, 'hadewych'))).toBe('move.nightTerrain');
    expect(must(maneuver(standoff({ day: 1, half: 1 }), forest, 'hadewych')).state.armies['hadewych']!.march.pointsLeft).toBe(3);
  });

  it('GIVEN an exploit through the supporter at night into forest THEN refused as the movement rules refuse it', () => {
    const clearThenWood = asciiMap(['ccccccc', 'cccfccc', 'ccccccc', 'ccccccc', 'ccccccc']);
    let s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, arn: { side: 'law', hex: '0401' }, aeskrvald: { side: 'law', hex: '0501' } }, { day: 1, half: 2 });
    s = withContact(s, ['hadewych', 'ingegerd']);
    s = must(assumeRole(s, 'arn', 'support', 'ingegerd')).state;
    s = must(assumeRole(s, 'aeskrvald', 'reserve', 'ingegerd')).state;
    s = must(resolveStep1(s, clearThenWood, 'c1', dice())).state;
    expect(codeOf(exploit(s, clearThenWood, 'aeskrvald', hx('0402')))).toBe('move.nightTerrain');
  });
});

describe('001 No Rest; RULINGS 4: a half period counts as movement from what happened', () => {
  const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);

  it('GIVEN a fatigued army whose only move of the day is an avoid THEN the day is no rest: still fatigued at daybreak, and a day marched', () => {
    let s = standoff({ day: 1, half: 0 }, { status: { ...standoff().armies['hadewych']!.status, fatigued: true } });
    s = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') })).state;
    s = must(resolveStep1(s, clear, 'c1', dice(6, 1))).state;
    expect(formatHex(s.armies['hadewych']!.hex)).toBe('0304');
    const dawn = ticks(s, clear, 4).state;
    expect(dawn.armies['hadewych']!.status.fatigued).toBe(true);
    expect(dawn.armies['hadewych']!.march.daysMarched).toBe(1);
    expect(dawn.armies['hadewych']!.march.recentHalves.slice(-4)).toEqual(['moved', 'rested', 'rested', 'rested']);
    // Without the avoid, the same day is a full day of rest.
    const rested = ticks(standoff({ day: 1, half: 0 }, { status: { ...standoff().armies['hadewych']!.status, fatigued: true } }), clear, 4).state;
    expect(rested.armies['hadewych']!.status.fatigued).toBe(false);
  });

  it('GIVEN an evade THEN that half period is no rest (but no march either)', () => {
    let s = standoff({ day: 1, half: 0 });
    s = { ...s, contacts: { c1: { ...s.contacts['c1']!, step: 'decision', data: { contactDice: { hadewych: { raw: 4, modifiers: [], modified: 4 }, ingegerd: { raw: 4, modifiers: [], modified: 4 } } } } } };
    s = must(chooseDecision(s, 'c1', 'hadewych', 'evade')).state;
    s = must(chooseDecision(s, 'c1', 'ingegerd', 'evade')).state;
    s = must(resolveDecision(s, clear, 'c1', dice())).state;
    const next = tick(s, clear).state;
    expect(next.armies['hadewych']!.march.recentHalves.at(-1)).toBe('battle');
    expect(next.armies['ingegerd']!.march.recentHalves.at(-1)).toBe('battle');
  });

  it('GIVEN a delay in the morning THEN the standing order does not march in it; the half is neither rest nor movement; the order marches on in the afternoon', () => {
    let s = standoff({ day: 1, half: 0 });
    s = { ...s, orders: { hadewych: { armyId: 'hadewych', kind: 'move', period: 'day', path: [hx('0304')], forced: false, unformed: false, save: false, givenBy: 'u', givenAt: { day: 1, half: 0 } } } };
    s = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'delay' })).state;
    s = must(resolveStep1(s, clear, 'c1', dice(6, 1))).state;
    expect(s.armies['hadewych']!.status.inContact).toBe(false);
    // Ingegerd leaves: nobody is there to renew the contact in the afternoon.
    s = { ...s, armies: { ...s.armies, ingegerd: { ...s.armies['ingegerd']!, hex: hx('0601') } } };
    const morning = tick(s, clear).state;
    expect(formatHex(morning.armies['hadewych']!.hex)).toBe('0303');
    expect(morning.orders['hadewych']).toBeDefined();
    expect(morning.armies['hadewych']!.march.recentHalves.at(-1)).toBe('battle');
    const afternoon = tick(morning, clear).state;
    expect(formatHex(afternoon.armies['hadewych']!.hex)).toBe('0304');
  });

  it('GIVEN no delay (fight on the morrow) THEN the same order marches that morning', () => {
    let s = standoff({ day: 1, half: 0 });
    s = { ...s, orders: { hadewych: { armyId: 'hadewych', kind: 'move', period: 'day', path: [hx('0304')], forced: false, unformed: false, save: false, givenBy: 'u', givenAt: { day: 1, half: 0 } } } };
    s = must(resolveStep1(s, clear, 'c1', dice())).state;
    expect(formatHex(tick(s, clear).state.armies['hadewych']!.hex)).toBe('0304');
  });
});

describe('001 Support and Reserve: the second relief or support of a turn takes its time and its points', () => {
  // Chaos Hadewych 0303 against Law Ingegerd 0302; Arn 0401 supports Ingegerd.
  function lawTeam(map: MapModel, clock: GameTime): CampaignState {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' }, arn: { side: 'law', hex: '0401' } }, clock);
    return must(assumeRole(withContact(s, ['hadewych', 'ingegerd']), 'arn', 'support', 'ingegerd')).state;
  }

  it('GIVEN a first relief THEN it is free and takes no time, but the half counts as movement', () => {
    const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
    const s = must(relief(lawTeam(clear, { day: 1, half: 0 }), clear, 'arn')).state;
    expect(s.armies['arn']!.march).toMatchObject({ pointsLeft: 12, spentPeriod: 0, activeHalf: { at: 0, moved: true } });
  });

  it('GIVEN a second switch in the morning into forest (9 of the period\'s 12 points) THEN refused: it would run into the afternoon', () => {
    // Ingegerd's hex 0302 is forest: Arn's switch back into it is the second of the day.
    const map = asciiMap(['ccccccc', 'ccfcccc', 'ccccccc', 'ccccccc']);
    let s = must(relief(lawTeam(map, { day: 1, half: 0 }), map, 'arn')).state;
    const again = relief(s, map, 'ingegerd');
    // Ingegerd (now supporting from 0401) would re-enter 0302 (forest, 9): 9 > 6, the morning's half.
    expect(codeOf(again)).toBe('contact.switchNoTime');
    expect(again.ok ? '' : again.violation.message).toMatch(/more than is left of this half period/);
    // In the afternoon the rest of the period's points will do: the switch is made and paid.
    s = { ...s, clock: { day: 1, half: 1 } };
    const later = must(relief(s, map, 'ingegerd')).state;
    expect(later.armies['ingegerd']!.march).toMatchObject({ pointsLeft: 3, spentPeriod: 9 });
  });

  it('GIVEN a second switch into clear in the morning (6 of 12) THEN it fits the morning and is timed like a march: the points spent in the period grow', () => {
    const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
    let s = must(relief(lawTeam(clear, { day: 1, half: 0 }), clear, 'arn')).state;
    s = must(relief(s, clear, 'ingegerd')).state;
    expect(s.armies['ingegerd']!.march).toMatchObject({ pointsLeft: 6, spentPeriod: 6 });
  });
});
