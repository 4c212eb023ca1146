import { formatGameTime, timeIndex } from '../clock/index.js';
import { knownPositions } from '../knowledge/index.js';
import type { CampaignState, SightingHow } from '../state/index.js';

/**
 * How a commander knows where an army they do not command is, on their own map in fog of war:
 * where it was seen (next to one of their armies, or in a contact), reported by a courier, or last
 * known when fog fell; and how old that is. A token seen this half period carries no age.
 * @see docs/rulings.md (Fog of war)
 */
export interface TokenSeen {
  readonly how: SightingHow;
  /** Half periods since: 0 is now. */
  readonly ageHalves: number;
  /** e.g. "seen Day 3, evening" (absent when seen now). */
  readonly label?: string;
}

const VERB: Readonly<Record<SightingHow, string>> = { contact: 'seen', courier: 'reported', public: 'last known' };

/** A token as the fog lets a viewer have it: where and how old, from what the viewer's armies know. */
export interface FogPlacement {
  readonly hex: { readonly q: number; readonly r: number };
  readonly seen: TokenSeen;
}

/**
 * Where each army the viewers do not command stands on their map in fog of war: their own side's
 * armies where they are; other sides' armies where the viewers last knew them, or not at all.
 */
export function fogPlacements(state: CampaignState, viewerIds: readonly string[]): ReadonlyMap<string, FogPlacement | 'here'> {
  const sides = new Set(viewerIds.flatMap((id) => { const a = state.armies[id]; return a ? [a.side] : []; }));
  const known = knownPositions(state, viewerIds);
  const now = timeIndex(state.clock);
  const out = new Map<string, FogPlacement | 'here'>();
  for (const a of Object.values(state.armies)) {
    if (viewerIds.includes(a.id) || sides.has(a.side)) {
      out.set(a.id, 'here');
      continue;
    }
    const s = known[a.id];
    if (!s) continue;
    const ageHalves = Math.max(0, now - timeIndex(s.at));
    out.set(a.id, { hex: { q: s.hex.q, r: s.hex.r }, seen: { how: s.how, ageHalves, ...(ageHalves > 0 ? { label: `${VERB[s.how]} ${formatGameTime(s.at)}` } : {}) } });
  }
  return out;
}
