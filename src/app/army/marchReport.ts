import type { Army } from '../../engine/forces/army.js';
import type { MapModel } from '../../engine/map/mapModel.js';
import type { CampaignState } from '../../engine/state/campaign.js';

/** Movement bookkeeping lines for /army status (points, rest, fatigue). */
export function marchLines(_state: CampaignState, _map: MapModel, army: Army): string[] {
  const m = army.march;
  return [
    `Points left today: ${m.pointsLeft}${m.savedPoints > 0 ? ` (+${m.savedPoints} saved)` : ''}. Days marched in a row: ${m.daysMarched}.`,
    ...(army.status.fatigued ? [`Fatigued${m.fatigueReason ? `: ${m.fatigueReason}` : ''}; a full day of rest recovers.`] : []),
  ];
}
