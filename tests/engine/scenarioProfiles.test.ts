import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';

/**
 * Scenario fields that only a movement profile reads (issue 24, bad input): each is accepted
 * with its reading documented (docs/rulings.md, Scenario checks) or refused naming the field and
 * what is accepted; never silently ignored.
 */
const ACKS = JSON.parse(readFileSync(fileURLToPath(new URL('../../docs/cases/scenarios/ackslands.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
type Doc = { profile?: string; armies: { id: string; warMachines?: string; regiments: { speed?: number; companies: { speed?: number; warMachine?: boolean }[] }[] }[] };
const copy = (): Doc => structuredClone(ACKS) as unknown as Doc;
const index = (d: Doc, id: string): number => d.armies.findIndex((a) => a.id === id);
const problems = (d: Doc) => {
  const r = validateScenario(d);
  return r.ok ? [] : r.problems;
};

describe('scenario checks of the fields a movement profile reads', () => {
  it('GIVEN the ACKS cases\' scenario THEN it is valid (every speed on the table, war machines under ACKS)', () => {
    expect(problems(copy())).toEqual([]);
  });

  it('GIVEN a speed not in 004\'s table (45\') THEN refused at that field, listing the speeds accepted', () => {
    const d = copy();
    const i = index(d, 's30');
    const reg = d.armies[i]?.regiments[0];
    if (!reg) throw new Error('no regiment');
    for (const k of reg.companies) delete k.speed;
    reg.speed = 45;
    expect(problems(d)).toEqual([{ path: `armies[${i}].regiments[0].speed`, message: '45\' is not an expedition speed; accepted: 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330, 360 (004\'s expedition speeds, feet a turn)' }]);
    delete reg.speed;
    const company = reg.companies[0];
    if (!company) throw new Error('no company');
    company.speed = 100;
    expect(problems(d)).toEqual([expect.objectContaining({ path: `armies[${i}].regiments[0].companies[0].speed`, message: expect.stringMatching(/^100' is not an expedition speed; accepted: 30, 60/) })]);
  });

  it('GIVEN a regiment and one of its companies at different speeds THEN refused at the company, saying how to give the speed', () => {
    const d = copy();
    const i = index(d, 's120');
    const reg = d.armies[i]?.regiments[0];
    if (!reg?.companies[0]) throw new Error('no company');
    reg.speed = 120;
    reg.companies[0].speed = 60;
    expect(problems(d)).toEqual([{ path: `armies[${i}].regiments[0].companies[0].speed`, message: '60\' differs from its regiment\'s 120\': give a speed once, on the regiment (for all its companies) or on each company' }]);
    reg.companies[0].speed = 120;
    expect(problems(d)).toEqual([]);
  });

  it('GIVEN war machines in a scenario written for Valormr THEN refused, naming the field and the two ways out', () => {
    const d = copy();
    delete d.profile;
    const i = index(d, 'siege');
    expect(problems(d)).toEqual([{ path: `armies[${i}].regiments`, message: 'war machines are a rule of ACKS army movement (004), and this scenario is written for Valormr: add "profile": "acks" to the scenario, or leave out warMachine and warMachines' }]);
    d.profile = 'valormr';
    expect(problems(d).map((p) => p.path)).toEqual([`armies[${i}].regiments`]);
  });
});
