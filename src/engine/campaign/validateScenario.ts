import { hexDistance, parseHex, hexToOffset, type Hex } from '../hex/index.js';
import { buildMap, isWater, type MapModel } from '../map/index.js';
import { checkPlan, planOfSpec } from '../plans/index.js';
import { EXPEDITION_SPEEDS, MOVEMENT_PROFILES } from '../profiles/index.js';
import { SCENARIO_LIMITS, scenarioSchemas, type ScenarioDoc } from '../scenario/index.js';
import { newCampaign } from './newCampaign.js';

export interface ScenarioProblem {
  /** JSON path in the document, e.g. `armies[3].hex`. */
  readonly path: string;
  readonly message: string;
}

export type ScenarioCheck = { ok: true; scenario: ScenarioDoc } | { ok: false; problems: ScenarioProblem[] };

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(document)';
}

/**
 * Checks a parsed JSON document against the scenario format and every cross-reference, and
 * returns all problems at once (never the first only).
 */
export function validateScenario(doc: unknown): ScenarioCheck {
  const parsed = scenarioSchemas().scenario.safeParse(doc);
  if (parsed.success) {
    const problems = crossCheck(parsed.data);
    return problems.length > 0 ? { ok: false, problems } : { ok: true, scenario: parsed.data };
  }
  const problems: ScenarioProblem[] = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  // The structure is wrong somewhere; still report every cross-reference problem we can find,
  // so one round of fixes is enough. A document too broken to walk yields only the format errors.
  try {
    const seen = new Set(problems.map((p) => p.path));
    for (const p of crossCheck(doc as ScenarioDoc)) if (!seen.has(p.path)) problems.push(p);
  } catch {
    // nothing more to say than the format errors
  }
  return { ok: false, problems };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What the cross-checks share: the document, its map, and how a problem or a hex is noted. */
interface Checker {
  readonly s: ScenarioDoc;
  readonly map: MapModel;
  add(path: string, message: string): void;
  /** The hex of an id on the map; a problem (and undefined) otherwise. */
  inBounds(id: string, path: string): Hex | undefined;
}

/**
 * Cross-references of a structurally valid scenario:
 * 1. the map's size (each check below walks it), its terrain rows;
 * 2. roads and tracks run hex to hex over land;
 * 3. rivers connect, fords only on minor rivers, one river per hex;
 * 4. ports, towns, fortifications, labels, channels, mud flats and regions on the map;
 * 5. sides unique and hostile only to sides that exist;
 * 6. armies: unique ids, known sides, one commander per hex on land, something to command;
 * 7. the fields a movement profile reads: speeds on 004's table, one speed per company, war
 *    machines only for a profile that has them;
 * 8. plans: each as the rules would take it from `/army plan` (places on the map and walkable, a
 *    patrol's circuit, a garrison's town, a shadowed army an enemy).
 */
function crossCheck(s: ScenarioDoc): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  // Messages quote the document's own text, which may be huge: keep each problem short.
  const add = (path: string, message: string): void => {
    problems.push({ path: clip(path, 120), message: clip(message, 300) });
  };
  const { width, height } = s.map;
  // Every check below walks the map: on a document too large (or too broken) to build one,
  // say so and stop rather than allocate width x height hexes.
  if (![width, height].every((n) => Number.isInteger(n) && n >= 2 && n <= 999)) return problems;
  if (width * height > SCENARIO_LIMITS.mapHexes) {
    add('map', `is ${width} x ${height} = ${width * height} hexes; at most ${SCENARIO_LIMITS.mapHexes} hexes are accepted (e.g. 200 x 200)`);
    return problems;
  }
  const inBounds = (id: string, path: string): Hex | undefined => {
    const h = parseHex(id);
    if (!h) {
      add(path, `"${id}" is not a hex id`);
      return undefined;
    }
    const { col, row } = hexToOffset(h);
    if (col > width || row > height) {
      add(path, `hex ${id} is off the map (columns 1-${width}, rows 1-${height})`);
      return undefined;
    }
    return h;
  };
  if (s.map.terrain.length !== height) add('map.terrain', `has ${s.map.terrain.length} rows but the map is ${height} rows high`);
  s.map.terrain.forEach((row, i) => {
    if (row.length !== width) add(`map.terrain[${i}]`, `has ${row.length} letters but the map is ${width} hexes wide`);
  });
  const c: Checker = { s, map: buildMap(s.map), add, inBounds };
  checkChain(c, s.map.roads, 'roads');
  checkChain(c, s.map.tracks, 'tracks');
  checkRivers(c);
  checkPlaces(c);
  const sideIds = checkSides(c);
  checkArmies(c, sideIds);
  checkProfileFields(c);
  if (problems.length === 0) checkPlans(c);
  return problems;
}

/** Step 8: every plan, by the rules' own check, on the campaign the scenario opens (only a scenario otherwise sound gets here). */
function checkPlans(c: Checker): void {
  if (!c.s.armies.some((a) => a.plan)) return;
  const state = newCampaign({ id: 'check', name: 'check', scenario: { ...c.s, armies: c.s.armies.map(({ plan: _plan, ...a }) => a) }, seed: 0 });
  c.s.armies.forEach((a, i) => {
    if (!a.plan) return;
    const plan = planOfSpec(a.id, a.plan);
    const checked = plan.ok ? checkPlan(state, c.map, { armyId: a.id, order: plan.value.order, contact: plan.value.contact, setBy: 'scenario' }) : plan;
    if (!checked.ok) c.add(`armies[${i}].plan`, checked.violation.message);
  });
}

/** Step 2: roads and tracks run hex to hex over land. */
function checkChain(c: Checker, paths: readonly (readonly string[])[], what: string): void {
  paths.forEach((path, i) => {
    let prev: Hex | undefined;
    path.forEach((id, j) => {
      const h = c.inBounds(id, `map.${what}[${i}][${j}]`);
      if (h && prev && hexDistance(prev, h) !== 1) c.add(`map.${what}[${i}][${j}]`, `${id} is not next to the previous hex ${path[j - 1]}`);
      if (h && isWater(c.map.terrainAt(h))) c.add(`map.${what}[${i}][${j}]`, `${id} is a water hex; roads and tracks run over land`);
      prev = h;
    });
  });
}

/** Step 3: rivers run hex to hex (and to their mouth), fords only on minor rivers, one river per hex. */
function checkRivers(c: Checker): void {
  const riverHexes = new Map<string, string>();
  c.s.map.rivers.forEach((river, i) => {
    let prev: Hex | undefined;
    river.hexes.forEach((step, j) => {
      const path = `map.rivers[${i}].hexes[${j}]`;
      const h = c.inBounds(step.hex, `${path}.hex`);
      if (!h) return;
      if (prev && hexDistance(prev, h) !== 1) c.add(`${path}.hex`, `${step.hex} is not next to the previous river hex`);
      if (step.crossing === 'ford' && step.size === 'major') c.add(`${path}.crossing`, 'fords exist only on minor rivers');
      const other = riverHexes.get(step.hex);
      if (other) c.add(`${path}.hex`, `${step.hex} already holds the river ${other}; one river per hex`);
      riverHexes.set(step.hex, river.id);
      prev = h;
    });
    if (river.mouth) {
      const m = c.inBounds(river.mouth, `map.rivers[${i}].mouth`);
      if (m && prev && hexDistance(prev, m) !== 1) c.add(`map.rivers[${i}].mouth`, `${river.mouth} is not next to the river's last hex`);
    }
  });
}

/** Step 4: the map's places on the map; channels and mud flats in coastal water. */
function checkPlaces(c: Checker): void {
  const m = c.s.map;
  const checkHexes = (items: readonly { hex: string }[], what: string): void => {
    items.forEach((it, i) => c.inBounds(it.hex, `map.${what}[${i}].hex`));
  };
  checkHexes(m.ports, 'ports');
  checkHexes(m.towns, 'towns');
  checkHexes(m.fortifications, 'fortifications');
  checkHexes(m.labels, 'labels');
  m.channels.forEach((id, i) => {
    const h = c.inBounds(id, `map.channels[${i}]`);
    if (h && c.map.terrainAt(h) !== 'coast') c.add(`map.channels[${i}]`, `${id} is not a coast hex; channels run through coastal water`);
  });
  m.mudflats.forEach((id, i) => {
    const h = c.inBounds(id, `map.mudflats[${i}]`);
    if (h && c.map.terrainAt(h) !== 'coast') c.add(`map.mudflats[${i}]`, `${id} is not a coast hex; a mud flat is coastal water`);
  });
  m.regions.forEach((r, i) => r.hexes.forEach((id, j) => c.inBounds(id, `map.regions[${i}].hexes[${j}]`)));
}

/** Step 5: side ids unique, hostile only to other sides that exist; the ids. */
function checkSides(c: Checker): Set<string> {
  const sideIds = new Set<string>();
  c.s.sides.forEach((side, i) => {
    if (sideIds.has(side.id)) c.add(`sides[${i}].id`, `duplicate side id "${side.id}"`);
    sideIds.add(side.id);
  });
  c.s.sides.forEach((side, i) => side.hostileTo.forEach((h, j) => {
    if (!sideIds.has(h)) c.add(`sides[${i}].hostileTo[${j}]`, `unknown side "${h}" (sides: ${[...sideIds].join(', ')})`);
    else if (h === side.id) c.add(`sides[${i}].hostileTo[${j}]`, `side "${h}" cannot be hostile to itself (list the other sides it fights)`);
  }));
  return sideIds;
}

/** Step 6: army ids unique, sides known, one commander per hex on land, something to command, creatures with move points. */
function checkArmies(c: Checker, sideIds: ReadonlySet<string>): void {
  const armyIds = new Set<string>();
  const occupied = new Map<string, string>();
  const regionIds = new Set(c.s.map.regions.map((r) => r.id));
  c.s.armies.forEach((a, i) => {
    const path = `armies[${i}]`;
    if (armyIds.has(a.id)) c.add(`${path}.id`, `duplicate army id "${a.id}"`);
    armyIds.add(a.id);
    if (!sideIds.has(a.side)) c.add(`${path}.side`, `unknown side "${a.side}" (sides: ${[...sideIds].join(', ')})`);
    const h = c.inBounds(a.hex, `${path}.hex`);
    if (h && isWater(c.map.terrainAt(h)) && !(a.vessels && Object.values(a.vessels).some((n) => (n ?? 0) > 0))) {
      c.add(`${path}.hex`, `${a.hex} is water; an army without vessels starts on land`);
    }
    const key = h ? `${h.q},${h.r}` : a.hex;
    const holder = occupied.get(key);
    if (holder) c.add(`${path}.hex`, `${a.hex} is already held by ${holder}; one commander per hex`);
    occupied.set(key, a.id);
    if (a.regiments.length === 0 && a.individuals.length === 0) c.add(`${path}.regiments`, 'an army needs at least one regiment or individual');
    if (a.movementClass === 'creature' && a.movePoints === undefined && !a.individuals.some((x) => x.movePoints !== undefined)) {
      c.add(`${path}.movePoints`, 'a creature army needs movePoints (on the army or its individuals)');
    }
    if (a.homeTerrain?.region && !regionIds.has(a.homeTerrain.region)) c.add(`${path}.homeTerrain.region`, `unknown map region "${a.homeTerrain.region}"`);
    const regIds = new Set<string>();
    a.regiments.forEach((r, j) => {
      if (regIds.has(r.id)) c.add(`${path}.regiments[${j}].id`, `duplicate regiment id "${r.id}" in ${a.id}`);
      regIds.add(r.id);
    });
  });
}

/** The speeds a scenario may state: 004's expedition speeds, in feet a turn. */
const SPEEDS_ACCEPTED = `${EXPEDITION_SPEEDS.map((r) => r.feet).join(', ')} (004's expedition speeds, feet a turn)`;

/**
 * Step 7: the fields only a movement profile reads are refused where they would be silently
 * ignored or misread: a speed off 004's table; a company whose speed differs from its
 * regiment's (give it once: on the regiment for all its companies, or on each company); war
 * machines in a scenario written for a profile that has none (Valormr).
 * @see 004 Moving Armies; Movement of War Machines; docs/rulings.md Scenario checks
 */
function checkProfileFields(c: Checker): void {
  const profile = MOVEMENT_PROFILES[c.s.profile ?? 'valormr'];
  const onTable = (feet: number): boolean => EXPEDITION_SPEEDS.some((r) => r.feet === feet);
  c.s.armies.forEach((a, i) => {
    const path = `armies[${i}]`;
    const machines = a.regiments.some((r) => r.companies.some((k) => k.warMachine === true));
    if (!profile.rates.warMachines && (machines || a.warMachines !== undefined)) {
      c.add(machines ? `${path}.regiments` : `${path}.warMachines`, `war machines are a rule of ACKS army movement (004), and this scenario is written for ${profile.name}: add "profile": "acks" to the scenario, or leave out warMachine and warMachines`);
    }
    a.regiments.forEach((r, j) => {
      const rp = `${path}.regiments[${j}]`;
      if (r.speed !== undefined && !onTable(r.speed)) c.add(`${rp}.speed`, `${r.speed}' is not an expedition speed; accepted: ${SPEEDS_ACCEPTED}`);
      r.companies.forEach((k, m) => {
        if (k.speed === undefined) return;
        if (!onTable(k.speed)) c.add(`${rp}.companies[${m}].speed`, `${k.speed}' is not an expedition speed; accepted: ${SPEEDS_ACCEPTED}`);
        else if (r.speed !== undefined && k.speed !== r.speed) {
          c.add(`${rp}.companies[${m}].speed`, `${k.speed}' differs from its regiment's ${r.speed}': give a speed once, on the regiment (for all its companies) or on each company`);
        }
      });
    });
  });
}
