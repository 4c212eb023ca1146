import { BrokenData } from '../result.js';
import type { GameTime } from '../clock/index.js';
import type { ManualDiceState, RngState } from '../dice/index.js';
import type { Army, SideInfo } from '../forces/index.js';
import type { CampaignSettings } from './settings.js';
import type { KnowledgeState } from './knowledgeRecords.js';
import type { ContactRecord } from './contactRecords.js';
import type { CourierRecord } from './waterRecords.js';
import type { Order } from './orders.js';
import type { ArmyPlan } from './planRecords.js';
import type { WeatherState } from './weatherRecords.js';

/**
 * The whole mutable state of one campaign: plain JSON-serialisable data. The map is static and
 * lives apart (MapModel, built once per scenario). Engine transitions take a state and return a
 * new one; they never mutate their input.
 */
export interface CampaignState {
  readonly id: string;
  readonly name: string;
  readonly scenarioId: string;
  readonly season: string;
  readonly status: 'setup' | 'running' | 'paused' | 'ended';
  readonly settings: CampaignSettings;
  readonly clock: GameTime;
  readonly sides: Readonly<Record<string, SideInfo>>;
  readonly armies: Readonly<Record<string, Army>>;
  /** Standing orders, at most one per army. */
  readonly orders: Readonly<Record<string, Order>>;
  readonly weather: WeatherState;
  /** Open and recent contacts, by id. Shape owned by src/engine/contact (ContactRecord). */
  readonly contacts: Readonly<Record<string, ContactRecord>>;
  /** Couriers on the map, by id. Shape owned by src/engine/water (CourierRecord). */
  readonly couriers: Readonly<Record<string, CourierRecord>>;
  /** The dice: the period in use, its secret seed and the next one's. @see docs/dice.md */
  readonly rng: RngState;
  /** Manual rolls asked for and not yet used. Shape owned by src/engine/dice (ManualDiceState). */
  readonly manualDice: ManualDiceState;
  /** What each army knows of the others' positions (fog of war). Shape owned by src/engine/knowledge. */
  readonly knowledge: KnowledgeState;
  /**
   * Plans, at most one per army, by army id: what an army nobody commands (or under standing
   * orders) does each half period. Shape owned by src/engine/plans (ArmyPlan). Referee-only.
   */
  readonly plans: Readonly<Record<string, ArmyPlan>>;
  /** Counter for contact ids (c1, c2, ...): a contact that stands over several half periods keeps its id. */
  readonly nextId: number;
  /** Counter for courier ids, their own sequence (k1, k2, ...). */
  readonly nextCourierId: number;
}

/**
 * The army with this id. Rules call it for ids the state itself holds (orders, contacts,
 * couriers); an id that is missing is broken data, never an expected refusal.
 */
export function getArmy(state: Pick<CampaignState, 'armies'>, id: string): Army {
  const army = Object.hasOwn(state.armies, id) ? state.armies[id] : undefined;
  if (!army) throw new BrokenData(`army "${id}" is not in the campaign state`);
  return army;
}
