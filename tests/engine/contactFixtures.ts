import { createRngState, NO_MANUAL_DICE, SeededDice } from '../../src/engine/dice/index.js';
import { NO_KNOWLEDGE } from '../../src/engine/knowledge/index.js';
import { FRESH_MARCH, FRESH_STATUS, type Army, type Company } from '../../src/engine/forces/army.js';
import type { CampaignState, ContactRecord } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { FIRST_MORNING } from '../../src/engine/weather/types.js';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import { mapOf as asciiMap, hx } from './movementFixtures.js';

/** A small map from ASCII rows, and hex ids: the movement tests' builders. */
export { asciiMap, hx };

export interface ArmySpec {
  side: 'chaos' | 'law';
  hex: string;
  /** Companies of the assault regiment (default one company of 20 heavy foot). */
  companies?: Company[];
  /** Extra regiments (each 20 light foot). */
  extraRegiments?: number;
  points?: number;
  scouts?: number;
  formation?: 'formed' | 'unformed';
  fatigued?: boolean;
  originalFigures?: number;
}

export function makeArmy(id: string, spec: ArmySpec): Army {
  const companies = spec.companies ?? [{ troopType: 'heavy foot', basic: 'infantry', figures: 20 }];
  const first = { id: `${id}-1`, name: `${id} first regiment`, role: 'assault' as const, originalFigures: spec.originalFigures ?? companies.reduce((n, c) => n + c.figures, 0), companies };
  const extra = Array.from({ length: spec.extraRegiments ?? 0 }, (_, i) => ({
    id: `${id}-${i + 2}`,
    name: `${id} regiment ${i + 2}`,
    role: (i === 0 ? 'support' : 'reserve') as 'support' | 'reserve',
    originalFigures: 20,
    companies: [{ troopType: 'light foot', basic: 'infantry' as const, figures: 20 }],
  }));
  return {
    id,
    name: id[0]?.toUpperCase() + id.slice(1),
    commander: id,
    side: spec.side,
    hex: hx(spec.hex),
    movementClass: 'infantry',
    sight: 'light',
    nocturnal: false,
    regiments: [first, ...extra],
    individuals: [],
    scouts: spec.scouts ?? 0,
    vessels: {},
    formation: spec.formation ?? 'formed',
    status: { ...FRESH_STATUS, fatigued: spec.fatigued ?? false },
    march: { ...FRESH_MARCH, pointsLeft: spec.points ?? 12 },
  } as Army;
}

export function makeState(armies: Record<string, ArmySpec>, clock: GameTime = { day: 1, half: 1 }): CampaignState {
  return {
    id: 'camp',
    name: 'Test',
    scenarioId: 'test',
    season: 'summer',
    status: 'running',
    settings: DEFAULT_SETTINGS,
    clock,
    sides: {
      chaos: { id: 'chaos', name: 'Chaos', colour: '#f00', hostileTo: ['law'] },
      law: { id: 'law', name: 'Law', colour: '#00f', hostileTo: ['chaos'] },
    },
    armies: Object.fromEntries(Object.entries(armies).map(([id, spec]) => [id, makeArmy(id, spec)])),
    orders: {},
    weather: FIRST_MORNING,
    contacts: {},
    couriers: {},
    rng: createRngState(1), manualDice: NO_MANUAL_DICE, knowledge: NO_KNOWLEDGE,
    nextId: 1, nextCourierId: 1, plans: {},
  } as CampaignState;
}

/** A contact record in step 1, as the movement rules open it. */
export function withContact(state: CampaignState, armyIds: string[], id = 'c1'): CampaignState {
  const record: ContactRecord = { id, armyIds, hexes: armyIds.map((a) => state.armies[a]!.hex), openedAt: state.clock, step: 'step1', data: {} };
  return { ...state, contacts: { ...state.contacts, [id]: record } };
}

/** The value of an engine result that must have succeeded (the violation's code and message otherwise). */
export const must = <T>(r: { ok: true; value: T } | { ok: false; violation: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
};

export const dice = (...script: number[]) => new SeededDice(createRngState(42), script);
