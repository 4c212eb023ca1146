import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as dice from '../../src/engine/dice/index.js';
import * as hex from '../../src/engine/hex/index.js';
import * as mapModule from '../../src/engine/map/index.js';
import * as tick from '../../src/engine/tick/index.js';
import type { Army } from '../../src/engine/forces/army.js';
import type { Hex } from '../../src/engine/hex/hex.js';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import type { RiverData } from '../../src/engine/map/mapModel.js';
import { DEFAULT_SETTINGS, type CampaignSettings } from '../../src/engine/state/settings.js';
import type { CampaignState, ContactRecord, Order } from '../../src/engine/state/index.js';
import { debark, embark, planSail, sendCourier } from '../../src/engine/water/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { periodActive } from '../../src/engine/movement/timing.js';
import { army, campaign } from './movementFixtures.js';

/**
 * The engine at scale (issue 25) must not change a single result: random worlds are played tick
 * after tick by today's engine and by the engine as it stood at REFERENCE (before the contact
 * step worked on drafts, records.ts `inDraft`), and the whole resulting state, the events and the
 * dice rolled must be the same, byte for byte. The reference is that commit's src/engine (and the rule tables it reads), taken
 * out of git into a temporary folder once.
 *
 * The worlds have rivers (with or without a crossing site) and roads, flying, nocturnal and
 * home-terrain armies beside the plain ones, couriers sent between ticks, a sea coast with a port
 * where armies owning vessels embark, sail and land, and may start at any half period (evening
 * and night included), so the settings that act on them (flyingIgnoresTerrain,
 * nocturnalDayMarch), the crossing and night costs of moves and avoids, the courier step and the
 * fleet step are compared too. Not generated, so not compared here: plans, forces sharing a hex
 * through the support operations.
 *
 * When a RULE is changed on purpose, this test fails: move REFERENCE to the commit that made the
 * rule change (after checking that the difference is the rule change and nothing else).
 */
const REFERENCE = '4df467b025299bd80f29dd82504469a6532e1537';

/** What the test uses of an engine: its tick, map, dice and hexes. */
interface Engine {
  readonly tick: typeof tick;
  readonly map: typeof mapModule;
  readonly dice: typeof dice;
  readonly hex: typeof hex;
}

const current: Engine = { tick, map: mapModule, dice, hex };
const ROOT = resolve(import.meta.dirname, '../..');

/** The reference commit's src/engine, extracted once per machine (its own node_modules link for zod). */
function referenceEngineDir(): string {
  const dir = join(tmpdir(), `valormr-engine-reference-${REFERENCE.slice(0, 12)}`);
  if (existsSync(join(dir, 'src/engine/tick/index.ts'))) return dir;
  const part = `${dir}.${process.pid}.part`;
  rmSync(part, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  let tar: Buffer;
  try {
    tar = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', REFERENCE, 'src/engine', 'assets/rules'], { maxBuffer: 256 * 1024 * 1024 });
  } catch (e) {
    throw new Error(`engineReference: cannot read commit ${REFERENCE} from git (a clone with its history is needed): ${String(e)}`);
  }
  execFileSync('tar', ['-x', '-C', part], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(part, 'node_modules'));
  try {
    renameSync(part, dir);
  } catch {
    rmSync(part, { recursive: true, force: true }); // another worker extracted it meanwhile
  }
  return dir;
}

let reference: Engine;

beforeAll(async () => {
  const at = (module: string): Promise<unknown> => import(join(referenceEngineDir(), 'src/engine', module, 'index.ts'));
  reference = { tick: await at('tick'), map: await at('map'), dice: await at('dice'), hex: await at('hex') } as Engine;
}, 120_000);

const LAND = 'cccccffhhsm';
const SIDES = ['law', 'chaos', 'elves'] as const;
const HOME = ['forest', 'hill', 'swamp', 'mountain'] as const;

/** The campaign modes a world is played under: every movement and tactical profile, and the settings that change the rules. */
const arbSettings: fc.Arbitrary<CampaignSettings> = fc.record({
  profile: fc.constantFrom('valormr', 'acks'),
  tactical: fc.constantFrom('valormr', 'chapter002', 'warlord'),
  passageOfLines: fc.boolean(),
  manualDice: fc.constantFrom('none', 'none', 'contact', 'battle', 'all'),
  decisionDeadlineTicks: fc.integer({ min: 1, max: 3 }),
  positions: fc.constantFrom('public', 'fog'),
  flyingIgnoresTerrain: fc.boolean(),
  unformedAsRetreat: fc.boolean(),
  nocturnalDayMarch: fc.boolean(),
  marchAttrition: fc.boolean(),
  commanderDivisions: fc.boolean(),
  drought: fc.boolean(),
  temperature: fc.constantFrom('frigid', 'cold', 'moderate', 'sweltering'),
}).map((s) => ({ ...DEFAULT_SETTINGS, ...s }) as CampaignSettings);

const arbWorld = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
  size: fc.integer({ min: 5, max: 9 }),
  density: fc.integer({ min: 15, max: 60 }),
  ticks: fc.integer({ min: 2, max: 9 }),
  // The half period the world starts in: a world may begin at evening or night (night marches, nocturnal armies).
  half: fc.constantFrom<GameTime['half']>(0, 1, 2, 3),
  // A river down a column (its crossings, its banks) and a road along a row, or neither.
  river: fc.option(fc.record({ size: fc.constantFrom('major', 'minor'), crossing: fc.constantFrom(undefined, 'ford', 'ferry', 'bridge') }), { nil: undefined }),
  road: fc.boolean(),
  // The map's east edge is sea (coast, then open sea) with a port, and some armies own vessels.
  sea: fc.boolean(),
  settings: arbSettings,
});

/** A small deterministic random source for the world's choices (the engine's dice are its own). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 0x100000000;
  };
}

type WorldSpec = typeof arbWorld extends fc.Arbitrary<infer T> ? T : never;

interface World {
  readonly data: mapModule.MapData;
  readonly state: CampaignState;
  readonly rnd: () => number;
}

const hexId = (c: number, r: number): string => `${String(c).padStart(2, '0')}${String(r).padStart(2, '0')}`;

/** The world's map: its terrain, and the river and road it was given. */
function mapData(w: WorldSpec, rows: readonly string[], pick: (n: number) => number): mapModule.MapData {
  const column = 2 + pick(w.size - 2);
  const crossingRow = 1 + pick(w.size);
  const rivers: RiverData[] = w.river ? [{
    id: 'r', name: 'River',
    hexes: Array.from({ length: w.size }, (_, i) => ({ hex: hexId(column, i + 1), size: w.river?.size ?? 'minor', ...(w.river?.crossing && i + 1 === crossingRow ? { crossing: w.river.crossing } : {}) })),
  }] : [];
  const roadRow = 1 + pick(w.size);
  const roads = w.road ? [Array.from({ length: w.size }, (_, i) => hexId(i + 1, roadRow))] : [];
  const ports = w.sea ? [{ hex: hexId(w.size - 2, 1 + pick(w.size)), name: 'Port' }] : [];
  return { width: w.size, height: w.size, terrain: rows, roads, tracks: [], rivers, ports, channels: [], mudflats: [], towns: [], fortifications: [], regions: [], labels: [] };
}

function buildWorld(w: WorldSpec): World {
  const rnd = lcg(w.seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const rows = Array.from({ length: w.size }, () => Array.from({ length: w.size }, (_, c) => (w.sea && c === w.size - 1 ? 'o' : w.sea && c === w.size - 2 ? 'w' : pick([...LAND]))).join(''));
  const armies: Army[] = [];
  for (let c = 1; c <= w.size; c++) {
    for (let r = 1; r <= w.size; r++) {
      if (rnd() * 100 >= w.density || (w.sea && c >= w.size - 1)) continue;
      const id = `a${armies.length}`;
      const cls = pick(['infantry', 'infantry', 'cavalry', 'courier'] as const);
      const base = army(id, hexId(c, r), {
        side: pick(SIDES), movementClass: cls, figures: Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => 4 + Math.floor(rnd() * 20)),
        sight: rnd() < 0.2 ? 'dark' : 'light', formation: rnd() < 0.3 ? 'unformed' : 'formed', fatigued: rnd() < 0.1,
        // Flying armies (flyingIgnoresTerrain) and armies at home in a terrain (crossed at clear cost).
        ...(rnd() < 0.1 ? { flying: true } : {}), ...(rnd() < 0.1 ? { homeTerrain: { terrain: pick(HOME) } } : {}),
      });
      // Nocturnal armies (their night marches, nocturnalDayMarch).
      // Longships land on any beach; troop transports only in a port.
      const owned = w.sea && rnd() < 0.4 ? { ...base, vessels: rnd() < 0.6 ? { longship: 9, galley: 1 } : { troopTransport: 9, galley: 1 } } : base;
      armies.push(rnd() < 0.15 ? { ...owned, nocturnal: true } : owned);
    }
  }
  const data = mapData(w, rows, (n) => Math.floor(rnd() * n));
  return { data, state: { ...campaign(armies, { day: 1, half: w.half }), settings: w.settings }, rnd };
}

/** Random-walk orders for armies without one, as commanders give them between ticks. */
function withOrders(s: CampaignState, map: mapModule.MapModel, rnd: () => number): CampaignState {
  const orders: Record<string, Order> = { ...s.orders };
  for (const a of Object.values(s.armies)) {
    if (orders[a.id] || a.status.destroyed || rnd() < 0.2) continue;
    const path: Hex[] = [];
    let at = a.hex;
    for (let k = 0, n = 1 + Math.floor(rnd() * 4); k < n; k++) {
      const next = hex.neighbours(at)[Math.floor(rnd() * 6)] as Hex;
      if (!map.inBounds(next)) break;
      path.push(next);
      at = next;
    }
    if (path.length === 0) continue;
    const period = rnd() < 0.15 ? 'night' : 'day';
    orders[a.id] = { armyId: a.id, kind: 'move', period, path, forced: rnd() < 0.2, unformed: rnd() < 0.4, save: rnd() < 0.1, givenBy: 'test', givenAt: s.clock };
  }
  return { ...s, orders };
}

/** Commanders with vessels embark at the coast, fleets are given voyages along it, and fleets land their armies. */
function withFleets(s: CampaignState, map: mapModule.MapModel, rnd: () => number): CampaignState {
  let out = s;
  const advanced = s.settings.advancedEmbarkation;
  for (const a of Object.values(s.armies)) {
    if (a.status.destroyed || Object.keys(a.vessels).length === 0) continue;
    const r = rnd();
    const shore = hex.neighbours(a.hex).filter((n) => LAND.includes(map.data.terrain[hex.hexToOffset(n).row - 1]?.[hex.hexToOffset(n).col - 1] ?? 'o'));
    const near = shore[Math.floor(rnd() * shore.length)];
    if (!a.status.embarked) {
      const done = r < 0.5 ? embark(out, map, { armyId: a.id, vessels: a.vessels, givenBy: 'test', advanced }) : undefined;
      if (done?.ok) out = done.value.state;
    } else if (r < 0.4) {
      const to = hex.offsetToHex({ col: map.width - Math.floor(rnd() * 2), row: 1 + Math.floor(rnd() * map.height) });
      const plan = planSail(out, map, a.id, { to, givenBy: 'test' }, NO_WEATHER_EFFECTS);
      if (plan.ok) out = { ...out, orders: { ...out.orders, [a.id]: plan.value.order } };
    } else if (r < 0.7 && near) {
      const landed = debark(out, map, { armyId: a.id, hex: near, givenBy: 'test', advanced }, NO_WEATHER_EFFECTS);
      if (landed.ok) out = landed.value.state;
    }
  }
  return out;
}

/** Now and then a commander sends a courier to a friend or an ally (the courier step rides it, delivers or loses it). */
function withCourier(s: CampaignState, map: mapModule.MapModel, rnd: () => number): CampaignState {
  if (rnd() < 0.5) return s;
  const live = Object.values(s.armies).filter((a) => !a.status.destroyed);
  const from = live[Math.floor(rnd() * live.length)];
  const to = live[Math.floor(rnd() * live.length)];
  if (!from || !to) return s;
  const sent = sendCourier(s, map, { fromArmy: from.id, toArmy: to.id, message: `from ${from.id}` }, NO_WEATHER_EFFECTS);
  return sent.ok ? sent.value.state : s;
}

/** Commanders' answers to the open contacts (some stay silent), so every way through the contact rules is taken. */
function withAnswers(s: CampaignState, rnd: () => number): CampaignState {
  const contacts: Record<string, ContactRecord> = {};
  for (const [id, c] of Object.entries(s.contacts)) {
    if (c.step === 'step1') {
      const step1 = { ...c.data.step1 };
      for (const a of c.armyIds) {
        const r = rnd();
        const from = s.armies[a]?.hex;
        const to = from ? (hex.neighbours(from)[Math.floor(rnd() * 6)] as Hex) : undefined;
        if (r < 0.3) step1[a] = { kind: 'proceed' };
        else if (r < 0.45) step1[a] = { kind: 'delay' };
        else if (r < 0.65 && to) step1[a] = { kind: 'avoid', to };
      }
      contacts[id] = { ...c, data: { ...c.data, step1 } };
    } else if (c.step === 'decision') {
      const decisions = { ...c.data.decisions };
      for (const a of c.armyIds) if (decisions[a] === undefined && rnd() < 0.5) decisions[a] = rnd() < 0.5 ? 'evade' : 'engage';
      contacts[id] = { ...c, data: { ...c.data, decisions } };
    } else {
      contacts[id] = c;
    }
  }
  return { ...s, contacts };
}

/**
 * The wording fixed since REFERENCE, brought to one form on both sides before they are compared:
 * the sentences' words, never a result (a die, a figure, a hex). Each entry names its change; keep
 * the list short by moving REFERENCE when a rule changes anyway. (Session 19.)
 * - "(1 figures)" -> "(1 figure)": disengagement and drought losses of one figure.
 * - a path naming a hex twice in a row, or beginning on the army's own hex, said "0307 is not next
 *   to 0307"; it now says which of the two it is (walkPath.ts).
 * - fight on the morrow: "No commander pressed the contact: A, B will fight on the morrow (contact
 *   again next half period)." -> "No commander pressed the contact (fight on the morrow): A and B are
 *   out of contact for the rest of this half period, and in contact again at the start of the next
 *   if they still face each other."; its "Still nobody pressed the contact: A, B face each other
 *   ..." names the armies "A and B" too (describeContact.ts); since session 23 it says "Still nobody
 *   pressed the contact (fight on the morrow): A and B are out of contact for the rest of this half
 *   period again, and in contact at the start of the next if they still face each other.", and a
 *   standoff whose forces no longer face each other when the next half period begins is told so
 *   ("A and B no longer face each other: the contact is over.", a `contactParted` event, left out
 *   here: the reference has none).
 * - the referee's contact at sea counts vessels in the plural: "(1 galley, 9 troop transports)",
 *   was "9 troop transport" (describeWater.ts fleetKinds; both sides are put in the singular).
 * - an estimate on the accurate size row no longer says "about": "engaging regiment 14 figures" was
 *   "engaging regiment about 14 figures" (describeContact.ts describeEstimate).
 * - every event's sentence begins with a capital (events.ts tell): "a7 regiment 3 landed at 0401"
 *   -> "A7 regiment 3 landed at 0401" (both sides' texts begin with a capital here).
 */
function sameWording(text: string): string {
  const commas = (list: string): string => list.replace(/ and (?!.* and )/, ', ');
  const parted = '\\{"type":"contactParted","audience":\\{[^{}]*\\},"data":\\{[^{}]*\\},"text":"[^"]*"\\}';
  return text
    .replace(new RegExp(`,${parted}|${parted},?`, 'g'), '')
    .replace(/Still nobody pressed the contact \(fight on the morrow\): (.+?) are out of contact for the rest of this half period again, and in contact at the start of the next if they still face each other\./g, (_, l: string) => `Still nobody pressed the contact: ${l} face each other for another half period.`)
    .replace(/No commander pressed the contact \(fight on the morrow\): (.+?) are out of contact for the rest of this half period, and in contact again at the start of the next if they still face each other\./g, (_, l: string) => `No commander pressed the contact: ${commas(l)} will fight on the morrow (contact again next half period).`)
    .replace(/Still nobody pressed the contact: (.+?) face each other for another half period\./g, (_, l: string) => `Still nobody pressed the contact: ${commas(l)} face each other for another half period.`)
    .replace(/engaging regiment (\d+) figures/g, 'engaging regiment about $1 figures')
    .replace(/\(1 figures\)/g, '(1 figure)')
    .replace(/"text":"([a-z])/g, (_, c: string) => `"text":"${c.toUpperCase()}`)
    .replace(/(\d+) (galley|longship|river boat|sailing ship|troop transport)s\b/g, '$1 $2')
    .replace(/(\d+) is where the army stands: begin the path with the first hex to enter, then every hex after it in order\./g, '$1 is not next to $1: give every hex of the path in order.')
    .replace(/(\d+) is named twice in a row: give every hex of the path once, in order\./g, '$1 is not next to $1: give every hex of the path in order.')
    // The referee's deployment line names each modifier now ("3 +1 (all opponents in clear terrain) = 4", "= 8, held at 6", "3, no modifier"); it said "3 -> 4".
    .replace(/Deployment for [^"]*/g, (line) => line.replace(/(\d+)((?: [+-]\d+ \([^)]*\))+) = (-?\d+)(?:, held at (\d+))?/g, (_m, die: string, _mods: string, sum: string, held?: string) => `${die} -> ${held ?? sum}`).replace(/(\d+), no modifier/g, '$1 -> $1'));
}

/**
 * The one rule changed on purpose since REFERENCE (commit "Points saved or carried: the evening's
 * weather no longer rewrites a day march's allowance"): a move order waiting outside its period (a
 * day order in the evening or night, a night order by day) leaves the day's allowance as it was,
 * where the reference set it from the waiting half's weather; at the daybreak the night tick
 * reaches, the points saved or carried are counted from that allowance, and so today's points.
 * For those armies only, these three fields are left out of the comparison; everything else
 * (their positions, events and dice, and every other army whole) is compared, and each tick starts
 * from today's engine's state. Remove this when REFERENCE moves past that commit.
 */
function withoutWaitingAllowance(text: string, s: CampaignState): string {
  const waiting = Object.values(s.orders).flatMap((o) => (o.kind === 'move' && !periodActive(o.period, s.clock) ? [o.armyId] : []));
  if (text.startsWith('threw') || waiting.length === 0) return text;
  const out = JSON.parse(text) as { state: { armies: Record<string, { march: Record<string, unknown> } | undefined> } };
  for (const id of waiting) {
    const m = out.state.armies[id]?.march;
    if (!m) continue;
    delete m.allowanceToday;
    if (s.clock.half === 3) {
      delete m.savedPoints;
      delete m.pointsLeft;
    }
  }
  return JSON.stringify(out);
}

/** One tick by one engine: everything it produced, as text (or the error it threw). */
function play(engine: Engine, s: CampaignState, data: mapModule.MapData, seed: number): string {
  const map = engine.map.buildMap(data);
  const rolled = new engine.dice.SeededDice(engine.dice.createRngState(seed));
  try {
    const out = engine.tick.resolveTick(s, map, rolled, engine.tick.TICK_PLAN);
    return JSON.stringify({ state: out.state, events: out.events, rolls: rolled.rolls });
  } catch (e) {
    return `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  }
}

describe('the engine at scale gives the results of the reference engine', () => {
  it('random worlds, every movement profile and mode, played tick after tick: the same state, events and dice', () => {
    let ticksPlayed = 0;
    const steps = new Map<string, number>();
    let moved = 0;
    // Moves by the kinds of army and map the generator gives, so that each is known to be played.
    const kinds = new Map<string, number>();
    fc.assert(
      fc.property(arbWorld, (w) => {
        const world = buildWorld(w);
        const map = mapModule.buildMap(world.data);
        let s = world.state;
        for (let k = 0; k < w.ticks; k++) {
          s = withAnswers(withCourier(withOrders(withFleets(s, map, world.rnd), map, world.rnd), map, world.rnd), world.rnd);
          const mine = play(current, s, world.data, w.seed + k);
          const compared = withoutWaitingAllowance(mine, s);
          const theirs = withoutWaitingAllowance(play(reference, s, world.data, w.seed + k), s);
          if (compared !== theirs && sameWording(compared) !== sameWording(theirs)) {
            expect(sameWording(compared), `tick ${k + 1} of world ${JSON.stringify(w)}`).toBe(sameWording(theirs));
          }
          if (mine.startsWith('threw')) return;
          const next = JSON.parse(mine) as { state: CampaignState; events: { type: string }[] };
          ticksPlayed++;
          for (const c of Object.values(next.state.contacts)) steps.set(c.step, (steps.get(c.step) ?? 0) + 1);
          moved += next.events.filter((e) => e.type === 'armyMoved').length;
          for (const c of Object.values(next.state.couriers)) if (c.status !== s.couriers[c.id]?.status) kinds.set(`courier ${c.status}`, (kinds.get(`courier ${c.status}`) ?? 0) + 1);
          for (const a of Object.values(next.state.armies)) {
            const before = s.armies[a.id];
            if (before?.status.embarked) kinds.set(a.status.embarked ? 'afloat' : 'landed', (kinds.get(a.status.embarked ? 'afloat' : 'landed') ?? 0) + 1);
            if (!before || hex.hexKey(before.hex) === hex.hexKey(a.hex)) continue;
            if (a.flying) kinds.set('flying', (kinds.get('flying') ?? 0) + 1);
            if (a.status.embarked && before.status.embarked) kinds.set('sailed', (kinds.get('sailed') ?? 0) + 1);
            if (a.nocturnal) kinds.set('nocturnal', (kinds.get('nocturnal') ?? 0) + 1);
            if (a.homeTerrain) kinds.set('home terrain', (kinds.get('home terrain') ?? 0) + 1);
            if (world.data.rivers.length > 0) kinds.set('river map', (kinds.get('river map') ?? 0) + 1);
            if (world.data.roads.length > 0) kinds.set('road map', (kinds.get('road map') ?? 0) + 1);
            if (s.clock.half >= 2) kinds.set('at night', (kinds.get('at night') ?? 0) + 1);
          }
          s = next.state;
        }
      }),
      { numRuns: 40 },
    );
    // The worlds did exercise the rules the change touches.
    expect(ticksPlayed).toBeGreaterThan(100);
    for (const step of ['step1', 'decision', 'battle', 'closed']) expect(steps.get(step) ?? 0, step).toBeGreaterThan(10);
    expect(moved).toBeGreaterThan(100);
    for (const kind of ['flying', 'nocturnal', 'home terrain', 'river map', 'road map', 'at night', 'courier delivered', 'afloat']) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(5);
    expect(kinds.get('sailed') ?? 0, 'sailed').toBeGreaterThan(0);
  });
});
