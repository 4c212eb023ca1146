import { HALF_PERIODS, type GameTime } from '../../engine/clock/index.js';
import { planMove } from '../../engine/movement/index.js';
import { stateAsKnown } from '../../engine/knowledge/index.js';
import { estimateFromContact, type ArmyEstimate, type CommanderKnowledge } from '../../engine/views/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { contactOrd } from '../../db/contactEstimateRepo.js';
import { voyageSchedule } from '../water/voyage.js';
import { currentEffects } from '../weather/currentEffects.js';

/**
 * What the viewer's armies know privately, for their own map view: the latest estimate of each
 * enemy they have met (marked as an estimate), and the half period in which each step of their
 * standing move orders will be entered, from the movement rules' own preview (for a voyage, the
 * water rules' preview, as `/sail` showed it).
 */
export function commanderKnowledge(tx: CampaignTx, armyIds: readonly string[]): CommanderKnowledge {
  const latest = new Map<string, ArmyEstimate>();
  for (const armyId of armyIds) {
    for (const e of newestEstimates(tx, armyId)) if (!armyIds.includes(e.targetId)) latest.set(e.targetId, estimateFromContact(e));
  }
  const stepTimes: Record<string, GameTime[]> = {};
  const weather = currentEffects(tx.state);
  for (const armyId of armyIds) {
    const order = tx.state.orders[armyId];
    // A voyage: the same schedule as the /sail preview.
    const voyage = voyageSchedule(tx, armyId);
    if (voyage) stepTimes[armyId] = [...voyage.times];
    if (order?.kind !== 'move' || order.path.length === 0) continue;
    // Planned as the army knows the map (fog of war): where its march goes must not depend on unseen armies.
    const plan = planMove(stateAsKnown(tx.state, [armyId]), tx.map, weather, armyId, {
      path: order.path, period: order.period, forced: order.forced, unformed: order.unformed, save: order.save, crossAtEnd: order.crossAtEnd ?? false,
    });
    if (!plan.ok) continue;
    stepTimes[armyId] = plan.value.steps.map((s) => ({ day: tx.state.clock.day + s.dayOffset, half: HALF_PERIODS.indexOf(s.half) as GameTime['half'] }));
  }
  return { estimates: [...latest.values()], stepTimes };
}

type Estimate = ReturnType<CampaignTx['read']['closedEstimates']>[number]['estimate'];

/**
 * The newest estimate the army made of each force it met, closed contacts (by index) and live ones
 * together, in the order the targets first appeared: what reading every contact record in order
 * and keeping the last estimate of each target gives, without reading a long campaign's records.
 */
function newestEstimates(tx: CampaignTx, armyId: string): Estimate[] {
  const seen = new Map<string, { first: number; last: number; estimate: Estimate }>();
  const meet = (targetId: string, first: number, last: number, estimate: Estimate): void => {
    const had = seen.get(targetId);
    if (!had) seen.set(targetId, { first, last, estimate });
    else seen.set(targetId, { first: Math.min(had.first, first), ...(last > had.last ? { last, estimate } : { last: had.last, estimate: had.estimate }) });
  };
  for (const c of tx.read.closedEstimates(armyId)) meet(c.targetId, c.first, c.last, c.estimate);
  for (const c of Object.values(tx.state.contacts)) {
    Object.values(c.data.estimates?.[armyId] ?? {}).forEach((e, place) => meet(e.targetId, contactOrd(c, place), contactOrd(c, place), e));
  }
  return [...seen.values()].sort((a, b) => a.first - b.first).map((s) => s.estimate);
}
