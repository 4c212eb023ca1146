import type { GameTime } from '../clock/gameTime.js';
import type { RngState } from '../dice/dice.js';
import type { Army, SideInfo } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import type { WeatherState } from '../weather/types.js';
import type { CampaignSettings } from './settings.js';

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
  /** Open and recent contacts, by id. Shape owned by src/engine/contact. */
  readonly contacts: Readonly<Record<string, ContactRecord>>;
  /** Couriers on the map, by id. Shape owned by src/engine/water (couriers). */
  readonly couriers: Readonly<Record<string, CourierRecord>>;
  readonly rng: RngState;
  /** Counter for ids the engine hands out (contacts, couriers, battles). */
  readonly nextId: number;
}

export type OrderKind = 'move' | 'rest' | 'hold' | 'sail' | 'embark' | 'debark' | 'operation';

/** An order for an army. Fields beyond `kind` depend on the kind. */
export interface Order {
  readonly armyId: string;
  readonly kind: OrderKind;
  /** Period the order is for. */
  readonly period: 'day' | 'night' | 'split';
  /** Hexes to enter, in order (not including the start). */
  readonly path: readonly Hex[];
  readonly forced: boolean;
  readonly unformed: boolean;
  readonly save: boolean;
  /** Cross the river in the last hex (end on the far bank). */
  readonly crossAtEnd?: boolean;
  /**
   * Multi-day river crossings (ferry, rafts) the commander accepted when giving the order. The
   * army will not commit to a multi-day crossing it was not shown (a ford closed by rain since).
   * Owned by src/engine/movement.
   */
  readonly crossings?: readonly { readonly hex: Hex; readonly method: string }[];
  /** Who gave it (user id) and when (game time). */
  readonly givenBy: string;
  readonly givenAt: GameTime;
  /** Extra data some kinds need (vessels, target hex...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A contact record. The contact rules (src/engine/contact) refine its `data`. */
export interface ContactRecord {
  readonly id: string;
  readonly armyIds: readonly string[];
  readonly hexes: readonly Hex[];
  readonly openedAt: GameTime;
  /** step1 (avoid/delay/proceed), contact (phase run), decision (engage/evade), deployment, battle, closed */
  readonly step: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface CourierRecord {
  readonly id: string;
  readonly fromArmy: string;
  readonly toArmy: string;
  readonly side: string;
  readonly hex: Hex;
  readonly message: string;
  readonly sentAt: GameTime;
  readonly status: 'travelling' | 'delivered' | 'captured';
  readonly data: Readonly<Record<string, unknown>>;
}
