import { describe, expect, it } from 'vitest';
import { SeededDice, createRngState, halfDice, twoD6 } from '../../src/engine/dice/dice.js';

const roll = (seed: number, n: number) => {
  const d = new SeededDice(createRngState(seed));
  return Array.from({ length: n }, () => d.d6('test'));
};

describe('RULINGS 7: one seeded dice service per campaign', () => {
  it('GIVEN the same seed WHEN rolling THEN the same sequence comes out', () => {
    expect(roll(42, 50)).toEqual(roll(42, 50));
  });

  it('GIVEN different seeds THEN the sequences differ', () => {
    expect(roll(1, 30)).not.toEqual(roll(2, 30));
  });

  it('GIVEN a stored generator state WHEN dice resume from it THEN the sequence continues exactly', () => {
    const d = new SeededDice(createRngState(9));
    const first = Array.from({ length: 10 }, () => d.d6('a'));
    const resumed = new SeededDice(d.state());
    const whole = roll(9, 20);
    expect([...first, ...Array.from({ length: 10 }, () => resumed.d6('b'))]).toEqual(whole);
  });

  it('uses scripted results first, then the seeded generator, recording each roll with its purpose', () => {
    const d = new SeededDice(createRngState(5), [6, 1]);
    expect(d.d6('contact dice')).toBe(6);
    expect(d.d6('scout')).toBe(1);
    const next = d.d6('weather');
    expect(next).toBe(roll(5, 1)[0]);
    expect(d.rolls.map((r) => r.purpose)).toEqual(['contact dice', 'scout', 'weather']);
  });

  it('refuses a scripted value that is not a face of the die', () => {
    expect(() => new SeededDice(createRngState(1), [7]).d6('x')).toThrow(/not a valid d6/);
  });

  it('gives every face about a sixth of the time', () => {
    const counts = [0, 0, 0, 0, 0, 0];
    for (const v of roll(123, 60_000)) counts[v - 1]! += 1;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(400);
  });

  it('000 note 2: a half-dice is a d6 halved and rounded up', () => {
    const d = new SeededDice(createRngState(1), [1, 2, 3, 4, 5, 6]);
    expect([1, 2, 3, 4, 5, 6].map(() => halfDice(d, 'h'))).toEqual([1, 1, 2, 2, 3, 3]);
    expect(twoD6(new SeededDice(createRngState(1), [3, 4]), 'size')).toBe(7);
  });
});
