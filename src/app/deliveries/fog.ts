import { byId } from '../../engine/state/index.js';
import { REFEREE, toArmy, type EngineEvent } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { channelMayRead, OPEN, places, type Subject } from './audience.js';

/**
 * What the channel still hears in fog of war: the time, the weather, the dice, and the campaign's
 * own business. Everything else the rules say in public (moves, contacts, avoidances, battles and
 * their briefings, fleets, referee placements...) would place an army on the map.
 */
const OPEN_IN_FOG: ReadonlySet<string> = new Set([
  'clockAdvanced', 'weatherRolled', 'rainLevelChanged', 'droughtChanged', 'droughtTookToll', 'weatherSet',
  'settingsChanged', 'campaignCreated', 'campaignStarted', 'campaignPaused', 'campaignResumed', 'commanderAssigned', 'commanderRemoved',
  'deadlineExtended', 'turnUndone', 'diceSeedRevealed', 'diceSeedCommitted', 'campaignEnded', 'diceSecretRevealed',
]);

/** The armies an event's data names (any string in it that is an army id, however deep). */
function armiesNamed(data: unknown, state: CampaignState, found: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 6) return found;
  if (typeof data === 'string') {
    if (byId(state.armies, data)) found.add(data);
  } else if (Array.isArray(data)) {
    for (const x of data) armiesNamed(x, state, found, depth + 1);
  } else if (typeof data === 'object' && data !== null) {
    for (const x of Object.values(data)) armiesNamed(x, state, found, depth + 1);
  }
  return found;
}

/**
 * Events as fog of war lets them out: a public event that would place an army goes instead to the
 * commanders of the armies it names (who were there), or to the referee when it names none; the
 * rest is unchanged. With positions public, nothing changes. Applied both to what is logged and
 * to what is delivered, so the log's public part (the public campaign book) holds no position
 * either. @see docs/rulings.md (Fog of war)
 */
export function fogged(state: CampaignState, events: readonly EngineEvent[]): EngineEvent[] {
  // The channel reads an event that places armies when it may read one placing none (positions
  // public: mayRead lets every such event through), so no event's armies need looking up (a tick
  // of 800 armies logs thousands of events, and this runs for the log and for the deliveries).
  if (channelMayRead(state.settings, places([]))) return [...events];
  return events.flatMap((e) => {
    if (e.audience.kind !== 'public' || channelMayRead(state.settings, publicSubject(state, e))) return [e];
    const named = [...armiesNamed(e.data, state)];
    return named.length > 0 ? named.map((id) => ({ ...e, audience: toArmy(id) })) : [{ ...e, audience: REFEREE }];
  });
}

/** What a public event tells: nothing secret, or where the armies it names are. */
function publicSubject(state: CampaignState, e: EngineEvent): Subject {
  return OPEN_IN_FOG.has(e.type) ? OPEN : places([...armiesNamed(e.data, state)]);
}
