import { regimentCount, type Army, type Company } from '../forces/index.js';
import { times, type Fraction, type MovementProfile, type SizeRow, type SpeedRow } from './movementProfile.js';

/**
 * What an army's troops give the movement rules under a profile: its daily points before the
 * day's modifiers (the slowest unit sets the pace), its size in brigades and what that does to
 * its speed and column, whether it needs rest at all.
 * @see 000 Overland Travel: Move Rates; 004 Moving Armies; Movement of Large Armies; Movement of
 *   War Machines; Rest and Recuperation: Tireless Troops
 */

/** Points a day for a speed in feet a turn: the table's row, or the table's own ratio between rows. */
export function pointsForSpeed(table: readonly SpeedRow[], feet: number): number {
  const row = table.find((r) => r.feet === feet);
  if (row) return row.points;
  const first = table[0];
  return first ? Math.floor((feet * first.points) / first.feet) : 0;
}

/** Whether the army's war machines are assembled (they are disassembled unless the army says so). */
export function machinesAssembled(army: Army): boolean {
  return army.warMachines?.state === 'assembled';
}

/**
 * The companies of a regiment a battle can field: those with figures, less the war machines when
 * the profile moves machines (ACKS) and they are disassembled or being worked on. Used alike by
 * the briefing, the deployment schedule and `/battle turn`, so none brings on a machine another
 * calls unusable. @see 004 Movement of War Machines
 */
export function companiesInBattle(army: Army, companies: readonly Company[], profile: MovementProfile): Company[] {
  const out = profile.rates.warMachines !== undefined && (!machinesAssembled(army) || army.warMachines?.changing !== undefined);
  return companies.filter((c) => c.figures > 0 && !(out && c.warMachine === true));
}

/** The rates of the army's units that have figures, when the profile reads stated speeds. */
function unitRates(army: Army, profile: MovementProfile, classRate: number): number[] {
  const { bySpeed, warMachines } = profile.rates;
  if (!bySpeed) return [];
  const out: number[] = [];
  for (const r of army.regiments) {
    for (const c of r.companies) {
      if (c.figures <= 0) continue;
      if (c.warMachine && warMachines) {
        out.push(pointsForSpeed(bySpeed, machinesAssembled(army) ? warMachines.assembled : warMachines.disassembled));
        continue;
      }
      const feet = c.speed ?? r.speed;
      out.push(feet !== undefined ? pointsForSpeed(bySpeed, feet) : classRate);
    }
  }
  return out;
}

/**
 * Daily points before size, forced march, fatigue, weather and rest: the army moves at its
 * slowest unit. An army of individuals only moves at its slowest individual; a scenario may fix
 * an army's points. Profiles with a speed table read the speeds stated per company or regiment
 * (the class rate otherwise) and move war machines at their assembled or disassembled speed.
 * @see 000 Overland Travel: Move Rates; Individual Fantastic Creatures; 004 Moving Armies
 */
export function basePoints(army: Army, profile: MovementProfile): number {
  if (army.baseMovePoints !== undefined) return army.baseMovePoints;
  if (army.movementClass === 'creature') {
    const rates = army.individuals.map((i) => i.movePoints).filter((p): p is number => p !== undefined);
    return rates.length > 0 ? Math.min(...rates) : profile.rates.byClass.infantry;
  }
  const classRate = profile.rates.byClass[army.movementClass];
  const rates = unitRates(army, profile, classRate);
  return rates.length > 0 ? Math.min(...rates) : classRate;
}

/** An army's size for the large-army rule: brigades and its row of the table. */
export interface ArmySize {
  readonly brigades: number;
  readonly columnMiles: number;
  readonly multiplier: Fraction;
}

/** The row of the large-army table for a number of brigades. */
function sizeRow(table: readonly SizeRow[], brigades: number): SizeRow | undefined {
  return table.find((r) => brigades >= r.from);
}

/**
 * The army's size under the profile: its regiments with figures times the referee's brigades per
 * regiment. Undefined when the profile has no large-army rule.
 * @see 004 Movement of Large Armies
 */
export function armySize(army: Army, profile: MovementProfile): ArmySize | undefined {
  if (!profile.size) return undefined;
  const brigades = regimentCount(army) * profile.size.brigadesPerRegiment;
  const row = sizeRow(profile.size.table, brigades);
  return row ? { brigades, columnMiles: row.columnMiles, multiplier: row.multiplier } : undefined;
}

/** Daily points after the large-army multiplier (x1 without the rule). */
export function sizedPoints(army: Army, profile: MovementProfile, points: number): number {
  const size = armySize(army, profile);
  return size ? times(points, size.multiplier) : points;
}

/**
 * The length of a large army's column on the march (004): the table's length, cut to the miles
 * the day's march covers when that is shorter. A point is a mile on clear ground; along a road a
 * mile costs the road factor of a point (x2/3), so the same points march further: 4 points a day
 * are 6 miles on a road, and a 6-mile column.
 * @see 004 Movement of Large Armies (the worked example of Audarius Tarkaun's army)
 */
export function columnMiles(size: ArmySize, points: number, road: Fraction | undefined): number {
  const miles = road ? Math.floor((points * road.den) / road.num) : points;
  return Math.min(size.columnMiles, miles);
}

/** The army needs no rest: tireless itself, or every company with figures tireless. */
export function isTireless(army: Army): boolean {
  if (army.tireless) return true;
  const companies = army.regiments.flatMap((r) => r.companies.filter((c) => c.figures > 0));
  return companies.length > 0 && companies.every((c) => c.tireless === true);
}

/** The army owes no rest under this profile (tireless troops, where the profile exempts them). */
export function owesNoRest(army: Army, profile: MovementProfile): boolean {
  return profile.rest.tirelessExempt && isTireless(army);
}
