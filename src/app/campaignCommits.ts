import type { App } from './app.js';

/**
 * Told of each campaign write this process commits that saved its state or deleted it (`inCampaign`,
 * src/app/unitOfWork.ts): the campaign and its new stored revision (undefined: deleted). For readers kept in
 * memory beside the store, e.g. the web page's first views drawn ahead after a tick
 * (src/web/drawAhead.ts), which so need not poll each campaign. Called after the transaction, with
 * nothing of it open; a listener only notes the change (it must not throw, and should not do its
 * work there: the command that committed is still running).
 */
export type CommitListener = (campaignId: string, revision: number | undefined) => void;

const listeners = new WeakMap<App['db'], Set<CommitListener>>();

/** Listens to the app's committed campaign writes; the returned function stops listening. */
export function onCampaignCommit(app: Pick<App, 'db'>, listener: CommitListener): () => void {
  let set = listeners.get(app.db);
  if (!set) {
    set = new Set();
    listeners.set(app.db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners that a write of `campaignId` committed (unitOfWork.ts only). A listener's failure is logged and never reaches the command. */
export function campaignCommitted(app: Pick<App, 'db' | 'logger'>, campaignId: string, revision: number | undefined): void {
  const set = listeners.get(app.db);
  if (!set) return;
  for (const listener of set) {
    try {
      listener(campaignId, revision);
    } catch (err) {
      app.logger.warn({ err: err instanceof Error ? err.message : String(err), campaignId }, 'a listener of committed campaign writes failed');
    }
  }
}
