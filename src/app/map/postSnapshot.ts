import type { App } from '../app.js';

/**
 * Renders the public map of a campaign and queues it for the channel. Rendering is asynchronous,
 * so it runs after the tick's transaction has committed; a failed render is logged and skipped
 * (the chronicle is already queued).
 */
export async function postSnapshot(app: App, campaignId: string, caption: string): Promise<void> {
  app.logger.debug({ campaignId, caption }, 'snapshot rendering not wired yet');
}
