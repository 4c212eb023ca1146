import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkStream, classifyRoll, createRngState, dieFromSeed, enteredByArmy, firstPeriod, halfDice, isManualRoll, SeededDice, secretSeedOf, seedCommitment, seedFromNumber, sha256Hex } from '../../src/engine/dice/index.js';
import { twoD6 } from '../../src/engine/dice/dice.js';

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

describe('docs/dice.md: the dice anyone can check', () => {
  it('GIVEN any text THEN the engine\'s SHA-256 equals node:crypto\'s', () => {
    const texts = ['', 'abc', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(64), 'd'.repeat(119), `${'0123456789abcdef'.repeat(2)}:12345`];
    for (let i = 0; i < 200; i++) texts.push(Array.from({ length: i }, (_, k) => String.fromCharCode(32 + ((i * 7 + k * 13) % 95))).join(''));
    for (const t of texts) expect(sha256Hex(t)).toBe(createHash('sha256').update(t, 'ascii').digest('hex'));
  });

  it('GIVEN a period of one stream (a campaign from before secret dice) THEN a die is the first 8 hex digits of SHA-256("seed:draw") mod sides, plus one', () => {
    const seed = '00112233445566778899aabbccddeeff';
    const d = new SeededDice({ period: 0, seed, draws: 0, next: seedFromNumber(1, 1) });
    for (let i = 0; i < 20; i++) {
      const byHand = Number.parseInt(createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, 8), 16) % 6 + 1;
      expect(d.d6(`die ${i}`)).toBe(byHand);
    }
    expect(d.rolls.map((r) => r.draw)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(seedCommitment(seed)).toBe(createHash('sha256').update(seed).digest('hex'));
  });

  it('GIVEN a period of two streams THEN the weather comes from the public seed and every other die from the secret one, each SHA-256("seed:purpose#n:0") as the page says', () => {
    const seed = '00112233445566778899aabbccddeeff';
    const master = 'ffeeddccbbaa99887766554433221100';
    const d = new SeededDice(firstPeriod(seed, seedFromNumber(1, 1), master));
    const hand = (s: string, label: string): number => Number.parseInt(createHash('sha256').update(`${s}:${label}:0`).digest('hex').slice(0, 8), 16) % 6 + 1;
    const secretSeed = createHash('sha256').update(`${master}:0`).digest('hex').slice(0, 32);
    expect(secretSeedOf(master, 0)).toBe(secretSeed);
    const rolls = ['weather (dry column)', 'contact dice: a1', 'weather (dry column)', 'size estimate a1 of a2 (1 of 2)', 'contact dice: a1'].map((p) => [p, d.d6(p)] as const);
    expect(rolls).toEqual([
      ['weather (dry column)', hand(seed, 'weather (dry column)#1')],
      ['contact dice: a1', hand(secretSeed, 'contact dice: a1#1')],
      ['weather (dry column)', hand(seed, 'weather (dry column)#2')],
      ['size estimate a1 of a2 (1 of 2)', hand(secretSeed, 'size estimate a1 of a2 (1 of 2)#1')],
      ['contact dice: a1', hand(secretSeed, 'contact dice: a1#2')],
    ]);
    expect(d.rolls.map((r) => r.stream)).toEqual(['public', 'secret', 'public', 'secret', 'secret']);
    expect(d.state().draws).toBe(2);
    expect(d.state().secret?.draws).toBe(3);
    expect(checkStream(seed, 'public', 2, d.rolls)).toMatchObject({ ok: true, checked: 2 });
    expect(checkStream(secretSeed, 'secret', 3, d.rolls)).toMatchObject({ ok: true, checked: 3 });
    // The public seed checks none of the secret dice: they need their own seed.
    expect(checkStream(seed, 'secret', 3, d.rolls).ok).toBe(false);
  });

  it('GIVEN the same purposes rolled in another order, or after other rolls, in the same period THEN each labelled die is the same (what an undo\'s replay relies on)', () => {
    fc.assert(fc.property(fc.shuffledSubarray(['weather (dry column)', 'contact dice: a1', 'contact dice: a2', 'scout 1 of a1', 'stragglers of X'], { minLength: 1 }), fc.nat(5), (purposes, extra) => {
      const first = new SeededDice(createRngState(3, true));
      const a = new Map(['weather (dry column)', 'contact dice: a1', 'contact dice: a2', 'scout 1 of a1', 'stragglers of X'].map((p) => [p, first.d6(p)]));
      const second = new SeededDice(createRngState(3, true));
      for (let i = 0; i < extra; i++) second.d6(`other roll ${i}`);
      for (const p of purposes) expect(second.d6(p)).toBe(a.get(p));
    }));
  });

  it('GIVEN rolls with states taken, probes and new periods between them THEN every state taken stays as it was taken, and each equals the state of the same rolls made one service per step (counts in the same key order)', () => {
    // Object's own names among them: each counts from 1 like any other purpose.
    const purposes = ['weather (dry column)', 'contact dice: a1', 'stragglers of X', 'scout 1 of a1', '7', '__proto__', 'constructor', 'toString'];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('roll' as const), purpose: fc.constantFrom(...purposes) }),
      fc.record({ kind: fc.constantFrom('state' as const, 'probe' as const, 'period' as const) }),
    );
    fc.assert(fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const d = new SeededDice(createRngState(6, true));
      // The reference: a fresh service for each roll, resumed from the last state (nothing kept between steps).
      let reference = createRngState(6, true);
      const taken: { state: ReturnType<SeededDice['state']>; json: string }[] = [];
      // The counts as a spread per roll makes them (an integer-like purpose sorts first either way).
      let counts: Record<string, number> = {};
      steps.forEach((s, i) => {
        if (s.kind === 'roll') {
          const r = new SeededDice(reference);
          expect(d.d6(s.purpose)).toBe(r.d6(s.purpose));
          reference = r.state();
          counts = { ...counts, [s.purpose]: (Object.hasOwn(counts, s.purpose) ? (counts[s.purpose] as number) : 0) + 1 };
          expect(JSON.stringify(reference.counts)).toBe(JSON.stringify(counts));
        } else if (s.kind === 'state') {
          const state = d.state();
          expect(JSON.stringify(state)).toBe(JSON.stringify(reference));
          taken.push({ state, json: JSON.stringify(state) });
        } else if (s.kind === 'probe') {
          d.probe().d6('probed');
        } else {
          d.startPeriod(seedFromNumber(6, i + 2));
          const r = new SeededDice(reference);
          r.startPeriod(seedFromNumber(6, i + 2));
          reference = r.state();
          counts = {};
        }
      });
      expect(JSON.stringify(d.state())).toBe(JSON.stringify(reference));
      for (const t of taken) expect(JSON.stringify(t.state)).toBe(t.json);
    }));
  });

  it('GIVEN a new period THEN its secret draws reset, the period\'s count is kept for the referee\'s check, and the labels start again', () => {
    const d = new SeededDice(createRngState(4, true));
    d.d6('contact dice: a1');
    d.d6('contact dice: a1');
    d.startPeriod(seedFromNumber(4, 2));
    expect(d.state()).toMatchObject({ period: 1, draws: 0, counts: {}, secret: { draws: 0, rolled: { 0: 2 } } });
    d.d6('contact dice: a1');
    expect(d.rolls.at(-1)).toMatchObject({ stream: 'secret', nth: 1, period: 1 });
  });

  it('GIVEN a campaign of one stream WHEN its next period starts with a master THEN that period has two streams, from it on', () => {
    const d = new SeededDice(createRngState(5));
    d.d6('contact dice: a1');
    expect(d.rolls[0]?.stream).toBeUndefined();
    d.startPeriod(seedFromNumber(5, 2), 'ab'.repeat(16));
    expect(d.state().secret).toEqual({ master: 'ab'.repeat(16), since: 1, draws: 0 });
    d.d6('contact dice: a1');
    expect(d.rolls[1]).toMatchObject({ stream: 'secret', nth: 1 });
  });

  it('GIVEN a draw at or above the largest multiple of the sides THEN it is rejected and the next draw makes the die', () => {
    // Find a seed whose first draw is rejected for a d(2^31 + 1)-sided die (limit 2^31 + 1).
    const sides = 2 ** 31 + 1;
    const seed = Array.from({ length: 200 }, (_, i) => seedFromNumber(i, 0)).find((s) => dieFromSeed(s, 0, sides).draw > 0);
    expect(seed).toBeDefined();
    const die = dieFromSeed(seed as string, 0, sides);
    expect(die.draw).toBeGreaterThan(0);
  });

  it('GIVEN a tick WHEN the next period starts THEN the committed seed is used from its first draw and a fresh one is next', () => {
    const d = new SeededDice(createRngState(3));
    d.d6('setup');
    const committed = d.state().next;
    d.startPeriod(seedFromNumber(99, 2));
    expect(d.state()).toEqual({ period: 1, seed: committed, draws: 0, next: seedFromNumber(99, 2) });
    d.d6('tick');
    expect(d.rolls.map((r) => [r.period, r.draw])).toEqual([[0, 0], [1, 0]]);
    expect(d.changed()).toBe(true);
  });

  it('GIVEN an entered manual die THEN it is used first, marked with who entered it, and draws nothing; a manual roll nobody entered takes the seeded die, marked', () => {
    const isManual = (p: string) => p.startsWith('contact dice');
    const d = new SeededDice(createRngState(4), { entered: [{ key: 'contact dice: a', value: 2, enteredBy: 'alice' }], isManual });
    expect(d.d6('contact dice: a')).toBe(2);
    d.d6('contact dice: b');
    d.d6('weather');
    expect(d.rolls.map((r) => ({ s: r.source, by: r.enteredBy, late: r.notEntered ?? false }))).toEqual([
      { s: 'manual', by: 'alice', late: false }, { s: 'seeded', by: undefined, late: true }, { s: 'seeded', by: undefined, late: false },
    ]);
    expect(d.rolls[1]?.draw).toBe(0);
    expect(d.usedEntries()).toEqual(['contact dice: a']);
  });

  it('GIVEN a probe THEN it lists the manual rolls nobody entered and leaves the dice untouched', () => {
    const d = new SeededDice(createRngState(4), { entered: [{ key: 'contact dice: a', value: 5, enteredBy: 'alice' }], isManual: (p) => p.startsWith('contact dice') });
    const p = d.probe();
    p.d6('contact dice: a');
    p.d6('contact dice: b');
    p.d6('contact dice: b');
    expect(p.needed()).toEqual([{ key: 'contact dice: b', purpose: 'contact dice: b', sides: 6 }, { key: 'contact dice: b #2', purpose: 'contact dice: b', sides: 6 }]);
    expect(d.rolls).toEqual([]);
    expect(d.state().draws).toBe(0);
  });
});

describe('RULINGS 7: what each die is for', () => {
  const armies = [{ id: 'hadewych', name: 'Army of Hadewych' }, { id: 'grallune', name: 'The Host of Grallune' }];
  it.each([
    ['contact dice: hadewych', 'contact', 'hadewych', 'hadewych'],
    ['scout 2 of grallune', 'scout', 'grallune', 'grallune'],
    ['size estimate hadewych of grallune (1 of 2)', 'estimate', undefined, undefined],
    ['terrain card for hadewych', 'terrainCard', undefined, 'hadewych'],
    ['deployment initiative roll-off: grallune', 'deployment', 'grallune', 'grallune'],
    ['evade dice: grallune against hadewych', 'disengagement', 'grallune', 'grallune'],
    ['avoid dice: hadewych', 'disengagement', 'hadewych', 'hadewych'],
    ['timber for rafts of Army of Hadewych at 1122', 'rafts', 'hadewych', 'hadewych'],
    ['weather (clear column)', 'weather', undefined, undefined],
    ['fog persistence (goes on on 1 or 2)', 'weather', undefined, undefined],
  ])('%s', (purpose, kind, roller, seenBy) => {
    const s = classifyRoll(purpose, armies);
    expect([s.kind, s.roller, s.seenBy]).toEqual([kind, roller, seenBy]);
  });

  it('GIVEN the setting THEN the right rolls are manual, and the commander enters only contact and battle rolls', () => {
    const c = classifyRoll('contact dice: hadewych', armies);
    const w = classifyRoll('weather (clear column)', armies);
    const est = classifyRoll('size estimate hadewych of grallune (1 of 2)', armies);
    expect([isManualRoll(c, 'none'), isManualRoll(c, 'contact'), isManualRoll(est, 'contact'), isManualRoll(est, 'battle'), isManualRoll(w, 'battle'), isManualRoll(w, 'all')]).toEqual([false, true, false, true, false, true]);
    expect(enteredByArmy(c)).toBe('hadewych');
    expect(enteredByArmy(classifyRoll('contested hex 1122: hadewych', armies))).toBeUndefined();
  });
});
