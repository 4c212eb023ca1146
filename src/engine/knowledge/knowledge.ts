import { timeIndex } from '../clock/index.js';
import type { Army } from '../forces/index.js';
import { hexDistance } from '../hex/index.js';
import { type CampaignState, isOpen, type KnowledgeState, type Sighting, type Sightings } from '../state/index.js';

/**
 * What each army knows of where the others are, for fog of war (the referee's `positions:fog`).
 * A side always knows where its own armies stand; another side's army is known where one of the
 * viewer's armies last saw it (next to it, or in a contact with it), where a courier's report
 * placed it, or where it stood when fog fell (the last public positions). With positions public
 * (the Valormr default: moves are overt) every army is known where it is.
 * @see RULINGS 6 Secrets; docs/rulings.md (Fog of war)
 */

export const NO_KNOWLEDGE: KnowledgeState = { armies: {}, reports: {} };

export function isFog(state: Pick<CampaignState, 'settings'>): boolean {
  return state.settings.positions === 'fog';
}

const live = (state: CampaignState): Army[] => Object.values(state.armies).filter((a) => !a.status.destroyed);

/** Whether `viewer` sees `target` now: next to it (or in its hex), or in one open contact with it. */
function inSight(state: CampaignState, viewer: Army, target: Army): boolean {
  if (hexDistance(viewer.hex, target.hex) <= 1) return true;
  return Object.values(state.contacts).some((c) => isOpen(c) && c.armyIds.includes(viewer.id) && c.armyIds.includes(target.id));
}

/** The other sides' armies this army sees now. */
export function sightedNow(state: CampaignState, viewerId: string): Sightings {
  const viewer = state.armies[viewerId];
  if (!viewer || viewer.status.destroyed) return {};
  const out: Record<string, Sighting> = {};
  for (const t of live(state)) {
    if (t.side === viewer.side || !inSight(state, viewer, t)) continue;
    out[t.id] = { hex: { q: t.hex.q, r: t.hex.r }, at: state.clock, how: 'contact' };
  }
  return out;
}

/** Two sets of sightings, the later of each army's kept (on a tie, what was seen beats what was told). */
export function mergeSightings(a: Sightings, b: Sightings): Sightings {
  const out: Record<string, Sighting> = { ...a };
  for (const [id, s] of Object.entries(b)) {
    const had = out[id];
    const newer = !had || timeIndex(s.at) > timeIndex(had.at) || (timeIndex(s.at) === timeIndex(had.at) && had.how !== 'contact' && s.how === 'contact');
    if (newer) out[id] = s;
  }
  return out;
}

/**
 * Where the viewer armies know the other sides' armies to be: with positions public, where they
 * are; in fog, their memories and what they see now, the latest of each. Armies of the viewers'
 * own sides are not listed (a side knows where its armies stand). In fog an army destroyed out of
 * the viewers' sight is still remembered where they last knew it, like one that marched away
 * unseen: they do not know it is gone.
 */
export function knownPositions(state: CampaignState, viewerIds: readonly string[]): Sightings {
  const sides = new Set(viewerIds.flatMap((id) => (state.armies[id] ? [state.armies[id].side] : [])));
  if (!isFog(state)) {
    const others = live(state).filter((a) => !sides.has(a.side) && !viewerIds.includes(a.id));
    return Object.fromEntries(others.map((a) => [a.id, { hex: { q: a.hex.q, r: a.hex.r }, at: state.clock, how: 'public' as const }]));
  }
  let known: Sightings = {};
  for (const id of viewerIds) known = mergeSightings(mergeSightings(known, state.knowledge.armies[id] ?? {}), sightedNow(state, id));
  return Object.fromEntries(Object.entries(known).filter(([id]) => { const a = state.armies[id]; return a !== undefined && !sides.has(a.side) && !viewerIds.includes(id); }));
}

/**
 * Whether the viewers know `armyId` is destroyed: an army of their own sides, as it is; another
 * side's army, only with positions public (in fog of war its end is told to its own side).
 */
export function knownDestroyed(state: CampaignState, viewerIds: readonly string[], armyId: string): boolean {
  const a = state.armies[armyId];
  if (!a?.status.destroyed) return false;
  if (!isFog(state) || viewerIds.includes(armyId)) return true;
  return viewerIds.some((id) => state.armies[id]?.side === a.side);
}

/** Fog falls: every army remembers the other sides' armies where they stand now (the last public positions). */
export function fogFalls(state: CampaignState): KnowledgeState {
  const armies: Record<string, Sightings> = {};
  const all = live(state);
  for (const v of all) {
    armies[v.id] = Object.fromEntries(all.filter((t) => t.side !== v.side).map((t) => [t.id, { hex: { q: t.hex.q, r: t.hex.r }, at: state.clock, how: 'public' as const }]));
  }
  return { armies, reports: {} };
}

/** A courier leaves (fog of war): it carries what its sender knows now, for its recipient. */
export function withCourierReport(state: CampaignState, courierId: string, fromArmy: string): KnowledgeState {
  if (!isFog(state)) return state.knowledge;
  return { ...state.knowledge, reports: { ...state.knowledge.reports, [courierId]: knownPositions(state, [fromArmy]) } };
}

/**
 * The campaign as these armies know it, for planning their orders: their own sides' armies where
 * they stand, another side's army where the viewers know it to be (in fog of war, where they last
 * saw or were told of it; an army they know nothing of is not on their map). With positions
 * public, the state itself. Nothing planned on it depends on where an unseen army truly is.
 */
export function stateAsKnown(state: CampaignState, viewerIds: readonly string[]): CampaignState {
  if (!isFog(state)) return state;
  const sides = new Set(viewerIds.flatMap((id) => (state.armies[id] ? [state.armies[id].side] : [])));
  const known = knownPositions(state, viewerIds);
  const armies = Object.fromEntries(Object.values(state.armies).flatMap((a) => {
    if (sides.has(a.side) || viewerIds.includes(a.id)) return [[a.id, a]];
    const seen = known[a.id];
    // An army destroyed unseen stands, for them, where they last knew it.
    return seen ? [[a.id, { ...a, hex: seen.hex, status: { ...a.status, destroyed: false } }]] : [];
  }));
  return { ...state, armies };
}
