import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dice } from '../../src/engine/dice/index.js';
import type { Army } from '../../src/engine/forces/army.js';
import type { Hex } from '../../src/engine/hex/hex.js';
import { hexKey } from '../../src/engine/hex/hexId.js';
import { neighbours } from '../../src/engine/hex/neighbours.js';
import type { MapModel } from '../../src/engine/map/mapModel.js';
import { planMove } from '../../src/engine/movement/index.js';
import type { MoveRequest, PlannedStep } from '../../src/engine/movement/types.js';
import { MOVEMENT_PROFILE_IDS } from '../../src/engine/profiles/index.js';
import type { CampaignState, MoveOrder } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { NO_WEATHER_EFFECTS as NONE } from '../../src/engine/weather/types.js';
import { army, campaign, dice, mapOf, tick } from './movementFixtures.js';

/**
 * The /move preview (scheduleMove) against the tick that plays it, on the engine directly: an
 * army alone on generated terrain (no contact), the weather held fixed (none), under each
 * movement profile (the tactical profiles do not touch movement). A prior order is played for a
 * few half periods first, so the new order is given at any half with the army's books as a march
 * leaves them (marched or not today, stopped short of its next hex or not, points saved,
 * unformed, fatigued, days of marching behind it), with roads, tracks and a river crossed at fords,
 * bridges, by swimming, by ferry or on rafts (the timber die, rolled outside forest and swamp, is
 * one the preview does not foresee: the ticks are given a die that finds timber, as the preview
 * assumes); under ACKS, war machines assembled or not, and being assembled or taken down when the
 * order is given. Left out: weather, other armies. The points left are compared after the last
 * hex of each half period (the tick reports them per half); the half from which the army marches
 * fatigued, and why, with the tick's first `armyFatigued`.
 */
const SIZE = 6;
const LETTERS = ['c', 'c', 'c', 'f', 'h', 's', 'm'];
const HALVES = ['morning', 'afternoon', 'evening', 'night'] as const;

const arbOrder = fc.record({
  walk: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 8 }),
  period: fc.constantFrom('day', 'night', 'split') as fc.Arbitrary<'day' | 'night' | 'split'>,
  forced: fc.boolean(),
  unformed: fc.boolean(),
  save: fc.boolean(),
});

const arbCase = fc.record({
  profile: fc.constantFrom(...MOVEMENT_PROFILE_IDS),
  terrain: fc.array(fc.constantFrom(...LETTERS), { minLength: SIZE * SIZE, maxLength: SIZE * SIZE }),
  // Roads and tracks: a walk of links from a cell.
  links: fc.array(fc.record({ road: fc.boolean(), cell: fc.integer({ min: 0, max: SIZE * SIZE - 1 }), walk: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 4 }) }), { maxLength: 3 }),
  // A river down column 03, crossed at fords, bridges, or swum or rafted where it has no site.
  river: fc.option(fc.array(fc.record({ size: fc.constantFrom('major', 'minor') as fc.Arbitrary<'major' | 'minor'>, site: fc.constantFrom('ford', 'bridge', 'ferry', 'none') }), { minLength: SIZE, maxLength: SIZE })),
  // Days marched in a row before the campaign's first day (the seventh-day and ACKS window fatigue).
  marched: fc.integer({ min: 0, max: 7 }),
  // ACKS war machines: assembled or not, and at work (ready at the daybreak 1 or 2 days on) when the order is given.
  machines: fc.option(fc.record({ assembled: fc.boolean(), readyIn: fc.option(fc.constantFrom(1, 2), { freq: 2 }) }), { freq: 2 }),
  cell: fc.integer({ min: 0, max: SIZE * SIZE - 1 }),
  cls: fc.constantFrom('infantry', 'cavalry', 'courier') as fc.Arbitrary<'infantry' | 'cavalry' | 'courier'>,
  figures: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 3 }),
  dark: fc.boolean(),
  fatigued: fc.boolean(),
  prior: arbOrder,
  priorHalves: fc.integer({ min: 0, max: 11 }),
  next: arbOrder,
});

/** A path of distinct in-bounds hexes from `from` following the directions, never back to `from`. */
function pathFrom(map: MapModel, from: Hex, walk: readonly number[]): Hex[] {
  const seen = new Set([hexKey(from)]);
  const path: Hex[] = [];
  let cur = from;
  for (const d of walk) {
    const n = neighbours(cur)[d] as Hex;
    if (!map.inBounds(n) || seen.has(hexKey(n))) continue;
    seen.add(hexKey(n));
    path.push(n);
    cur = n;
  }
  return path;
}

type OrderCase = { period: 'day' | 'night' | 'split'; forced: boolean; unformed: boolean; save: boolean };

function request(o: OrderCase, dark: boolean, path: Hex[]): MoveRequest {
  return { period: dark ? o.period : o.period === 'split' ? 'day' : o.period, forced: o.forced, unformed: o.unformed, save: o.save, crossAtEnd: false, path };
}

/** Where the preview places each entry: the hex, the day (from the order's day) and the half, and points left after it. */
interface Placed {
  readonly hex: string;
  readonly day: number;
  readonly half: number;
  readonly pointsLeft?: number;
}

/** The half from which the army marches fatigued, and why. */
interface Fatigue {
  readonly day: number;
  readonly half: number;
  readonly reason: string;
}

function previewed(steps: readonly PlannedStep[]): Placed[] {
  return steps.map((s) => ({ hex: s.hex, day: s.dayOffset, half: HALVES.indexOf(s.half), pointsLeft: s.pointsLeft }));
}

/** Seeded dice, but timber for rafts is always found (the preview lays rafts out so). */
function timberFound(d: Dice): Dice {
  return { d6: (purpose) => (purpose.startsWith('timber') ? 6 : d.d6(purpose)), roll: (sides, purpose) => d.roll(sides, purpose) };
}

function played(state: CampaignState, map: MapModel, id: string, maxHalves: number): { placed: Placed[]; left: Map<string, number>; fatigue?: Fatigue } {
  const placed: Placed[] = [];
  const left = new Map<string, number>();
  let fatigue: Fatigue | undefined;
  const day0 = state.clock.day;
  const d = timberFound(dice([], 3));
  let s = state;
  for (let k = 0; k < maxHalves && s.orders[id]; k++) {
    const { day, half } = s.clock;
    const out = tick(s, map, d);
    for (const e of out.events) {
      if (e.data?.armyId !== id) continue;
      if (e.type === 'armyMoved') for (const h of e.data.path as string[]) placed.push({ hex: h, day: day - day0, half });
      if (e.type === 'movementOutcome') left.set(`${day - day0}/${half}`, e.data.pointsLeft as number);
      if (e.type === 'armyFatigued' && !fatigue) fatigue = { day: day - day0, half, reason: e.data.reason as string };
    }
    s = out.state;
  }
  return { placed, left, ...(fatigue ? { fatigue } : {}) };
}

type MachinesCase = { assembled: boolean; readyIn: 1 | 2 | null } | null;

/** A regiment of war machines (catapults, ACKS speeds), assembled or not. */
function withMachines(a: Army, m: MachinesCase): Army {
  if (!m) return a;
  const machines = { id: 'a-m', name: 'Catapults', role: 'reserve' as const, originalFigures: 2, companies: [{ troopType: 'catapults', basic: 'infantry' as const, figures: 2, warMachine: true }] };
  return { ...a, regiments: [...a.regiments, machines], warMachines: { state: m.assembled ? 'assembled' : 'disassembled' } };
}

/** The machines put to work (as /machines does) when the order is given, ready at a daybreak to come. */
function machinesAtWork(s: CampaignState, m: MachinesCase): CampaignState {
  const a = s.armies.a as Army;
  if (!m?.readyIn || !a.warMachines) return s;
  const to = a.warMachines.state === 'assembled' ? 'disassembled' : 'assembled';
  return { ...s, armies: { ...s.armies, a: { ...a, warMachines: { state: a.warMachines.state, changing: { to, readyDay: s.clock.day + m.readyIn } } } } };
}

/** The army marched the `n` days before (a day log of marching days, that many in a row). */
function marchedBefore(s: CampaignState, n: number): CampaignState {
  const a = s.armies.a as Army;
  if (n === 0) return s;
  return { ...s, armies: { ...s.armies, a: { ...a, march: { ...a.march, daysMarched: n, recentDays: [...a.march.recentDays, ...Array.from({ length: n }, () => true)].slice(-14) } } } };
}

describe('property: the /move preview is what the ticks play', () => {
  it('GIVEN an army alone, any half, any prior march, any order, each movement profile THEN every previewed step is entered where and when the preview says, with the points left it shows', () => {
    fc.assert(
      fc.property(arbCase, (raw) => {
        // An army with war machines marches formed here: the stragglers of an unformed march (dice)
        // would change which of its units is the slowest, and so its points.
        const c = raw.profile === 'acks' && raw.machines ? { ...raw, prior: { ...raw.prior, unformed: false }, next: { ...raw.next, unformed: false } } : raw;
        const rows = Array.from({ length: SIZE }, (_, r) => c.terrain.slice(r * SIZE, (r + 1) * SIZE).join(''));
        const bare = mapOf(rows);
        const lines = c.links.map((l) => [bare.allHexes()[l.cell] as Hex, ...pathFrom(bare, bare.allHexes()[l.cell] as Hex, l.walk)].map((h) => bare.format(h)));
        const river = c.river ? [{ id: 'r', name: 'R', hexes: c.river.map((x, i) => ({ hex: `03${String(i + 1).padStart(2, '0')}`, size: x.size, ...(x.site !== 'none' ? { crossing: x.site as 'ford' | 'bridge' | 'ferry' } : {}) })) }] : [];
        const map = mapOf(rows, { roads: lines.filter((_, i) => c.links[i]?.road), tracks: lines.filter((_, i) => !c.links[i]?.road), rivers: river });
        const start = map.allHexes()[c.cell] as Hex;
        const a: Army = withMachines(army('a', map.format(start), { movementClass: c.cls, figures: c.figures, sight: c.dark ? 'dark' : 'light', fatigued: c.fatigued }), c.profile === 'acks' ? c.machines : null);
        // The evening before day 1, so that the first daybreak keeps the army's books.
        let s: CampaignState = tick({ ...campaign([a], { day: 0, half: 3 }), settings: { ...DEFAULT_SETTINGS, profile: c.profile } }, map, dice([], 1)).state;
        s = marchedBefore(s, c.marched);
        const prior = planMove(s, map, NONE, 'a', request(c.prior, c.dark, pathFrom(map, start, c.prior.walk)));
        if (prior.ok) s = { ...s, orders: { a: prior.value.order } };
        const d = timberFound(dice([], 2));
        for (let k = 0; k < c.priorHalves; k++) s = tick(s, map, d).state;
        // Still across a river, the army cannot be given an order.
        if ((s.armies.a as Army).march.operation) return;
        s = machinesAtWork(s, c.profile === 'acks' ? c.machines : null);
        const here = (s.armies.a as Army).hex;
        const req = request(c.next, c.dark, pathFrom(map, here, c.next.walk));
        const plan = planMove(s, map, NONE, 'a', req);
        if (!plan.ok) {
          // A refusal for a step no day's points cover: given anyway, the ticks never enter that hex
          // either (the preview refuses nothing the tick would play).
          const v = plan.violation;
          const hex = (v.details as { hex?: string } | undefined)?.hex;
          if (v.code !== 'move.tooCostly' || hex === undefined || hex === map.format(here)) return;
          const order: MoveOrder = { armyId: 'a', kind: 'move', period: req.period, path: [...(req.path ?? [])], forced: req.forced, unformed: req.unformed, save: req.save, givenBy: 'x', givenAt: s.clock };
          const got = played({ ...s, orders: { a: order } }, map, 'a', 40);
          expect(got.placed.map((p) => p.hex)).not.toContain(hex);
          return;
        }
        const given: CampaignState = { ...s, orders: { a: plan.value.order } };
        const want = previewed(plan.value.steps);
        const got = played(given, map, 'a', plan.value.days * 4 + 4);
        // The tick's march lists the hexes entered; a crossing in place (a river hex's bridge or
        // ford, no hex entered) is a row of the preview only: its points show in the points left.
        const entered = want.filter((_, i) => plan.value.steps[i]?.terrain !== undefined);
        expect(got.placed).toEqual(entered.map(({ pointsLeft: _p, ...w }) => w));
        // The points left the preview shows after the last hex of each half are the tick's.
        const lastOfHalf = new Map(want.map((w) => [`${w.day}/${w.half}`, w.pointsLeft]));
        for (const [when, pts] of lastOfHalf) expect({ when, left: got.left.get(when) }).toEqual({ when, left: pts });
        // The half from which the preview says the army marches fatigued, and why, is the tick's.
        const f = plan.value.fatigue;
        expect(f ? { day: f.dayOffset, half: HALVES.indexOf(f.half), reason: f.reason } : undefined).toEqual(got.fatigue);
      }),
      { numRuns: 2000 },
    );
  });
});
