import type { CommanderKnowledge } from '../../engine/views/index.js';
import type { CampaignTx } from '../session.js';

/** What the viewer's armies know privately, for their own map view. */
export function commanderKnowledge(_tx: CampaignTx, _armyIds: readonly string[]): CommanderKnowledge {
  return {};
}
