import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { seededDice } from '../../src/console/seededDice.js';
import { testStore } from '../support/store.js';

/** Production's App carries no console or test hooks: its dice are random, nothing scripted, no output folder. */
let apps: { close(): void }[] = [];
afterEach(() => {
  for (const a of apps) a.close();
  apps = [];
});

function app(opts: Parameters<typeof createApp>[0]): ReturnType<typeof createApp> {
  const a = createApp(opts);
  apps.push(a);
  return a;
}

describe('the production App', () => {
  it('GIVEN createApp with only a database THEN it has exactly the production fields, random seeds and no scripted dice', () => {
    const a = app({ databasePath: testStore() });
    expect(Object.keys(a).sort()).toEqual(['clock', 'close', 'db', 'dice', 'logger', 'statics']);
    expect(a.dice.testSeed).toBeUndefined();
    expect(a.dice.scripted()).toEqual([]);
    a.dice.useScripted(3);
    expect(a.dice.scripted()).toEqual([]);
    const seeds = new Set([a.dice.newSeed(0), a.dice.newSeed(0), a.dice.newMaster(), app({ databasePath: testStore() }).dice.newSeed(0)]);
    expect(seeds.size).toBe(4);
    for (const s of seeds) expect(s).toMatch(/^[0-9a-f]{32}$/);
  });

  it('GIVEN the console\'s seeded dice THEN the seeds are made from the number and the script is used in order', () => {
    const a = app({ databasePath: testStore(), dice: seededDice(7, [6, 1, 4]) });
    const b = seededDice(7);
    expect(a.dice.testSeed).toBe(7);
    expect([a.dice.newSeed(3), a.dice.newMaster()]).toEqual([b.newSeed(3), b.newMaster()]);
    expect(a.dice.newSeed(3)).not.toBe(a.dice.newSeed(4));
    a.dice.useScripted(2);
    expect(a.dice.scripted()).toEqual([4]);
    // --dice without --seed: the script, and random seeds.
    const c = seededDice(undefined, [2]);
    expect(c.testSeed).toBeUndefined();
    expect(c.newSeed(0)).not.toBe(c.newSeed(0));
  });
});
