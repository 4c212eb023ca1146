import type { GameTime } from '../clock/index.js';
import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { owesNoRest, type MovementProfile } from '../profiles/index.js';
import { TIMBER_SHORT_MAX, timberAlwaysFound } from './crossingOperations.js';
import { describeFatigue } from './describeMovement.js';
import { fatigueOnMoving, halvesSinceLongRest, marchingDaysIn } from './restAndFatigue.js';
import type { MoveOptions, MoveRequest, MoveWarning } from './types.js';
import type { Walk } from './walkPath.js';
import type { WeatherEffects } from '../state/index.js';

/** What the warnings of a previewed move are drawn from. */
export interface WarningInput {
  readonly map: MapModel;
  readonly army: Army;
  readonly clock: GameTime;
  readonly weather: WeatherEffects;
  readonly profile: MovementProfile;
  readonly request: MoveRequest;
  readonly opts: MoveOptions;
  readonly path: readonly Hex[];
  readonly steps: Walk['steps'];
}

/**
 * What the commander should know before the order stands: crossings changed by the rain, a
 * multi-day crossing, fatigue today or tomorrow, the weekly and half-period rest, stragglers,
 * weather that halts the march, and a contact that holds the army.
 * @see 000 Overland Travel; 000 Terrain Effects; 000 Weather Effects
 */
export function moveWarnings(w: WarningInput): MoveWarning[] {
  const { map, army, request, steps } = w;
  const warnings: MoveWarning[] = [];
  for (const s of steps) {
    if (s.closed === 'ford') warnings.push({ code: 'move.fordClosed', message: `The ford at ${map.format(s.hex)} is closed by rain: the plan crosses by ${s.crossing?.method} instead.` });
    if (s.closed === 'ferry') warnings.push({ code: 'move.ferryClosed', message: `The ferry at ${map.format(s.hex)} is out of service in this rain: the plan crosses by ${s.crossing?.method} instead.` });
  }
  if (steps.some((s) => (s.crossing?.halves ?? 0) > 0)) warnings.push({ code: 'move.multiDay', message: `The route includes a multi-day crossing: the army is committed to it until it is done.${timberDice(map, steps)}` });
  if (request.forced && !owesNoRest(army, w.profile)) warnings.push({ code: 'move.fatigueTomorrow', message: 'Forced march: the army must rest all of tomorrow or be fatigued.' });
  warnings.push(...restWarnings(w));
  if (w.opts.unformed || steps.some((s) => s.needsUnformed)) warnings.push({ code: 'move.stragglers', message: 'Unformed march: 5-15 % of each regiment straggles per day; one full day at the end to reform.' });
  if (army.status.fatigued) warnings.push({ code: 'move.fatigued', message: `The army is fatigued (${describeFatigue(army.march.fatigueReason)})${fatigueCost(w.profile)}.` });
  if (w.weather.overlandFactor === 0) warnings.push({ code: 'move.weatherHalted', message: `No overland movement in this weather${w.weather.overlandReason ? ` (${w.weather.overlandReason})` : ''}: the order waits.` });
  if (army.status.inContact) warnings.push({ code: 'move.inContact', message: 'The army is in contact: it moves once the contact is resolved.' });
  const machines = army.warMachines?.changing;
  if (machines) warnings.push({ code: 'move.machinesWork', message: `Its war machines are being ${machines.to} until daybreak of day ${machines.readyDay}: the order waits until then.` });
  return warnings;
}

/**
 * Rafts outside forest and swamp: the timber die, which the preview cannot foresee; it lays the
 * crossing out day by day as if timber is found.
 * @see 000 Terrain Effects: Major Rivers
 */
function timberDice(map: MapModel, steps: WarningInput['steps']): string {
  const where = steps.filter((s) => s.crossing?.method === 'rafts' && !timberAlwaysFound(map, s.hex)).map((s) => map.format(s.hex));
  if (where.length === 0) return '';
  return ` Rafts at ${where.join(', ')}: at the end of the first day a die decides whether there is timber (1-${TIMBER_SHORT_MAX}: too little, the day is lost and the order cancelled); the preview shows the crossing as if timber is found.`;
}

/** What fatigue costs on the march under the profile, for the warning. */
function fatigueCost(profile: MovementProfile): string {
  const f = profile.fatiguedFactor;
  if (f.num >= f.den) return ': it marches as far, but fights fatigued until it has rested';
  return `: ${Math.round((1 - f.num / f.den) * 100)} % fewer points until a full day of rest`;
}

/** Fatigue now, the weekly rest due tomorrow, two halves of rest due after this one. */
function restWarnings(w: WarningInput): MoveWarning[] {
  const { army, profile } = w;
  const out: MoveWarning[] = [];
  const fatigueNow = w.path.length > 0 || w.request.crossAtEnd ? fatigueOnMoving(army, w.clock, profile) : undefined;
  if (fatigueNow) out.push({ code: 'move.fatigueToday', message: `Moving now fatigues the army: ${describeFatigue(fatigueNow)}.` });
  else if (!army.march.movedToday && !owesNoRest(army, profile)) out.push(...lastMarchingDay(army, profile));
  const halves = profile.rest.halfPeriods;
  if (halves && halvesSinceLongRest(army.march.recentHalves) === halves.restMoveLimit - 1) out.push({ code: 'move.restMoveLimit', message: 'After this half period the army needs two consecutive half periods of rest.' });
  return out;
}

/** Today is the last marching day the profile allows before rest is owed. */
function lastMarchingDay(army: Army, profile: MovementProfile): MoveWarning[] {
  const rule = profile.rest.marchingDays;
  if (rule.kind === 'consecutive') {
    return army.march.daysMarched === rule.most - 1 ? [{ code: 'move.weeklyRestDue', message: `This is day ${rule.most} of marching in a row, the last the rules allow: rest all of tomorrow or be fatigued.` }] : [];
  }
  const marched = marchingDaysIn(army.march.recentDays, rule.days - 2) + 1;
  return marched === rule.most ? [{ code: 'move.weeklyRestDue', message: `This is the ${rule.most}th marching day in ${rule.days}: rest tomorrow, or march fatigued until the rest owed is caught up.` }] : [];
}
