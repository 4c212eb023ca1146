import type { CampaignState } from '../../engine/state/campaign.js';
import type { MessageFile } from '../messages.js';
import type { CampaignTx } from '../session.js';

/**
 * The public map snapshot posted with each tick's chronicle. Rendering is asynchronous and the
 * transaction is not, so the tick queues the chronicle and the renderer attaches the image at
 * delivery time (see delivery.ts); nothing is drawn here.
 */
export function snapshotFiles(_tx: CampaignTx, _state: CampaignState): MessageFile[] {
  return [];
}
