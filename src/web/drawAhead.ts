import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { App } from '../app/app.js';
import type { WebSession } from '../app/web/webAccess.js';
import type { CampaignWatch } from './campaignWatch.js';
import type { DrawAt } from './tiles.js';

/**
 * Readers' first views drawn ahead (issue 28: the first visit after a tick serves a stored view).
 * Whose: the readers who opened their page (`/c/:id`) in the last RECENT_MS, remembered in
 * `readers-<store>.json` beside the stored views (so a restarted process keeps drawing for them;
 * one file per database, as the folder may be shared: RENDER_CACHE_DIR), at most
 * MAX_READERS (the longest unseen go). When: as the server's CampaignWatch (campaignWatch.ts)
 * tells that one of their campaigns moved: at once when this process commits a write that saves
 * it (a tick, mostly), and, for ticks played by another process (another shard, another machine),
 * at the watch's next round (every 2 s), which reads all the watched campaigns in ONE statement
 * with the open pages' (none when there is no reader and no open page). For a campaign whose
 * revision moved, each of its readers' first view is asked for as their page would ask (`first`):
 * a view whose reader-visible key is unchanged (a change out of their sight) is already kept and
 * costs nothing; a new one is drawn, scaled and stored (storedViews.ts), one reader after
 * another, so a tick's drawing never takes every render thread at once.
 *
 * This is the web transport drawing its own pictures after the commit, as the Discord transport
 * draws a message's pictures when it sends it: the tick's transaction and what it stores are
 * untouched.
 */
const RECENT_MS = 7 * 24 * 3600_000;
const MAX_READERS = 500;
/** A reader's last visit is written down again only when the one kept is older than this. */
const SEEN_AGAIN_MS = 3600_000;

interface Deps {
  readonly app: App;
  /** Where the readers file goes (the stored views' folder); none: readers are remembered in memory only. */
  readonly dir: string | undefined;
  /** A reader's first view: its key and how to draw it, or undefined when the page is no longer theirs. */
  readonly viewOf: (s: WebSession) => { key: string; draw: DrawAt } | undefined;
  /** Makes (or finds kept) a first view, storing it when made (TileCache.first). */
  readonly first: (key: string, draw: DrawAt) => Promise<unknown>;
}

/** A short name of the database (a hash of its file's path, or of its URL without the password). */
function storeName(app: App): string {
  const db = app.db;
  let where: string;
  if (db.dialect === 'postgres') {
    const url = new URL(db.bridge.url);
    url.password = '';
    where = url.toString();
  } else {
    where = resolve(db.sqlite.name);
  }
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

const readerKey = (s: WebSession): string => `${s.campaignId}\n${s.userId}`;

export class DrawAhead {
  /** Reader (campaign, user) to the time of their last visit (ms). */
  private readonly readers = new Map<string, number>();
  /** The stored revision each readers' campaign had when last drawn for (undefined: gone). */
  private readonly revisions = new Map<string, number | undefined>();
  private queue: Promise<void> = Promise.resolve();
  private readonly unwatch: () => void;
  private readonly stopListening: () => void;

  constructor(private readonly deps: Deps, watch: CampaignWatch) {
    this.load();
    this.unwatch = watch.watch(() => this.campaigns());
    this.stopListening = watch.onMoved((campaignId, revision) => this.moved(campaignId, revision, this.readersOf(campaignId)));
  }

  private get file(): string | undefined {
    return this.deps.dir === undefined ? undefined : join(this.deps.dir, `readers-${storeName(this.deps.app)}.json`);
  }

  /** A reader opened their page: their first view is drawn ahead from now on, while they keep coming back. */
  seen(s: WebSession): void {
    const now = this.deps.app.clock.now().getTime();
    const key = readerKey(s);
    const last = this.readers.get(key);
    this.readers.delete(key);
    this.readers.set(key, now);
    while (this.readers.size > MAX_READERS) this.readers.delete(this.readers.keys().next().value as string);
    if (last === undefined || now - last > SEEN_AGAIN_MS) this.save();
  }

  /** The campaigns of the recent readers (those unseen for RECENT_MS are forgotten): the watch reads them at each round. */
  private campaigns(): Set<string> {
    const now = this.deps.app.clock.now().getTime();
    const ids = new Set<string>();
    for (const [key, at] of this.readers) {
      if (now - at > RECENT_MS) this.readers.delete(key);
      else ids.add(key.split('\n')[0] as string);
    }
    if (this.revisions.size > 4 * MAX_READERS) this.revisions.clear();
    return ids;
  }

  /** The users reading a campaign's page lately. */
  private readersOf(campaignId: string): string[] {
    return [...this.readers.keys()].flatMap((key) => {
      const [c, userId] = key.split('\n') as [string, string];
      return c === campaignId ? [userId] : [];
    });
  }

  /** A campaign is at `revision` now: its readers' first views are queued to be drawn when it moved. */
  private moved(campaignId: string, revision: number | undefined, users: readonly string[]): void {
    if (users.length === 0) return;
    if (this.revisions.has(campaignId) && this.revisions.get(campaignId) === revision) return;
    this.revisions.set(campaignId, revision);
    if (revision === undefined) return;
    for (const userId of users) this.queue = this.queue.then(() => this.drawFor({ campaignId, userId }));
  }

  /** Resolves once every view asked for so far is drawn (or failed). */
  drawn(): Promise<void> {
    return this.queue;
  }

  close(): void {
    this.stopListening();
    this.unwatch();
  }

  private async drawFor(s: WebSession): Promise<void> {
    try {
      const view = this.deps.viewOf(s);
      if (!view) {
        this.readers.delete(readerKey(s));
        return;
      }
      await this.deps.first(view.key, view.draw);
    } catch (err) {
      this.deps.app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web page: drawing a reader\'s first view ahead failed; their next visit draws it');
    }
  }

  private load(): void {
    const file = this.file;
    if (file === undefined) return;
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (!kept || typeof kept !== 'object') return;
      for (const [key, at] of Object.entries(kept)) if (typeof at === 'number' && key.includes('\n')) this.readers.set(key, at);
    } catch {
      // None yet, or unreadable: readers are learned again as they come.
    }
  }

  /** Written to a temporary file, then renamed. A failure only costs a reader their views drawn ahead until they come again. */
  private save(): void {
    const file = this.file;
    if (file === undefined || this.deps.dir === undefined) return;
    try {
      mkdirSync(this.deps.dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.readers)));
      renameSync(tmp, file);
    } catch {
      // Only a hint.
    }
  }
}
