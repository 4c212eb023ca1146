import type { GameTime } from '../clock/index.js';
import type { Hex } from '../hex/index.js';

/** An army's plan as the campaign state keeps it; the plan rules (src/engine/plans) follow it. */

/**
 * What an army following a plan does, half period after half period. The referee sets it with
 * `/army plan` (or the scenario does); the plan's orders are the same move and rest orders a
 * commander gives, checked by the same rules. @see docs/rulings.md (Plans)
 * - hold: stays where it is, resting;
 * - march: marches to a place, then holds there;
 * - patrol: marches from point to point, back to the first after the last, for ever;
 * - shadow: keeps two hexes from an enemy army, where its side knows that army to be;
 * - withdraw: holds, and falls back to a place once it has met a force it estimates stronger;
 * - garrison: marches to a town and holds it.
 */
export type PlanOrder =
  | { readonly kind: 'hold' }
  | { readonly kind: 'march'; readonly to: Hex }
  | { readonly kind: 'patrol'; readonly points: readonly Hex[] }
  | { readonly kind: 'shadow'; readonly target: string }
  | { readonly kind: 'withdraw'; readonly to: Hex }
  | { readonly kind: 'garrison'; readonly town: Hex };

/**
 * How the plan answers a contact: `evade` and `delay` engage when the army's own estimate says it
 * is the stronger, and otherwise evade (stay silent at step 1, evade at the decision) or delay
 * (delay at step 1, evade at the decision); `referee` never answers: the referee does, by the
 * deadline, or the rules' defaults apply.
 */
export type ContactPolicy = 'evade' | 'delay' | 'referee';

/** What an army estimated of an enemy's engaging regiment when it last met it (its own estimate, never the truth). */
export interface PlanEstimate {
  readonly figures: number;
  /** Time index of the contact it came from. */
  readonly at: number;
}

/** An army's plan, with the plan's own bookkeeping. Plain JSON, at most one per army. */
export interface ArmyPlan {
  readonly armyId: string;
  readonly order: PlanOrder;
  readonly contact: ContactPolicy;
  /** Who set it: a user id, or "scenario". */
  readonly setBy: string;
  readonly setAt: GameTime;
  /**
   * Followed even though the army has a commander: the army is under standing orders (an absent
   * commander). Armies nobody commands follow their plan without it.
   */
  readonly standing?: boolean;
  /** Patrol: the index of the point it is heading for. */
  readonly leg?: number;
  /** Withdraw: it has met a stronger force and fallen back (it holds at its place from then on). */
  readonly fellBack?: boolean;
  /** The army's own estimates of enemies it met, by army id (what "stronger" is judged on). */
  readonly estimates?: Readonly<Record<string, PlanEstimate>>;
  /** The last decision told to the referee (a decision is told when it changes). */
  readonly last?: string;
}
