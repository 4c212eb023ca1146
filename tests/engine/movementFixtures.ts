import type { GameTime } from '../../src/engine/clock/gameTime.js';
import { createRngState, type Dice, NO_MANUAL_DICE, SeededDice } from '../../src/engine/dice/index.js';
import { NO_KNOWLEDGE } from '../../src/engine/knowledge/index.js';
import type { EngineEvent } from '../../src/engine/events/events.js';
import { FRESH_MARCH, FRESH_STATUS, type Army, type HalfActivity, type MovementClass, type Regiment } from '../../src/engine/forces/army.js';
import type { Hex } from '../../src/engine/hex/hex.js';
import { parseHex } from '../../src/engine/hex/hexId.js';
import { buildMap, type MapData, type MapModel, type RiverData } from '../../src/engine/map/mapModel.js';
import { beginHalfStep, movementStep, planMove, type MoveOrder } from '../../src/engine/movement/index.js';
import { type MoveRequest } from '../../src/engine/movement/types.js';
import type { CampaignState, Order, WeatherEffects } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { basePoints, movementProfile, type MovementProfile, VALORMR_PROFILE } from '../../src/engine/profiles/index.js';
import { resolveTick } from '../../src/engine/tick/resolveTick.js';
import { FIRST_MORNING, NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';

/** The Valormr movement profile, with the flying house setting on (default) or off. */
export function valormr(flying = true): MovementProfile {
  return movementProfile({ ...DEFAULT_SETTINGS, flyingIgnoresTerrain: flying });
}

/** A map from ASCII rows (c clear, f forest, h hill, s swamp, m mountain, w coast, o sea). */
export function mapOf(rows: readonly string[], extra: Partial<MapData> = {}): MapModel {
  return buildMap({
    width: rows[0]?.length ?? 0,
    height: rows.length,
    terrain: rows,
    roads: [],
    tracks: [],
    rivers: [],
    ports: [],
    channels: [],
    mudflats: [],
    towns: [],
    fortifications: [],
    regions: [],
    labels: [],
    ...extra,
  });
}

export function hx(id: string): Hex {
  const h = parseHex(id);
  if (!h) throw new Error(`bad hex ${id}`);
  return h;
}

export const hexes = (ids: string): Hex[] => ids.split(/\s+/).filter(Boolean).map(hx);

/**
 * A river running down column 02 from row 01 (0201 ...). Its source and mouth hexes are not split. In its hexes, edges to the
 * west (column 01) are the right bank, edges to the east (column 03) the left bank.
 */
export function riverDownColumn2(size: 'major' | 'minor', crossing?: 'ford' | 'ferry' | 'bridge', at = '0203', rows = 5): RiverData {
  return {
    id: 'r',
    name: 'Test River',
    hexes: Array.from({ length: rows }, (_, i) => `020${i + 1}`).map((id) => ({ hex: id, size, ...(crossing && id === at ? { crossing } : {}) })),
  };
}

export interface ArmyOptions {
  side?: string;
  movementClass?: MovementClass;
  figures?: number[];
  sight?: 'light' | 'dark';
  flying?: boolean;
  homeTerrain?: Army['homeTerrain'];
  bank?: 'left' | 'right';
  baseMovePoints?: number;
  fatigued?: boolean;
  formation?: 'formed' | 'unformed';
}

export function army(id: string, hex: string, o: ArmyOptions = {}): Army {
  const figures = o.figures ?? [20];
  const regiments: Regiment[] = figures.map((f, i) => ({
    id: `${id}-r${i + 1}`,
    name: `${id} regiment ${i + 1}`,
    role: i === 0 ? 'assault' : i === 1 ? 'support' : 'reserve',
    originalFigures: f,
    companies: [{ troopType: 'foot', basic: o.movementClass === 'cavalry' ? 'cavalry' : 'infantry', figures: f }],
  }));
  const a: Army = {
    id,
    name: `Army of ${id}`,
    commander: id.charAt(0).toUpperCase() + id.slice(1),
    side: o.side ?? 'law',
    hex: hx(hex),
    ...(o.bank ? { bank: o.bank } : {}),
    movementClass: o.movementClass ?? 'infantry',
    ...(o.baseMovePoints !== undefined ? { baseMovePoints: o.baseMovePoints } : {}),
    ...(o.flying ? { flying: true } : {}),
    sight: o.sight ?? 'light',
    nocturnal: false,
    ...(o.homeTerrain ? { homeTerrain: o.homeTerrain } : {}),
    regiments,
    individuals: [{ id: `${id}-leader`, name: 'Leader', kind: 'leader' }],
    scouts: 1,
    vessels: {},
    formation: o.formation ?? 'formed',
    status: { ...FRESH_STATUS, fatigued: o.fatigued ?? false },
    march: FRESH_MARCH,
  };
  return { ...a, march: { ...FRESH_MARCH, pointsLeft: basePoints(a, VALORMR_PROFILE), allowanceToday: basePoints(a, VALORMR_PROFILE) } };
}

export function campaign(armies: readonly Army[], clock: GameTime = { day: 1, half: 0 }): CampaignState {
  return {
    id: 'test',
    name: 'Test',
    scenarioId: 'test',
    season: '',
    status: 'running',
    settings: DEFAULT_SETTINGS,
    clock,
    sides: {
      law: { id: 'law', name: 'Law', colour: '#3030b0', hostileTo: ['chaos'] },
      chaos: { id: 'chaos', name: 'Chaos', colour: '#b03030', hostileTo: ['law'] },
      elves: { id: 'elves', name: 'Elves', colour: '#30b030', hostileTo: [] },
    },
    armies: Object.fromEntries(armies.map((a) => [a.id, a])),
    orders: {},
    weather: FIRST_MORNING,
    contacts: {},
    couriers: {},
    rng: createRngState(1), manualDice: NO_MANUAL_DICE, knowledge: NO_KNOWLEDGE,
    nextId: 1, nextCourierId: 1, plans: {},
  };
}

export const MOVE: MoveRequest = { period: 'day', forced: false, unformed: false, save: false, crossAtEnd: false };

/** Plans and stores an order; throws on refusal (tests of refusals call planMove directly). */
export function order(state: CampaignState, map: MapModel, armyId: string, req: Partial<MoveRequest>, weather: WeatherEffects = NO_WEATHER_EFFECTS): CampaignState {
  const plan = planMove(state, map, weather, armyId, { ...MOVE, ...req });
  if (!plan.ok) throw new Error(`${plan.violation.code}: ${plan.violation.message}`);
  return { ...state, orders: { ...state.orders, [armyId]: plan.value.order } };
}

export function rawOrder(armyId: string, path: readonly Hex[], o: Partial<Omit<MoveOrder, 'kind'>> = {}): MoveOrder {
  return { armyId, kind: 'move', period: 'day', path, forced: false, unformed: false, save: false, givenBy: 'u', givenAt: { day: 1, half: 0 }, ...o };
}

export const dice = (script: number[] = [], seed = 7) => new SeededDice(createRngState(seed), script);

/** One tick as the scheduler plays it: movement, clock, daily books and contacts. */
export function tick(state: CampaignState, map: MapModel, d: Dice = dice(), weather: WeatherEffects = NO_WEATHER_EFFECTS): { state: CampaignState; events: readonly EngineEvent[] } {
  return resolveTick(state, map, d, { closeHalf: [movementStep], openHalf: [beginHalfStep], effects: () => weather });
}

/** Plays `n` ticks. */
export function ticks(state: CampaignState, map: MapModel, n: number, d = dice(), weather: WeatherEffects = NO_WEATHER_EFFECTS): { state: CampaignState; events: EngineEvent[] } {
  let s = state;
  const events: EngineEvent[] = [];
  for (let i = 0; i < n; i++) {
    const out = tick(s, map, d, weather);
    s = out.state;
    events.push(...out.events);
  }
  return { state: s, events };
}

export const at = (state: CampaignState, map: MapModel, id: string): string => map.format((state.armies[id] as Army).hex);

/** The hexes a march or a voyage still has to go; fails the test for any other order. */
export function pathOf(order: Order | undefined): readonly Hex[] {
  if (order?.kind !== 'move' && order?.kind !== 'sail') throw new Error(`expected a march or a voyage, got ${order?.kind ?? 'no order'}`);
  return order.path;
}

const ACTIVITY: Readonly<Record<string, HalfActivity>> = { m: 'moved', w: 'worked', r: 'rested', b: 'battle' };

/** A half-period log written as letters, oldest first: m moved, w worked, r rested, b battle. */
export function halves(letters: string): HalfActivity[] {
  return [...letters].map((l) => {
    const a = ACTIVITY[l];
    if (!a) throw new Error(`no half-period activity "${l}"`);
    return a;
  });
}
