import { describe, expect, it } from 'vitest';
import { baselines, PRECALCULATED_INTERVALS, SCOUT_TABLE, TERRAIN_DECK } from '../../src/engine/contact/index.js';
import { contactTableRow, sizeError } from '../../src/engine/contact/estimate.js';
import { deploy, initialDeployment, type DeploymentInput } from '../../src/engine/contact/deployment.js';
import { disengagementLosses } from '../../src/engine/contact/disengage.js';
import { precalculatedInterval, roundToHalf } from '../../src/engine/contact/baselines.js';
import { terrainDeck, terrainDrawOrder, dealTerrain } from '../../src/engine/contact/terrainDeck.js';
import { TERRAIN_CARD_KINDS } from '../../src/engine/contact/tables.js';
import { dice } from './contactFixtures.js';

describe('001 Scouts Out: scout table', () => {
  it('GIVEN each d6 THEN the scout disposition of the table', () => {
    expect(SCOUT_TABLE).toEqual(['captured', 'killed', 'unsuccessful', 'unsuccessful', 'successful', 'successful']);
  });
});

describe('001 Contact Dice: contact table', () => {
  it.each([
    [0, 'unaware', 'none', 'none'],
    [1, 'unaware', 'none', 'none'],
    [2, 'aware', 'none', 'none'],
    [3, 'estimate', 'pm50', 'basic'],
    [4, 'estimate', 'pm25', 'types'],
    [5, 'estimate', 'pm10', 'proportions'],
    [6, 'estimate', 'accurate', 'exact'],
    [8, 'estimate', 'accurate', 'exact'],
  ])('GIVEN a modified die of %i THEN %s, size %s, composition %s', (die, awareness, size, composition) => {
    expect(contactTableRow(die)).toEqual({ awareness, size, composition });
  });
});

describe('001 Size Estimation table', () => {
  const rolls = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  it('GIVEN the ±50% column THEN -50 to +50 by tens', () => {
    expect(rolls.map((r) => sizeError('pm50', r))).toEqual([-50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50]);
  });
  it('GIVEN the ±25% column THEN -25 to +25 by fives', () => {
    expect(rolls.map((r) => sizeError('pm25', r))).toEqual([-25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25]);
  });
  it('GIVEN the ±10% column THEN weighted toward accuracy (3, 7 and 11 accurate)', () => {
    expect(rolls.map((r) => sizeError('pm10', r))).toEqual([-10, 0, -10, -5, -5, 0, 5, 5, 10, 0, 10]);
  });
});

describe('001 Disengagement Losses Table', () => {
  // [difference, delay/withdraw, evade, avoid]; "50D" = 50% and displaced, "X" destroyed, "0" negligible.
  const rows: [number, string, string, string][] = [
    [12, '0', '0', '0'], [8, '0', '0', '0'],
    [7, '5', '0', '0'], [4, '5', '0', '0'],
    [3, '10', '5', '0'], [0, '10', '5', '0'],
    [-1, '25', '10', '5'], [-4, '25', '10', '5'],
    [-5, '30', '25', '10'], [-7, '30', '25', '10'],
    [-8, '50D', '30', '25'],
    [-9, '75D', '50D', '30'],
    [-10, 'X', '75D', '50D'],
    [-11, 'X', 'X', '75D'],
    [-12, 'X', 'X', 'X'], [-20, 'X', 'X', 'X'],
  ];
  const show = (c: { percent: number; displaced: boolean; destroyed: boolean }): string => (c.destroyed ? 'X' : `${c.percent}${c.displaced ? 'D' : ''}`);
  it.each(rows)('GIVEN a difference of %i THEN delay %s, evade %s, avoid %s', (d, delay, evade, avoid) => {
    expect(show(disengagementLosses('delay', d))).toBe(delay);
    expect(show(disengagementLosses('withdraw', d))).toBe(delay);
    expect(show(disengagementLosses('evade', d))).toBe(evade);
    expect(show(disengagementLosses('avoid', d))).toBe(avoid);
  });
});

describe('001 Deployment: baselines', () => {
  it('GIVEN the default 48 inch table and 7.5 inch short bow THEN Bf 20.25 and Bi 3', () => {
    const b = baselines(48, 7.5);
    expect(b.forward).toBe(20.25);
    expect(b.interval).toBe(3);
    expect(b.distances).toEqual([20.25, 17.25, 14.25, 11.25, 8.25, 5.25]);
    expect(b.notes).toEqual([]);
  });
  it('GIVEN rounding to the nearest half THEN halves round up', () => {
    expect([1.714, 1.75, 2.214, 2.25, 2.714].map(roundToHalf)).toEqual([1.5, 2, 2, 2.5, 2.5]);
  });
  it('GIVEN a 32 to 35 inch table THEN the interval is 1.75 (exception)', () => {
    for (const t of [32, 33, 34.5, 35]) {
      const b = baselines(t, 7.5);
      expect(b.interval).toBe(1.75);
      expect(b.narrowException).toBe(true);
    }
    expect(baselines(31.5, 7.5).interval).toBe(1.5);
    expect(baselines(35.5, 7.5).interval).toBe(2);
  });
  it('GIVEN every half inch from 28.5 to 73.5 THEN the formula agrees with the precalculated table', () => {
    for (let t = 28.5; t <= 73.5; t += 0.5) {
      expect({ t, i: baselines(t, 7.5).interval }).toEqual({ t, i: precalculatedInterval(t) });
    }
    expect(PRECALCULATED_INTERVALS).toHaveLength(8);
  });
  it('GIVEN a table narrower than 28.5 inches THEN a note warns the referee', () => {
    expect(baselines(24, 7.5).notes[0]).toMatch(/28.5/);
  });
});

describe('001 Deployment: deployment dice', () => {
  const base = { maneuver: false, formation: 'battalions' as const, companies: 4 };
  const inputs: DeploymentInput[] = [
    { ...base, armyId: 'hadewych', contactRaw: 6, contactModified: 7, opponentTerrains: ['clear', 'clear'] },
    { ...base, armyId: 'ingegerd', contactRaw: 3, contactModified: 4, opponentTerrains: ['clear'] },
    { ...base, armyId: 'aeskrvald', contactRaw: 5, contactModified: 6, opponentTerrains: ['clear'] },
  ];
  it('GIVEN the worked example (2+1+1, 5+1, 4+1) THEN fourth from forward, forward baseline, fifth from forward', () => {
    const b = deploy(inputs, baselines(48, 7.5), dice(2, 5, 4));
    const [h, i, a] = b.entries;
    expect(h).toMatchObject({ die: 2, score: 4, countFrom: 'forward', baseline: 4, baselineFromForward: 4 });
    expect(h?.modifiers.map((m) => m.code)).toEqual(['highestContact', 'opponentsClear']);
    expect(i).toMatchObject({ die: 5, score: 6, countFrom: 'rear', baseline: 6, baselineFromForward: 1 });
    expect(a).toMatchObject({ die: 4, score: 5, countFrom: 'forward', baselineFromForward: 5 });
    expect(b.initiative).toBe('ingegerd');
    expect(b.initialRounds).toEqual([['ingegerd', 'aeskrvald', 'hadewych'], ['hadewych', 'aeskrvald', 'ingegerd']]);
    expect(b.subsequentOrder).toEqual(['hadewych', 'aeskrvald', 'ingegerd']);
    expect([h?.multiplier, i?.multiplier, a?.multiplier]).toEqual([0, 2, 1]);
  });
  it('GIVEN modifiers beyond 6 or below 1 THEN the score is clamped', () => {
    const b = deploy([
      { ...base, armyId: 'x', contactRaw: 6, contactModified: 9, maneuver: true, opponentTerrains: ['clear'] },
      { ...base, armyId: 'y', contactRaw: 1, contactModified: 1, opponentTerrains: ['mountain'] },
    ], baselines(48, 7.5), dice(6, 1));
    expect(b.entries.map((e) => e.score)).toEqual([6, 1]);
  });
  it('GIVEN a tie for highest THEN everyone counts from the forward baseline and the unmodified die takes the initiative', () => {
    const b = deploy([
      { ...base, armyId: 'x', contactRaw: 3, contactModified: 3, opponentTerrains: ['forest'] },
      { ...base, armyId: 'y', contactRaw: 3, contactModified: 3, opponentTerrains: ['forest'] },
    ], baselines(48, 7.5), dice(6, 6));
    expect(b.entries.map((e) => [e.countFrom, e.baselineFromForward])).toEqual([['forward', 6], ['forward', 6]]);
    expect(b.initiativeBy).toBe('rolloff');
  });
  it('GIVEN a tie of scores but different dice THEN the higher unmodified die has the initiative', () => {
    const b = deploy([
      { ...base, armyId: 'x', contactRaw: 2, contactModified: 2, opponentTerrains: ['clear'] },
      { ...base, armyId: 'y', contactRaw: 2, contactModified: 2, opponentTerrains: ['forest'] },
    ], baselines(48, 7.5), dice(3, 4));
    expect(b.entries.map((e) => e.score)).toEqual([4, 4]);
    expect(b.initiative).toBe('y');
    expect(b.initiativeBy).toBe('unmodified');
  });
  it('GIVEN the march formations THEN initial deployment is base + turn x difference, capped at the regiment', () => {
    expect(initialDeployment('figures2x20', 0, 6)).toEqual({ initial: { count: 1, unit: 'company', wholeRegiment: false }, subsequentRounds: 3 });
    expect(initialDeployment('figures2x20', 2, 6)).toEqual({ initial: { count: 5, unit: 'company', wholeRegiment: false }, subsequentRounds: 1 });
    expect(initialDeployment('figures4x10', 1, 6)).toEqual({ initial: { count: 6, unit: 'company', wholeRegiment: true }, subsequentRounds: 0 });
    expect(initialDeployment('companies', 0, 6)).toEqual({ initial: { count: 1, unit: 'battalion', wholeRegiment: false }, subsequentRounds: 1 });
    expect(initialDeployment('battalions', 0, 6)).toEqual({ initial: { count: 1, unit: 'regiment', wholeRegiment: true }, subsequentRounds: 0 });
  });
});

describe('001 Terrain Reconnaissance', () => {
  it('GIVEN the deck of RULINGS 5 THEN 20 cards', () => {
    const deck = terrainDeck();
    expect(deck).toHaveLength(20);
    expect(deck.filter((c) => c === 'hill')).toHaveLength(4);
    expect(deck.filter((c) => c === 'blank')).toHaveLength(8);
    expect([...TERRAIN_CARD_KINDS]).toEqual(Object.keys(TERRAIN_DECK));
  });
  it('GIVEN a difference of 2 THEN the winner draws two, then turns alternate until the winner has four, then the opponent draws the rest', () => {
    expect(terrainDrawOrder(['w', 'o'], 2)).toEqual(['w', 'w', 'o', 'w', 'o', 'w', 'o', 'o']);
  });
  it('GIVEN equal unmodified dice (a difference of 0) THEN the contact dice winner still draws first: one card, then turns alternate', () => {
    expect(terrainDrawOrder(['w', 'o'], 0)).toEqual(['w', 'o', 'w', 'o', 'w', 'o', 'w', 'o']);
  });
  it('GIVEN a difference of 5 THEN the winner draws five at once and the opponent four', () => {
    expect(terrainDrawOrder(['w', 'o'], 5)).toEqual(['w', 'w', 'w', 'w', 'w', 'o', 'o', 'o', 'o']);
  });
  it('GIVEN three commanders THEN the rotation follows the ranking', () => {
    expect(terrainDrawOrder(['a', 'b', 'c'], 3)).toEqual(['a', 'a', 'a', 'b', 'c', 'a', 'b', 'c', 'b', 'c', 'b', 'c']);
  });
  it('GIVEN scripted dice THEN cards are drawn from what is left of the deck', () => {
    const dealt = dealTerrain(['w', 'o'], dice(1, 1));
    expect(dealt.map((d) => d.card)).toEqual(['hill', 'hill']);
    const last = dealTerrain(['w'], dice(20));
    expect(last[0]?.card).toBe('blank');
  });
});
