import { describe, expect, it } from 'vitest';
import { namesOf, PUBLIC, REFEREE, toArmy } from '../../src/engine/events/events.js';
import { describeFatigue, describeMovement } from '../../src/engine/movement/describeMovement.js';
import type { MovementFact } from '../../src/engine/movement/movementEvents.js';
import { army } from './movementFixtures.js';

const names = namesOf(Object.fromEntries(['ann', 'bert', 'lara', 'xan'].map((id) => [id, army(id, '0101')])));
const say = (f: MovementFact): string => describeMovement(f, names);
const outcome = (notes: Extract<MovementFact, { type: 'movementOutcome' }>['data']['notes'], moved: 'marched' | 'crossed' | 'stayed' = 'stayed'): string =>
  say({ type: 'movementOutcome', audience: toArmy('ann'), data: { armyId: 'ann', half: 'afternoon', from: '0201', hex: '0202', moved, pointsLeft: 3, allowance: 12, notes } });

describe('describeMovement: the chronicle of a march', () => {
  it('GIVEN a march THEN the hexes by the way and the rivers crossed are named', () => {
    expect(say({ type: 'armyMoved', audience: PUBLIC, data: { armyId: 'ann', from: '0101', to: '0103', path: ['0102', '0103'], crossings: [] } })).toBe('Ann marched from 0101 to 0103 (by 0102).');
    expect(say({ type: 'armyMoved', audience: PUBLIC, data: { armyId: 'ann', from: '0101', to: '0102', path: ['0102'], crossings: [{ method: 'ford', hex: '0101' }] } }))
      .toBe('Ann marched from 0101 to 0102, crossing the river (ford at 0101).');
    expect(say({ type: 'armyMoved', audience: PUBLIC, data: { armyId: 'ann', from: '0202', to: '0202', path: [], crossings: [{ method: 'bridge', hex: '0202' }] } }))
      .toBe('Ann crossed the river at 0202 (bridge at 0202).');
  });

  it('GIVEN a halt THEN the public line says where and why, without strengths', () => {
    expect(say({ type: 'armyBlocked', audience: PUBLIC, data: { armyId: 'ann', hex: '0101', blockedAt: '0102', reason: 'occupied', by: 'bert' } })).toBe('Ann halted at 0101: 0102 is held by another commander.');
    expect(say({ type: 'armyBlocked', audience: PUBLIC, data: { armyId: 'bert', hex: '0103', blockedAt: '0102', reason: 'contested' } })).toBe('Bert halted at 0103, short of the contested hex 0102.');
  });

  it('GIVEN a passage of lines THEN the wait before the ally\'s hex, and a contact during the passage, in words', () => {
    expect(outcome([{ kind: 'waitingToPass', at: '0101', through: '0102' }])).toMatch(/Waiting at 0101: the allied force in 0102 can be passed through only in and out in the same half period; the march goes on when it can\.$/);
    expect(say({ type: 'passageDisordered', audience: PUBLIC, data: { armyId: 'ann', allyIds: ['bert', 'lara'], hex: '0103' } }))
      .toBe('Enemy contact caught Ann passing through the lines of Bert and Lara: all are unformed; it halts at 0103.');
  });

  it('GIVEN a contested hex THEN the public learns who took it, the referee why', () => {
    expect(say({ type: 'hexContested', audience: PUBLIC, data: { hex: '0102', half: 'morning', ranking: ['ann', 'bert'] } })).toBe('Ann and Bert marched for 0102 in the morning: Ann took it.');
    expect(say({ type: 'hexContestDecided', audience: REFEREE, data: { hex: '0102', ranking: ['ann', 'bert'], decidedBy: 'fewerTroops' } })).toBe('0102 went to Ann (fewer troops).');
    expect(say({ type: 'hexContestDecided', audience: REFEREE, data: { hex: '0102', ranking: ['bert', 'ann'], decidedBy: 'morePointsLeft' } })).toBe('0102 went to Bert (more marching time left).');
    expect(say({ type: 'hexContestDecided', audience: REFEREE, data: { hex: '0102', ranking: ['bert', 'ann'], decidedBy: 'moreDailyPoints' } })).toBe('0102 went to Bert (the faster march).');
    expect(say({ type: 'hexContestDecided', audience: REFEREE, data: { hex: '0102', ranking: ['ann', 'bert'], decidedBy: 'dice' } })).toBe('0102 went to Ann (the luck of the dice).');
    expect(say({ type: 'hexContested', audience: REFEREE, data: { hex: '0102', contenders: [{ armyId: 'ann', figures: 20, pointsLeft: 6, dailyPoints: 12 }, { armyId: 'bert', figures: 20, pointsLeft: 6, dailyPoints: 12 }], rolls: { ann: [5], bert: [2] } } }))
      .toBe('Contest for 0102: Army of ann 20 figures, 6 points left, 12 daily; Army of bert 20 figures, 6 points left, 12 daily; dice: Army of ann 5; Army of bert 2.');
  });

  it('GIVEN map contact THEN the channel hears who and near where', () => {
    expect(say({ type: 'contactMade', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['lara', 'xan'], near: '0103' } })).toBe('Lara and Xan are in contact near 0103.');
  });

  it('GIVEN a crossing begun, failed or done THEN each audience hears its part', () => {
    expect(say({ type: 'crossingStarted', audience: PUBLIC, data: { armyId: 'ann', hex: '0202', kind: 'ferry' } })).toBe('Ann begins a ferry crossing at 0202.');
    expect(say({ type: 'crossingStarted', audience: PUBLIC, data: { armyId: 'ann', hex: '0202', kind: 'rafts' } })).toBe('Ann begins collecting timber for rafts at 0202.');
    expect(say({ type: 'raftsFailed', audience: PUBLIC, data: { armyId: 'ann', hex: '0202' } })).toBe('Ann found too little timber for rafts at 0202.');
    expect(say({ type: 'raftsFailed', audience: toArmy('ann'), data: { armyId: 'ann', hex: '0202', roll: 3 } }))
      .toBe('Timber die 3: not enough timber at 0202. The day is lost and rafts cannot be built in this hex; your order is cancelled. Try another hex.');
    expect(say({ type: 'timberFound', audience: toArmy('ann'), data: { armyId: 'ann', hex: '0202', roll: 5 } })).toBe('Timber die 5: enough timber at 0202; building rafts.');
    expect(say({ type: 'riverCrossed', audience: PUBLIC, data: { armyId: 'ann', hex: '0202', method: 'rafts' } })).toBe('Ann crossed the river at 0202 by rafts.');
    expect(say({ type: 'riverCrossed', audience: toArmy('ann'), data: { armyId: 'ann', hex: '0202' } })).toBe('Army of ann is across the river at 0202 and formed again.');
  });

  it('GIVEN the daily books THEN stragglers, reforming and rest are told', () => {
    expect(say({ type: 'stragglersLost', audience: toArmy('ann'), data: { armyId: 'ann', percent: 10, figures: 3 } }))
      .toBe('A day unformed: 10 % of each regiment straggles, 3 figure(s) in all. They may catch up while the army waits at its rally point.');
    expect(say({ type: 'armyReformed', audience: PUBLIC, data: { armyId: 'ann', hex: '0201' } })).toBe('Ann has reformed at 0201.');
    expect(say({ type: 'stragglersRejoined', audience: toArmy('ann'), data: { armyId: 'ann', hex: '0201', percent: 5, figures: 1, stillOut: 4 } }))
      .toBe('A day at the rally point 0201: 1 straggling figure(s) rejoin (5 %); 4 still out. Leaving loses them.');
    expect(say({ type: 'fatigueRecovered', audience: toArmy('ann'), data: { armyId: 'ann' } })).toBe('Army of ann rested a full day and is no longer fatigued.');
    expect(say({ type: 'armyFatigued', audience: toArmy('ann'), data: { armyId: 'ann', reason: 'seventhDay' } }))
      .toBe('Army of ann is fatigued: marched a seventh day in a row without a full day of rest. A full day of rest recovers it.');
  });
});

describe('describeMovement: the commander\'s account of a half period', () => {
  it('GIVEN a march THEN the half, the hex and the points left today', () => {
    expect(outcome([], 'marched')).toBe('Afternoon: Army of ann marched 0201 -> 0202; 3 of 12 points left today.');
    expect(outcome([], 'crossed')).toBe('Afternoon: Army of ann crossed the river at 0202; 3 of 12 points left today.');
  });

  it('GIVEN notes THEN each is said, the first capitalised', () => {
    expect(outcome([{ kind: 'stragglersLeft', figures: 3, at: '0201' }], 'marched')).toBe('Afternoon: Army of ann marched 0201 -> 0202; 3 of 12 points left today. 3 straggling figure(s) left behind at 0201 are lost.');
    expect(outcome([{ kind: 'crossingBegun', method: 'ferry', at: '0202', days: 1 }])).toContain('Ferry crossing at 0202 begun: 1 day(s).');
    expect(outcome([{ kind: 'crossingBegun', method: 'rafts', at: '0202', days: 3 }])).toContain('Rafts (timber, build, cross) at 0202 begun: 3 day(s).');
    expect(outcome([{ kind: 'orderCancelled', violation: { code: 'move.water', message: 'the hex is water' } }])).toContain('Order cancelled: the hex is water.');
    expect(outcome([{ kind: 'crossingChanged', method: 'rafts' }])).toContain('Waiting: the crossing here would now be by rafts; give the order again to accept it.');
    expect(outcome([{ kind: 'haltedByContact', mayGoOn: true }])).toContain('Halted by map contact; the march may go on next half period once the contact is resolved.');
    expect(outcome([{ kind: 'haltedByContact', mayGoOn: false }])).toContain('Halted by map contact; movement ends for this period.');
    expect(outcome([{ kind: 'haltedOccupied', at: '0202', blockedAt: '0203', cancelled: true }])).toContain('Halted at 0202: 0203 is held by another commander (order cancelled: route around it).');
    expect(outcome([{ kind: 'haltedOccupied', at: '0202', blockedAt: '0203', cancelled: false }, { kind: 'lostContest', at: '0202', contested: '0203' }]))
      .toBe('Afternoon: Army of ann stayed at 0202; 3 of 12 points left today. Halted at 0202: 0203 is held by another commander; lost the contest for 0203; halted at 0202.');
  });

  it('GIVEN each reason for fatigue THEN the words /army status and the warnings use', () => {
    expect(describeFatigue('forcedMarch')).toBe('forced march yesterday and no rest today');
    expect(describeFatigue('seventhDay')).toBe('marched a seventh day in a row without a full day of rest');
    expect(describeFatigue('noLongRest')).toBe('moved in half periods for more than two periods without two consecutive half periods of rest');
    expect(describeFatigue('referee')).toBe('set by the referee');
    expect(describeFatigue(undefined)).toBe('no reason recorded');
  });
});
