import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { validateScenario, type ScenarioProblem } from '../../src/engine/campaign/validateScenario.js';
import type { ScenarioDoc } from '../../src/engine/scenario/schema.js';
import { buildMap, isWater } from '../../src/engine/map/mapModel.js';
import { parseHex, hexKey } from '../../src/engine/hex/hexId.js';
import { hexDistance } from '../../src/engine/hex/distance.js';
import { neighbours } from '../../src/engine/hex/neighbours.js';
import type { Hex } from '../../src/engine/hex/hex.js';

const scenarioPath = fileURLToPath(new URL('../../assets/scenarios/valormr.json', import.meta.url));
const raw: unknown = JSON.parse(readFileSync(scenarioPath, 'utf8'));

function loadValid(): ScenarioDoc {
  const check = validateScenario(raw);
  if (!check.ok) throw new Error(`shipped scenario is invalid:\n${check.problems.map((p) => `${p.path}: ${p.message}`).join('\n')}`);
  return check.scenario;
}

/** A fresh, mutable copy of the shipped file as written (before schema defaults). */
function cloneRaw(): ScenarioDoc {
  return structuredClone(raw) as ScenarioDoc;
}

function hexOf(id: string): Hex {
  const h = parseHex(id);
  if (!h) throw new Error(`bad hex id ${id}`);
  return h;
}

const figures = (a: ScenarioDoc['armies'][number]): number[] =>
  a.regiments.map((r) => r.companies.reduce((n, c) => n + c.figures, 0));

const ARMY_IDS = {
  chaos: ['anax', 'hadewych', 'solon', 'annemie', 'minke', 'arkthark', 'kobolds', 'oberon', 'laugher', 'lizardmen'],
  elves: ['elf-queen', 'elf-king', 'groennendr', 'grunnthraesir', 'elding'],
  law: ['throrgrmir', 'aeskrvald', 'grallune', 'lanze', 'gyrhawk', 'heagh', 'noerdenheim', 'arbenshire', 'eglidain'],
} as const;

/** Army points from the summary of the orders of battle. */
const ARMY_POINTS: Record<string, number> = {
  anax: 200, hadewych: 480, solon: 120, annemie: 330, minke: 300, arkthark: 700, kobolds: 80, oberon: 320, laugher: 180,
  lizardmen: 90, 'elf-queen': 450, 'elf-king': 400, groennendr: 600, grunnthraesir: 400, elding: 550, throrgrmir: 400,
  aeskrvald: 450, grallune: 400, lanze: 200, gyrhawk: 200, heagh: 60, noerdenheim: 80, arbenshire: 150, eglidain: 60,
};

describe('shipped Valormr scenario', () => {
  it('passes validateScenario', () => {
    const check = validateScenario(raw);
    expect(check.ok ? [] : check.problems).toEqual([]);
  });

  it('is about 40 x 30 hexes, starts on a clear late-autumn day', () => {
    const s = loadValid();
    expect(s.map.width).toBe(40);
    expect(s.map.height).toBe(30);
    expect(s.start).toEqual({ season: 'late autumn', weather: 'clear' });
  });

  it('has the Citadel and the Keep, two towns and East Port', () => {
    const { map } = loadValid();
    expect(map.fortifications.filter((f) => f.kind === 'citadel')).toHaveLength(1);
    expect(map.fortifications.filter((f) => f.kind === 'keep')).toHaveLength(1);
    expect(map.towns).toHaveLength(2);
    expect(map.ports.map((p) => p.name)).toContain('East Port');
  });

  it('has three cataracts, all on the north-east canal', () => {
    const { map } = loadValid();
    const cataracts = map.rivers.flatMap((r) => r.hexes.filter((h) => h.cataract).map(() => r.id));
    expect(cataracts).toHaveLength(3);
    expect(new Set(cataracts).size).toBe(1);
  });

  it('has exactly one ferry, exactly one bridge, several fords (on minor rivers only)', () => {
    const { map } = loadValid();
    const steps = map.rivers.flatMap((r) => r.hexes);
    expect(steps.filter((h) => h.crossing === 'ferry')).toHaveLength(1);
    expect(steps.filter((h) => h.crossing === 'bridge')).toHaveLength(1);
    const fords = steps.filter((h) => h.crossing === 'ford');
    expect(fords.length).toBeGreaterThanOrEqual(3);
    expect(fords.every((f) => f.size === 'minor')).toBe(true);
    expect(steps.some((h) => h.size === 'major')).toBe(true);
  });

  it('runs the Grunnthraesir into the sea', () => {
    const { map } = loadValid();
    const model = buildMap(map);
    const grun = map.rivers.find((r) => r.id === 'grunnthraesir');
    expect(grun?.mouth).toBeDefined();
    expect(isWater(model.terrainAt(hexOf(grun?.mouth ?? '')))).toBe(true);
  });

  it('lists every forest hex of the elven forest in the ellriendi region, and only forest', () => {
    const { map } = loadValid();
    const model = buildMap(map);
    const ell = map.regions.find((r) => r.id === 'ellriendi');
    expect(ell?.hexes.length).toBeGreaterThan(50);
    for (const id of ell?.hexes ?? []) expect(model.terrainAt(hexOf(id)), id).toBe('forest');
  });

  it('keeps mud flats and channels on coast hexes', () => {
    const { map } = loadValid();
    const model = buildMap(map);
    expect(map.mudflats.length).toBeGreaterThan(0);
    expect(map.channels.length).toBeGreaterThan(0);
    for (const id of [...map.mudflats, ...map.channels]) expect(model.terrainAt(hexOf(id)), id).toBe('coast');
  });

  it('sets Chaos against elves and Law, and elves and Law at peace with each other', () => {
    const { sides } = loadValid();
    const side = (id: string) => sides.find((s) => s.id === id);
    expect(sides.map((s) => s.id).sort()).toEqual(['chaos', 'elves', 'law']);
    expect(side('chaos')?.hostileTo.sort()).toEqual(['elves', 'law']);
    expect(side('elves')?.hostileTo).toEqual(['chaos']);
    expect(side('law')?.hostileTo).toEqual(['chaos']);
    expect(new Set(sides.map((s) => s.colour)).size).toBe(3);
  });

  it('fields every army of the orders of battle, on its side, with its army points', () => {
    const { armies } = loadValid();
    for (const [side, ids] of Object.entries(ARMY_IDS)) {
      for (const id of ids) {
        const a = armies.find((x) => x.id === id);
        expect(a, id).toBeDefined();
        expect(a?.side, id).toBe(side);
        expect(a?.armyPoints, id).toBe(ARMY_POINTS[id]);
      }
    }
    expect(armies).toHaveLength(24);
  });

  it('ships the Northmen as three regiments of six figures with nine longships', () => {
    const north = loadValid().armies.find((a) => a.id === 'noerdenheim');
    expect(north && figures(north)).toEqual([6, 6, 6]);
    expect(north?.vessels).toEqual({ longship: 9 });
  });

  it('gives Aeskrvald a regiment of 27 figures and its fleet at East Port', () => {
    const s = loadValid();
    const aesk = s.armies.find((a) => a.id === 'aeskrvald');
    expect(aesk && figures(aesk)).toContain(27);
    expect(aesk?.vessels).toEqual({ troopTransport: 9, galley: 1 });
    const eastPort = s.map.ports.find((p) => p.name === 'East Port');
    expect(hexDistance(hexOf(aesk?.hex ?? ''), hexOf(eastPort?.hex ?? ''))).toBeLessThanOrEqual(1);
  });

  it('puts the dragon on the Citadel and the dwarves next to it', () => {
    const s = loadValid();
    const citadel = s.map.fortifications.find((f) => f.kind === 'citadel');
    const anax = s.armies.find((a) => a.id === 'anax');
    const dwarves = s.armies.find((a) => a.id === 'throrgrmir');
    expect(anax?.hex).toBe(citadel?.hex);
    expect(anax?.movementClass).toBe('creature');
    expect(anax?.individuals).toEqual([expect.objectContaining({ kind: 'dragon', flying: true, movePoints: 48 })]);
    // In the valley below the Citadel, but not next to the dragon: no contact before the first move.
    expect(hexDistance(hexOf(dwarves?.hex ?? ''), hexOf(citadel?.hex ?? ''))).toBe(3);
    const valley = s.map.regions.find((r) => r.id === 'throrgrmir-valley');
    expect(valley?.hexes).toContain(dwarves?.hex);
  });

  it('masses the Chaos host around the Keep in one cluster of adjacent hexes', () => {
    const s = loadValid();
    const keep = s.map.fortifications.find((f) => f.kind === 'keep');
    const host = ['hadewych', 'solon', 'annemie', 'minke', 'arkthark', 'kobolds'].map((id) => s.armies.find((a) => a.id === id));
    for (const a of host) expect(hexDistance(hexOf(a?.hex ?? ''), hexOf(keep?.hex ?? '')), a?.id).toBeLessThanOrEqual(1);
  });

  it('holds one commander per hex, every army on land', () => {
    const s = loadValid();
    const model = buildMap(s.map);
    const hexes = s.armies.map((a) => hexKey(hexOf(a.hex)));
    expect(new Set(hexes).size).toBe(hexes.length);
    for (const a of s.armies) expect(isWater(model.terrainAt(hexOf(a.hex))), a.id).toBe(false);
  });

  it('links every Law homeland army and the Keep to the valley by road or track', () => {
    const s = loadValid();
    const links = new Map<string, Set<string>>();
    const link = (a: string, b: string): void => {
      const set = links.get(a) ?? new Set<string>();
      set.add(b);
      links.set(a, set);
    };
    for (const chain of [...s.map.roads, ...s.map.tracks]) {
      for (let i = 1; i < chain.length; i++) {
        const a = hexKey(hexOf(chain[i - 1] ?? ''));
        const b = hexKey(hexOf(chain[i] ?? ''));
        link(a, b);
        link(b, a);
      }
    }
    const valley = new Set((s.map.regions.find((r) => r.id === 'throrgrmir-valley')?.hexes ?? []).map((id) => hexKey(hexOf(id))));
    const reachesValley = (start: Hex): boolean => {
      const starts = [start, ...neighbours(start)].map(hexKey).filter((k) => links.has(k));
      const seen = new Set(starts);
      const queue = [...starts];
      while (queue.length > 0) {
        const k = queue.shift() as string;
        if (valley.has(k)) return true;
        for (const n of links.get(k) ?? []) if (!seen.has(n)) { seen.add(n); queue.push(n); }
      }
      return false;
    };
    for (const a of s.armies.filter((x) => x.side === 'law')) expect(reachesValley(hexOf(a.hex)), a.id).toBe(true);
    const keep = s.map.fortifications.find((f) => f.kind === 'keep');
    expect(reachesValley(hexOf(keep?.hex ?? ''))).toBe(true);
  });
});

describe('a broken scenario', () => {
  const paths = (problems: readonly ScenarioProblem[]): string[] => problems.map((p) => p.path);

  /** Breaks the cross-references: everything the schema accepts but validateScenario must refuse. */
  function breakCrossReferences(doc: ScenarioDoc): { riverIndex: number; stepIndex: number } {
    doc.armies[1]!.hex = '4540'; // off a 40 x 30 map
    doc.armies[2]!.side = 'pirates'; // no such side
    doc.armies[3]!.id = doc.armies[0]!.id; // duplicate army id
    const row = doc.map.terrain[5]!;
    doc.map.terrain[5] = row.slice(1); // a row one letter short
    const riverIndex = doc.map.rivers.findIndex((r) => r.hexes.some((h) => h.size === 'major' && !h.crossing));
    const stepIndex = doc.map.rivers[riverIndex]!.hexes.findIndex((h) => h.size === 'major' && !h.crossing);
    doc.map.rivers[riverIndex]!.hexes[stepIndex]!.crossing = 'ford'; // fords are for minor rivers only
    return { riverIndex, stepIndex };
  }

  it('reports every cross-reference problem at once, each with its JSON path', () => {
    const doc = cloneRaw();
    const { riverIndex, stepIndex } = breakCrossReferences(doc);
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(paths(check.problems).sort()).toEqual([
      'armies[1].hex',
      'armies[2].side',
      'armies[3].id',
      'map.terrain[5]',
      `map.rivers[${riverIndex}].hexes[${stepIndex}].crossing`,
    ].sort());
    const msg = (path: string) => check.problems.find((p) => p.path === path)?.message ?? '';
    expect(msg('armies[1].hex')).toMatch(/off the map/);
    expect(msg('armies[2].side')).toMatch(/unknown side "pirates"/);
    expect(msg('armies[3].id')).toMatch(/duplicate army id/);
    expect(msg('map.terrain[5]')).toMatch(/39 letters/);
    expect(msg(`map.rivers[${riverIndex}].hexes[${stepIndex}].crossing`)).toMatch(/minor rivers/);
  });

  it('reports every format problem at once, each with its JSON path', () => {
    const doc = cloneRaw();
    doc.map.terrain[7] = `x${doc.map.terrain[7]!.slice(1)}`; // not a terrain letter
    doc.armies[4]!.hex = 'A101'; // not a hex id
    (doc.sides[0] as { colour: string }).colour = 'red'; // not #rrggbb
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(paths(check.problems).sort()).toEqual(['armies[4].hex', 'map.terrain[7]', 'sides[0].colour']);
    expect(check.problems.find((p) => p.path === 'map.terrain[7]')?.message).toMatch(/terrain letters/);
  });

  // A format problem (the bad terrain letter) must not hide the cross-reference problems.
  it('reports format and cross-reference problems together', () => {
    const doc = cloneRaw();
    const { riverIndex, stepIndex } = breakCrossReferences(doc);
    doc.map.terrain[7] = `x${doc.map.terrain[7]!.slice(1)}`;
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(paths(check.problems).sort()).toEqual([
      'armies[1].hex',
      'armies[2].side',
      'armies[3].id',
      'map.terrain[5]',
      'map.terrain[7]',
      `map.rivers[${riverIndex}].hexes[${stepIndex}].crossing`,
    ].sort());
  });
});

describe('a huge or hostile scenario', () => {
  it('GIVEN a map of 20,000 x 20,000 hexes THEN it is refused at once, without building the map', () => {
    const doc = cloneRaw();
    (doc.map as { width: number; height: number }).width = 20_000;
    (doc.map as { width: number; height: number }).height = 20_000;
    // Building 400 million hexes would not end within the test's timeout (or would run out of memory).
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.map((p) => p.path)).toContain('map.width');
  });

  it('GIVEN a 999 x 999 map THEN it is refused with the largest accepted size', () => {
    const doc = cloneRaw();
    Object.assign(doc.map, { width: 999, height: 999, terrain: Array.from({ length: 999 }, () => 'c'.repeat(999)), roads: [], tracks: [], rivers: [], ports: [], channels: [], mudflats: [], towns: [], fortifications: [], regions: [], labels: [] });
    doc.armies.forEach((a) => Object.assign(a, { homeTerrain: undefined }));
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([{ path: 'map', message: expect.stringMatching(/at most 40000 hexes/) as unknown as string }]);
  });

  it('GIVEN 10,000 armies THEN they are refused by count', () => {
    const doc = cloneRaw();
    const one = doc.armies[1]!;
    doc.armies = Array.from({ length: 10_000 }, (_, i) => ({ ...one, id: `a${i}` }));
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.find((p) => p.path === 'armies')?.message).toMatch(/500/);
  });

  it('GIVEN names of a million characters THEN they are refused, and no problem quotes more than a few hundred characters', () => {
    const doc = cloneRaw();
    doc.name = 'x'.repeat(1_000_000);
    doc.armies[0]!.side = 'y'.repeat(1_000_000);
    doc.armies[1]!.hex = '9'.repeat(1_000_000);
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['name', 'armies[0].side', 'armies[1].hex']));
    for (const p of check.problems) expect(p.message.length + p.path.length).toBeLessThan(500);
  });

  it('GIVEN an army id "constructor" (a name every plain object already has) THEN it is refused', () => {
    const doc = cloneRaw();
    doc.armies[2]!.id = 'constructor';
    const check = validateScenario(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.find((p) => p.path === 'armies[2].id')?.message).toMatch(/reserved/);
  });
});
