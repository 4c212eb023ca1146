import { countCampaigns } from '../db/campaignRepo.js';
import type { App } from './app.js';

/** How many campaigns the database holds, in all and by status (logged at start). */
export function campaignCounts(app: App): { readonly total: number; readonly byStatus: Readonly<Record<string, number>> } {
  const byStatus = countCampaigns(app.db);
  return { total: Object.values(byStatus).reduce((a, b) => a + b, 0), byStatus };
}
