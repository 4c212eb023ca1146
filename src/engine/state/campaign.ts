import { BrokenData } from '../result.js';
import type { GameTime } from '../clock/index.js';
import type { ManualDiceState, RngState } from '../dice/index.js';
import type { KnowledgeState } from '../knowledge/index.js';
import type { ContactRecord } from '../contact/index.js';
import type { CourierRecord, DebarkOrder, SailOrder } from '../water/index.js';
import type { MoveOrder, RestOrder } from '../movement/index.js';
import type { ArmyPlan } from '../plans/index.js';
import type { Army, SideInfo } from '../forces/index.js';
import type { WeatherState } from '../weather/index.js';
import type { CampaignSettings } from './settings.js';

export type { ContactRecord, CourierRecord };

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

/** Who gave an order (user id) and when (game time): common to every kind of order. */
export interface OrderGiven {
  readonly armyId: string;
  readonly givenBy: string;
  readonly givenAt: GameTime;
}

/**
 * A standing order, at most one per army: a march (movement), a rest, a fleet's voyage or
 * anchorage (with the fleet), or the wait at a port of debarkation (with the regiments awaited).
 * An army with no order holds.
 */
export type Order = MoveOrder | RestOrder | SailOrder | DebarkOrder;

/**
 * The army with this id. Rules call it for ids the state itself holds (orders, contacts,
 * couriers); an id that is missing is broken data, never an expected refusal.
 */
export function getArmy(state: Pick<CampaignState, 'armies'>, id: string): Army {
  const army = Object.hasOwn(state.armies, id) ? state.armies[id] : undefined;
  if (!army) throw new BrokenData(`army "${id}" is not in the campaign state`);
  return army;
}
