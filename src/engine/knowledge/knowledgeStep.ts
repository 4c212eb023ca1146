import type { CampaignState, KnowledgeState, Sighting, Sightings, TickStep } from '../state/index.js';
import { isFog, mergeSightings, sightedNow } from './knowledge.js';

/** A report as its recipient keeps it: each sighting told by the courier's sender. */
function told(report: Sightings, from: string, recipient: string): Sightings {
  return Object.fromEntries(Object.entries(report).filter(([id]) => id !== recipient).map(([id, s]): [string, Sighting] => [id, { ...s, how: 'courier', from }]));
}

/**
 * What the armies learned in a half period, in fog of war (the last step of a tick):
 * 1. each army remembers the other sides' armies it sees now (next to it, or in a contact);
 * 2. a courier that arrived hands its report to its recipient (a captured one, to its captor);
 *    a report whose courier is no longer on the road is dropped.
 * With positions public nothing is remembered: everyone sees everything.
 * @see docs/rulings.md (Fog of war)
 */
export function learn(state: CampaignState): KnowledgeState {
  if (!isFog(state)) return Object.keys(state.knowledge.reports).length === 0 ? state.knowledge : { ...state.knowledge, reports: {} };
  const armies: Record<string, Sightings> = { ...state.knowledge.armies };
  // 1. What each army sees now.
  for (const a of Object.values(state.armies)) {
    if (a.status.destroyed) continue;
    const seen = sightedNow(state, a.id);
    if (Object.keys(seen).length > 0) armies[a.id] = mergeSightings(armies[a.id] ?? {}, seen);
  }
  // 2. Reports delivered, captured, or lost.
  const reports: Record<string, Sightings> = {};
  for (const [courierId, report] of Object.entries(state.knowledge.reports)) {
    const c = state.couriers[courierId];
    if (c?.status === 'travelling') {
      reports[courierId] = report;
      continue;
    }
    const reader = c?.status === 'delivered' ? c.toArmy : c?.data.capturedBy;
    if (c && reader && state.armies[reader]) armies[reader] = mergeSightings(armies[reader] ?? {}, told(report, c.fromArmy, reader));
  }
  return { armies, reports };
}

export const knowledgeStep: TickStep<never> = ({ state }) => {
  const knowledge = learn(state);
  return { state: knowledge === state.knowledge ? state : { ...state, knowledge }, events: [] };
};
