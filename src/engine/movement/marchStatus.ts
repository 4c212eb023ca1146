import type { Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import { neighbours } from '../hex/index.js';
import { armySize, basePoints, columnMiles, isTireless, machinesAssembled, owesNoRest, type MovementProfile } from '../profiles/index.js';
import { HALVES_PER_DAY } from './crossing.js';
import { todaysPoints } from './dailyPoints.js';
import { describeFatigue } from './describeMovement.js';
import { describeMarchFormation, marchFormation, type MarchFormationId } from './marchFormation.js';
import { halvesSinceLongRest, marchingDaysIn } from './restAndFatigue.js';
import { stragglerCount } from './stragglers.js';
import type { WeatherEffects } from '../state/index.js';

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
  /** The army's rate before the day's modifiers (its slowest unit). */
  readonly rate: number;
  /**
   * Large armies: brigades, the speed multiplier and the column length in miles (profiles with the
   * rule): the day's march when shorter than the table's, along the road when the army stands on one.
   */
  readonly size?: { readonly brigades: number; readonly multiplier: string; readonly columnMiles: number; readonly onRoad: boolean };
  readonly tireless?: boolean;
  /** War machines, assembled or not, and the work of changing over. */
  readonly warMachines?: string;
}

/** What rest the army owes, in plain words, under its profile. */
function restState(army: Army, profile: MovementProfile, day: number): string {
  const m = army.march;
  if (owesNoRest(army, profile)) return 'tireless: it owes no rest';
  const rest: string[] = [];
  // The day of rest a forced march owes is tomorrow, or today; after it, rested or not, it is no longer owed.
  if (m.forcedMarchDay === day) rest.push(`forced march today (day ${day}): rest all of tomorrow`);
  else if (m.forcedMarchDay === day - 1) rest.push(`forced march yesterday (day ${day - 1}): today is its day of rest`);
  const rule = profile.rest.marchingDays;
  if (rule.kind === 'consecutive') {
    if (m.daysMarched >= rule.most) rest.push(`${rule.most} days marched: a full day of rest is due`);
    else rest.push(`${m.daysMarched} day(s) marched in a row (${rule.most} at most)`);
  } else {
    rest.push(`${marchingDaysIn(m.recentDays, rule.days - 1)} marching day(s) in the ${rule.days - 1} days before today (at most ${rule.most} in any ${rule.days})`);
  }
  const halves = profile.rest.halfPeriods;
  if (halves && halvesSinceLongRest(m.recentHalves) >= halves.restMoveLimit) rest.push('needs two consecutive half periods of rest before moving');
  if (m.restDays > 0) rest.push(`${m.restDays} full day(s) of rest`);
  return rest.join('; ');
}

/** The army's war machines in words, when it has any. */
function machinesText(army: Army, day: number): string | undefined {
  const hasMachines = army.regiments.some((r) => r.companies.some((c) => c.warMachine && c.figures > 0));
  if (!hasMachines) return undefined;
  const changing = army.warMachines?.changing;
  if (changing) return `being ${changing.to} (ready at daybreak of day ${changing.readyDay}${changing.readyDay === day + 1 ? ', tomorrow' : ''}); the army does not march meanwhile`;
  return machinesAssembled(army) ? 'assembled (ready for battle)' : 'disassembled (not usable in a battle)';
}

/** The march part of an army's status, under the campaign's movement profile. @see 000 Overland Travel; 000 Orders of March; 004 Moving Armies */
export function marchStatus(map: MapModel, army: Army, weather: WeatherEffects, profile: MovementProfile, day: number, forced = false): MarchStatus {
  const m = army.march;
  const today = todaysPoints(army, profile, forced, weather);
  const mf = marchFormation(map, army);
  const size = armySize(army, profile);
  const onRoad = size !== undefined && neighbours(army.hex).some((n) => map.hasRoad(army.hex, n));
  const machines = machinesText(army, day);
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
    restState: restState(army, profile, day),
    stragglers: stragglerCount(army),
    ...(m.rallyPoint ? { rallyPoint: map.format(m.rallyPoint) } : {}),
    ...(op ? { operation: `${op.kind} at ${map.format(op.hex)} (${op.phase}), ${Math.ceil(op.remainingHalves / HALVES_PER_DAY)} day(s) to go` } : {}),
    rate: basePoints(army, profile),
    ...(size ? { size: { brigades: size.brigades, multiplier: `${size.multiplier.num}/${size.multiplier.den}`, columnMiles: columnMiles(size, today, onRoad ? profile.terrain.road : undefined), onRoad } } : {}),
    ...(isTireless(army) ? { tireless: true } : {}),
    ...(machines ? { warMachines: machines } : {}),
  };
}
