import type { CampaignState } from '../../engine/state/index.js';
import { UserError } from '../errors.js';

/** An order to a campaign that has ended is refused (`campaign.ended`). */
export function requireNotEnded(state: CampaignState): void {
  if (state.status === 'ended') throw new UserError('campaign.ended', 'The campaign has ended: no more orders.');
}
