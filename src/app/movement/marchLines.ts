import type { Army } from '../../engine/forces/index.js';
import type { MapModel } from '../../engine/map/index.js';
import { fatigueRecovery, marchStatus, type MarchStatus } from '../../engine/movement/index.js';
import { movementProfile } from '../../engine/profiles/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { currentEffects } from '../weather/currentEffects.js';

/**
 * The movement part of `/army status`: march formation, points today and saved, fatigue and why,
 * days marched, rest state, stragglers and any crossing in progress. Private to the army's
 * commander.
 */
export function movementStatus(state: CampaignState, map: MapModel, army: Army): { lines: string[]; data: MarchStatus } {
  const order = state.orders[army.id];
  const profile = movementProfile(state.settings);
  // Today's points are a forced march's while the order is one, and for the rest of a day the army force-marched (its order done).
  const forced = (order?.kind === 'move' && order.forced) || army.march.forcedMarchDay === state.clock.day;
  const s = marchStatus(map, army, currentEffects(state), profile, state.clock.day, forced);
  const lines = [
    `March formation: ${s.marchFormationText}; ${s.formation}.`,
    `Points today: ${s.pointsLeft} of ${s.pointsToday} left${s.savedPoints > 0 ? ` (${s.savedPoints} saved from yesterday)` : ''}.`,
    s.fatigued ? `Fatigued: ${s.fatigueReason ?? 'no reason recorded'}. ${fatigueRecovery(profile, army)}` : 'Not fatigued.',
    `Rest: ${s.restState}.`,
    ...(s.size ? [`Size: ${s.size.brigades} brigade(s), ${s.size.multiplier === '1/1' ? 'full speed' : `speed x${s.size.multiplier}`}; column ${s.size.columnMiles} mile(s) on the march${s.size.onRoad ? ' along the road' : ''}.`] : []),
    ...(s.warMachines ? [`War machines: ${s.warMachines}.`] : []),
    ...(s.stragglers > 0 ? [`Stragglers: ${s.stragglers} figure(s) behind${s.rallyPoint ? `, rallying at ${s.rallyPoint}` : ''}; moving off loses them.`] : []),
    ...(s.operation ? [`Crossing: ${s.operation}.`] : []),
  ];
  return { lines, data: s };
}
