import type { Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import type { WeatherEffects } from '../weather/index.js';
import { HALVES_PER_DAY } from './crossing.js';
import { todaysPoints } from './dailyPoints.js';
import { describeFatigue } from './describeMovement.js';
import { describeMarchFormation, marchFormation, type MarchFormationId } from './marchFormation.js';
import { halvesSinceLongRest, MAX_MARCH_DAYS, REST_MOVE_LIMIT } from './restAndFatigue.js';
import { stragglerCount } from './stragglers.js';

/** What /army status shows about an army's march (for its own commander). */
export interface MarchStatus {
  readonly hex: string;
  readonly bank?: string;
  readonly formation: 'formed' | 'unformed';
  readonly marchFormation: MarchFormationId;
  readonly marchFormationText: string;
  readonly pointsToday: number;
  readonly pointsLeft: number;
  readonly savedPoints: number;
  readonly fatigued: boolean;
  readonly fatigueReason?: string;
  readonly daysMarched: number;
  /** Plain words: what rest the army needs next. */
  readonly restState: string;
  readonly stragglers: number;
  readonly rallyPoint?: string;
  readonly operation?: string;
}

/** The march part of an army's status. @see 000 Overland Travel; 000 Orders of March */
export function marchStatus(map: MapModel, army: Army, weather: WeatherEffects, forced = false): MarchStatus {
  const m = army.march;
  const today = todaysPoints(army, forced, weather);
  const mf = marchFormation(map, army);
  const since = halvesSinceLongRest(m.recentHalves);
  const rest: string[] = [];
  if (m.forcedMarchDay !== undefined) rest.push(`forced march on day ${m.forcedMarchDay}: rest the day after`);
  if (m.daysMarched >= MAX_MARCH_DAYS) rest.push('six days marched: a full day of rest is due');
  else rest.push(`${m.daysMarched} day(s) marched in a row (six at most)`);
  if (since >= REST_MOVE_LIMIT) rest.push('needs two consecutive half periods of rest before moving');
  if (m.restDays > 0) rest.push(`${m.restDays} full day(s) of rest`);
  const op = m.operation;
  return {
    hex: map.format(army.hex),
    ...(army.bank ? { bank: army.bank } : {}),
    formation: army.formation,
    marchFormation: mf,
    marchFormationText: describeMarchFormation(mf),
    pointsToday: today,
    pointsLeft: Math.max(0, today - m.spentToday),
    savedPoints: m.savedPoints,
    fatigued: army.status.fatigued,
    ...(m.fatigueReason ? { fatigueReason: describeFatigue(m.fatigueReason) } : {}),
    daysMarched: m.daysMarched,
    restState: rest.join('; '),
    stragglers: stragglerCount(army),
    ...(m.rallyPoint ? { rallyPoint: map.format(m.rallyPoint) } : {}),
    ...(op ? { operation: `${op.kind} at ${map.format(op.hex)} (${op.phase}), ${Math.ceil(op.remainingHalves / HALVES_PER_DAY)} day(s) to go` } : {}),
  };
}
