import { HALF_PERIODS, nextHalf, type GameTime } from '../../engine/clock/index.js';
import { planSail } from '../../engine/water/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { currentEffects } from '../weather/currentEffects.js';

/** A standing voyage as its preview gives it: when each hex is entered, and when the fleet arrives. */
export interface VoyageSchedule {
  /** The half period each hex of the voyage is entered, in order. */
  readonly times: readonly GameTime[];
  /** The half period of arrival, when the preview reaches it (within three days at the current weather). */
  readonly arrives?: GameTime;
}

/**
 * The schedule of an army's standing sail order, from the same preview `/sail` shows (the water
 * rules' planSail at the current weather), so the private map's tags and `/army status` say what
 * the order's answer said. Steps the preview does not reach (a voyage longer than three days) are
 * given the half period after the last one it reached: the earliest they can be. Undefined for an
 * army with no voyage.
 */
export function voyageSchedule(tx: Pick<CampaignTx, 'state' | 'map'>, armyId: string): VoyageSchedule | undefined {
  const order = tx.state.orders[armyId];
  if (order?.kind !== 'sail' || order.path.length === 0) return undefined;
  const plan = planSail(tx.state, tx.map, armyId, { path: order.path, givenBy: order.givenBy }, currentEffects(tx.state));
  if (!plan.ok) return undefined;
  const times: GameTime[] = plan.value.preview.map((p) => ({ day: p.day, half: Math.max(0, HALF_PERIODS.indexOf(p.half as (typeof HALF_PERIODS)[number])) as GameTime['half'] }));
  const last = times[times.length - 1];
  const later = last ? nextHalf(last) : tx.state.clock;
  while (times.length < order.path.length) times.push(later);
  const reached = plan.value.halves !== undefined ? last : undefined;
  return { times, ...(reached ? { arrives: reached } : {}) };
}
