import { formatGameTime, type GameTime } from '../../engine/clock/index.js';
import type { MovePlan, PlannedStep } from '../../engine/movement/index.js';
import type { Army } from '../../engine/forces/index.js';
import { owesNoRest, type MovementProfile } from '../../engine/profiles/index.js';

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

/** Days on which the preview has the army march (a forced march fatigues from the day after the first). */
function marchDays(plan: MovePlan): number {
  return new Set(plan.steps.map((s) => s.dayOffset)).size;
}

/**
 * The ephemeral preview of an accepted move order; `extra` warnings follow the rules' own. A
 * forced march over several days warns of fatigue only where the army owes rest (tireless troops
 * under ACKS force-march without penalty).
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
    ...(o.forced && marchDays(plan) > 1 && !owesNoRest(army, profile) ? [`⚠ Forced march over several days: from ${plan.steps[0]?.dayOffset === 0 ? 'tomorrow' : 'the day after its first day of march'} the army marches fatigued (${fatigueCost(profile)}), as the preview counts, until ${fatigueEnds(profile)}.`] : []),
    ...extra.map((w) => `⚠ ${w}`),
    'Order stored: it is carried out when the half periods are played. `/hold` cancels it.',
  ];
  return lines.join('\n');
}
