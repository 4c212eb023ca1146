import { formatGameTime, type GameTime, ordinal } from '../../engine/clock/index.js';
import type { MovePlan, PlannedFatigue, PlannedStep } from '../../engine/movement/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { MovementProfile } from '../../engine/profiles/index.js';

function stepLine(s: PlannedStep): string {
  const day = s.dayOffset === 0 ? 'today' : s.dayOffset === 1 ? 'tomorrow' : `day +${s.dayOffset}`;
  if (s.crossing && s.enterCost === 0 && !s.terrain) {
    const c = s.crossing;
    const cost = c.days !== undefined ? `${c.days} day(s)` : `+${c.points} pts`;
    return `- cross the ${c.size} river at ${c.where} by ${c.method}: ${cost} — ${day}, ${s.half}${c.days === undefined ? `, ${s.pointsLeft} left` : ''}`;
  }
  const link = s.link === 'none' ? '' : `, ${s.link}`;
  return `- ${s.hex} ${s.terrain ?? ''}${link}: ${s.enterCost} pts — ${day}, ${s.half}, ${s.pointsLeft} left`;
}

/** What marching fatigued costs under the profile, in words. */
function fatigueCost(profile: MovementProfile): string {
  const f = profile.fatiguedFactor;
  const lost = 1 - f.num / f.den;
  if (lost <= 0) return 'no slower on the march under this profile, but it fights fatigued';
  return lost === 0.25 ? 'a quarter fewer points' : `${Math.round(lost * 100)} % fewer points`;
}

/** How fatigue from a forced march ends under the profile, in words. */
function fatigueEnds(profile: MovementProfile): string {
  return profile.rest.marchingDays.kind === 'window' ? 'the rest owed is caught up' : 'it rests a full day';
}

/** Why moving fatigues the army, in the words of the commander's preview. */
function fatigueWhy(f: PlannedFatigue, profile: MovementProfile): string {
  const rule = profile.rest.marchingDays;
  switch (f.reason) {
    case 'forcedMarch':
      return 'a forced march the day before';
    case 'seventhDay':
      return `its ${dayOrdinal(rule.kind === 'consecutive' ? rule.most + 1 : 7)} day of marching in a row`;
    case 'marchWindow':
      return rule.kind === 'window' ? `more than ${rule.most} marching days in ${rule.days}` : 'too many marching days';
    case 'noLongRest':
      return `more than ${halvesInWords(profile.rest.halfPeriods?.restMoveLimit ?? 4)} of movement without two half periods of rest in a row`;
    default:
      return 'the march';
  }
}

/** "seventh" (the rules' word), else "3rd", "8th", "21st". */
function dayOrdinal(n: number): string {
  return n === 7 ? 'seventh' : ordinal(n);
}

/** A count of half periods as the rules say it: whole periods in words ("two periods"), else half periods. */
function halvesInWords(halves: number): string {
  const periods = ['no periods', 'one period', 'two periods', 'three periods', 'four periods'][halves / 2];
  return halves % 2 === 0 && periods !== undefined ? periods : `${halves} half periods`;
}

/**
 * The half from which the preview has the army march fatigued, and why (the schedule plays the
 * tick's own fatigue: a forced march the day before, the seventh day of marching, the ACKS
 * window, the half-period rest). This order's forced march keeps its old wording.
 */
function fatigueLine(plan: MovePlan, profile: MovementProfile): string[] {
  const f = plan.fatigue;
  // Fatigued by its first step today: the rules' own warning (move.fatigueToday) says it already.
  if (!f || (f.dayOffset === 0 && plan.warnings.some((w) => w.code === 'move.fatigueToday'))) return [];
  const day = f.dayOffset === 0 ? 'today' : f.dayOffset === 1 ? 'tomorrow' : `day +${f.dayOffset}`;
  const when = f.reason === 'noLongRest' ? `${day}, ${f.half}` : day;
  // This order's own forced march, on a day before the fatigue; else a forced march already made.
  const lead = f.reason === 'forcedMarch' && plan.order.forced && f.dayOffset > 0 ? 'Forced march over several days: from' : 'From';
  return [`⚠ ${lead} ${when} the army marches fatigued (${fatigueWhy(f, profile)}; ${fatigueCost(profile)}), as the preview counts, until ${fatigueEnds(profile)}.`];
}

/**
 * The ephemeral preview of an accepted move order; `extra` warnings follow the rules' own. The
 * half from which the army marches fatigued, and why, when the march itself fatigues it within
 * the days shown (never for troops that owe no rest: the tick does not fatigue them).
 */
export function formatPlan(army: Army, plan: MovePlan, clock: GameTime, byReferee: boolean, profile: MovementProfile, extra: readonly string[] = []): string {
  const armyName = army.name;
  const o = plan.order;
  const flags = [o.forced ? 'forced march' : '', o.unformed ? 'unformed' : '', o.save ? 'saving points' : ''].filter(Boolean).join(', ');
  const lines = [
    `**${armyName}**: move order for the ${o.period === 'split' ? 'day and night (split)' : o.period}${flags ? ` (${flags})` : ''}, from ${formatGameTime(clock)}${byReferee ? ' (by the referee)' : ''}:`,
    ...(plan.steps.length > 0 ? plan.steps.map(stepLine) : ['- (no steps)']),
    `Total: ${plan.totalPoints} points${plan.warnings.some((w) => w.code === 'move.pastPreview') ? ` over more than ${plan.days} days` : plan.days > 1 ? ` over ${plan.days} days` : ''}.`,
    ...plan.warnings.map((w) => `⚠ ${w.message}`),
    ...fatigueLine(plan, profile),
    ...extra.map((w) => `⚠ ${w}`),
    'Order stored: it is carried out when the half periods are played. `/hold` cancels it.',
  ];
  return lines.join('\n');
}
