import { knownPositions } from '../../engine/knowledge/index.js';
import { hexEquals } from '../../engine/hex/index.js';
import type { CampaignSettings, CampaignState } from '../../engine/state/index.js';

/**
 * Switching `positions:` once the campaign has started: what it will show and what stays hidden,
 * told to the referee before it applies (`positions:fog!` or `positions:public!` applies it). @see docs/rulings.md (Fog of war)
 */

/** The armies some other side does not see now where they truly are (fog of war). */
function unseenArmies(state: CampaignState): number {
  const live = Object.values(state.armies).filter((a) => !a.status.destroyed);
  const sides = [...new Set(live.map((a) => a.side))];
  const unseen = new Set<string>();
  for (const side of sides) {
    const known = knownPositions(state, live.filter((a) => a.side === side).map((a) => a.id));
    for (const a of live) {
      if (a.side === side) continue;
      const seen = known[a.id];
      if (!seen || !hexEquals(seen.hex, a.hex)) unseen.add(a.id);
    }
  }
  return unseen.size;
}

/** What the switch from the current setting to `to` will reveal and hide, in a few sentences; undefined when nothing switches. */
export function positionsSwitchPreview(state: CampaignState, to: CampaignSettings['positions']): string | undefined {
  if (state.settings.positions === to || state.status === 'setup') return undefined;
  if (to === 'public') {
    const n = unseenArmies(state);
    const armies = n === 1 ? '1 army stands' : `${n} armies stand`;
    return [
      '**Switching positions to public** shows every army where it truly stands, to everyone, from the next map on (and every march, contact and battle from then on goes to the channel).',
      `Now ${armies} where some other side does not see it: their maps will show it where it is.`,
      'It reveals nothing that fog hid until now: the chronicle, the books and the time-lapse of the fog half periods stay as they were shown, contact and courier ids given in fog stay, and the campaign\'s counters never counted what fog hid.',
      'Repeat it as `positions:public!` (confirmed) to apply it.',
    ].join('\n');
  }
  return [
    '**Switching positions to fog of war**: from now on each commander sees another side\'s army only where their own armies see it, and remembers the others where they stand now (the last public map).',
    'The channel then hears only the time, the weather, the dice and the campaign\'s business; marches, contacts and battles go to the commanders concerned. New contacts and couriers get ids derived from what their readers know. Nothing is revealed.',
    'Repeat it as `positions:fog!` (confirmed) to apply it.',
  ].join('\n');
}
