import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { readTransaction } from '../../db/client.js';
import { eventsJsonAfter } from '../../db/eventRepo.js';
import { journalTextBetween, type JournalText } from '../../db/journalRepo.js';
import { privateFolder, readCacheFile, sourcesVersion, writeCacheFile } from '../../cacheFile.js';
import type { App } from '../app.js';
import type { CampaignTx } from '../campaignTx.js';
import { entryLines, eventLines, eventsGenesis, exportEnd, headLine, journalEnd, journalGenesis, type Lines } from '../journal/replayFile.js';

/*
 * `/campaign export` of a long campaign, built from closed parts (issue 25: a season's export in
 * under 100 ms, never one long synchronous block). The journal and the log only grow: journal
 * entries are never changed once written, and an event is final once no `/turn undo` can withdraw
 * it. The export's hash chains start from the campaign, not from the head (replayFile.ts, version
 * 5), so a closed part of the journal (PART_SIZES.journal entries with at least one after them) or of
 * the log (PART_SIZES.events final events with one after them) has the same bytes in every export. Each
 * closed part is compressed once, as a gzip member, and kept in a file beside the database
 * (`<layers>/exports/`); gzip members concatenated are one gzip stream, so an export is its head,
 * the closed parts as kept, and the open tail compressed now.
 *
 * A kept part is used only when it is the one this export needs: its header names the code
 * version, the campaign, the part, whether the campaign had ended (the seeds shown or withheld),
 * the chain value it starts from (the end of the part before it, so a part rebuilt rebuilds those
 * after it), the digest of its body, and the digest of its last row's text as stored: that row is
 * read again from the database and must be the same. The journal and the log only grow, so a
 * database restored from a backup, or another database with the same campaign, differs from the
 * kept part by its last rows at the latest. Anything else (missing, cut short, damaged, another
 * version) is built again from the database, and kept for the next export.
 */

/** How many journal entries and events make a closed part (a change of either is another part: named in the header). */
export interface PartSizes {
  readonly journal: number;
  readonly events: number;
}

/** A season of 1,200 half periods is ~33,000 entries and ~84,000 events: ~65 parts, an open tail under ~1 MB. */
const PART_SIZES: PartSizes = { journal: 512, events: 2048 };

const gzipAsync = promisify(gzip);
const MAGIC = Buffer.from('VLMREXP1');
const VERSION = sourcesVersion('export parts 1', [
  new URL('./exportChunks.ts', import.meta.url), new URL('../journal/replayFile.ts', import.meta.url),
  new URL('../../db/eventRepo.ts', import.meta.url), new URL('../../db/journalRepo.ts', import.meta.url),
]);

const folders = new WeakMap<App, { readonly dir: string | undefined; readonly sizes: PartSizes }>();

/**
 * Keeps the app's closed export parts in `dir` (createApp: `<layers>/exports`); without it every
 * part is built at each export. The parts hold the whole log, secrets included: they are kept only
 * in a folder of this user's own, readable by no one else (`privateFolder`); otherwise none is kept.
 */
export function keepExportPartsIn(app: App, dir: string, sizes: PartSizes = PART_SIZES): void {
  folders.set(app, { dir: privateFolder(dir) ? dir : undefined, sizes });
}

const sizesOf = (app: App): PartSizes => folders.get(app)?.sizes ?? PART_SIZES;

/** More rows than any campaign has (a PostgreSQL integer's largest value). */
const ALL = 2_147_483_647;

const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** What the export's one read transaction gives: the head, the open tail, and how many closed parts come before it. */
export interface ExportPlan {
  readonly sizes: PartSizes;
  readonly campaignId: string;
  readonly ended: boolean;
  readonly head: Record<string, unknown> & { readonly meta: { readonly id: string } };
  /** The closed contacts' JSON array, as stored (headLine). */
  readonly closedContacts: string;
  readonly entries: number;
  readonly journalParts: number;
  readonly journalTail: readonly JournalText[];
  readonly events: number;
  readonly eventParts: number;
  readonly eventsTail: readonly string[];
}

/**
 * The plan of an export, read inside its transaction: the head, the number of journal entries and
 * of events, and the rows of the open tail (the entries after the closed parts, the events after
 * the closed parts: read here, so that they are of the same moment as the state).
 */
export function exportPlan(app: App, tx: CampaignTx, head: ExportPlan['head'], closedContacts: string): ExportPlan {
  const sizes = sizesOf(app);
  const entries = tx.read.journalLength();
  const journalParts = entries === 0 ? 0 : Math.floor((entries - 1) / sizes.journal);
  const events = tx.read.eventCount();
  const final = tx.read.finalEventsUpTo();
  const finalCount = final === undefined ? events : tx.read.eventCount(final);
  const eventParts = Math.max(0, Math.floor(Math.min(finalCount, events - 1) / sizes.events));
  const tailAfter = eventParts === 0 ? 0 : tx.read.eventIdAt(eventParts * sizes.events - 1) ?? 0;
  return {
    sizes,
    campaignId: tx.meta.id,
    ended: tx.state.status === 'ended',
    head,
    closedContacts,
    entries,
    journalParts,
    journalTail: tx.read.journalBetween(journalParts * sizes.journal, entries - 1),
    events,
    eventParts,
    eventsTail: tx.read.eventsAfter(tailAfter, ALL).map((e) => e.json),
  };
}

/** A closed part as kept: its gzip member, its text's length, the chain values around it and what it was built from. */
interface Part {
  readonly member: Buffer;
  readonly bytes: number;
  readonly h: string;
  /** The events part's last event id (where the next part starts reading). */
  readonly lastId: number;
}

/** The export as gzip members (concatenated: one gzip stream of the export's text), and the text's length. */
export interface BuiltExport {
  readonly members: readonly Buffer[];
  readonly bytes: number;
  /** Closed parts taken as kept, and built now. */
  readonly kept: number;
  readonly built: number;
}

/**
 * The export from its plan: the head and the open tail compressed now, each closed part taken as
 * kept or built (read in its own short read transaction: closed parts never change) and kept. Each
 * part is compressed on zlib's threads, so the event loop is free between parts.
 */
export async function buildExport(app: App, plan: ExportPlan): Promise<BuiltExport> {
  const members: Buffer[] = [];
  let bytes = 0;
  let kept = 0;
  let built = 0;
  const add = async (text: string): Promise<void> => {
    members.push(await gzipAsync(text, { level: 6 }));
    bytes += Buffer.byteLength(text);
  };
  const take = (part: Part, wasKept: boolean): void => {
    members.push(part.member);
    bytes += part.bytes;
    if (wasKept) kept++;
    else built++;
  };
  const first = headLine(plan.head, plan.closedContacts, plan.entries, plan.events);
  await add(first);
  let h = journalGenesis(plan.campaignId);
  for (let k = 0; k < plan.journalParts; k++) {
    const from = k * plan.sizes.journal;
    const to = from + plan.sizes.journal - 1;
    const found = keptPart(app, plan, 'journal', k, h, () => journalTextBetween(app.db, plan.campaignId, to, to)[0]);
    const part = found ?? await buildPart(app, plan, 'journal', k, h, () => {
      const rows = journalTextBetween(app.db, plan.campaignId, from, to);
      if (rows.length !== plan.sizes.journal) throw new Error(`broken data: the journal of ${plan.campaignId} lost entries ${from}-${to} while it was exported`);
      const last = rows.at(-1);
      return { lines: entryLines(rows, plan.ended, h, false), last: last === undefined ? '' : rowText(last), lastId: to };
    });
    take(part, found !== undefined);
    h = part.h;
  }
  const journal = entryLines(plan.journalTail, plan.ended, h, true);
  let e = eventsGenesis(plan.campaignId);
  let afterId = 0;
  const middle: string[] = [journal.text, journalEnd(plan.entries, journal.h, first)];
  await add(middle.join(''));
  for (let k = 0; k < plan.eventParts; k++) {
    const from = afterId;
    const found = keptPart(app, plan, 'events', k, e, (lastId) => eventsJsonAfter(app.db, plan.campaignId, lastId - 1, 1).find((x) => x.id === lastId)?.json);
    const part = found ?? await buildPart(app, plan, 'events', k, e, () => {
      const rows = eventsJsonAfter(app.db, plan.campaignId, from, plan.sizes.events);
      if (rows.length !== plan.sizes.events) throw new Error(`broken data: the log of ${plan.campaignId} lost events after ${from} while it was exported`);
      const last = rows.at(-1);
      return { lines: eventLines(rows.map((r) => r.json), e, false), last: last?.json ?? '', lastId: last?.id ?? from };
    });
    take(part, found !== undefined);
    e = part.h;
    afterId = part.lastId;
  }
  const tail = eventLines(plan.eventsTail, e, true);
  await add(`${tail.text}${exportEnd(plan.events, tail.h)}`);
  return { members, bytes, kept, built };
}

type PartKind = 'journal' | 'events';

/** What a kept part's header says. */
interface PartHeader {
  readonly version: string;
  readonly size: number;
  readonly campaignId: string;
  readonly kind: PartKind;
  readonly index: number;
  readonly ended: boolean;
  readonly from: string;
  readonly h: string;
  readonly bytes: number;
  readonly lastId: number;
  readonly last: string;
  readonly body: string;
}

/** A campaign id the bot made (createCampaign: hex); any other (an imported file's) gets no kept parts, so no id can name a path. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

const partPath = (dir: string, campaignId: string, kind: PartKind, index: number, ended: boolean): string => join(dir, campaignId, `${kind}-${index}${ended ? '-ended' : ''}.gz`);

/** A journal row's text as stored (what the kept part's last row is checked against). */
const rowText = (row: JournalText): string => JSON.stringify(row);

/**
 * The kept part `index` if it is the one this export needs (header, body digest, the chain value it
 * starts from, and its last row as the database holds it now: `lastRow(lastId)`), else undefined.
 */
function keptPart(app: App, plan: ExportPlan, kind: PartKind, index: number, from: string, lastRow: (lastId: number) => JournalText | string | undefined): Part | undefined {
  const dir = folders.get(app)?.dir;
  if (dir === undefined || !SAFE_ID.test(plan.campaignId)) return undefined;
  const file = readCacheFile(partPath(dir, plan.campaignId, kind, index, plan.ended), MAGIC);
  if (file === undefined) return undefined;
  const header = file.header as Partial<PartHeader>;
  if (header.version !== VERSION || header.size !== plan.sizes[kind] || header.campaignId !== plan.campaignId || header.kind !== kind || header.index !== index || header.ended !== plan.ended || header.from !== from) return undefined;
  if (typeof header.h !== 'string' || typeof header.bytes !== 'number' || typeof header.lastId !== 'number' || typeof header.last !== 'string' || header.body !== sha(file.body)) return undefined;
  const row = readTransaction(app.db, () => lastRow(header.lastId ?? 0));
  if (row === undefined || sha(typeof row === 'string' ? row : rowText(row)) !== header.last) return undefined;
  return { member: file.body, bytes: header.bytes, h: header.h, lastId: header.lastId };
}

/** Builds closed part `index` from the database (one short read transaction), compresses it (zlib's threads) and keeps it. */
async function buildPart(app: App, plan: ExportPlan, kind: PartKind, index: number, from: string, read: () => { lines: Lines; last: string; lastId: number }): Promise<Part> {
  const { lines, last, lastId } = readTransaction(app.db, read);
  const member = await gzipAsync(lines.text, { level: 9 });
  const bytes = Buffer.byteLength(lines.text);
  const dir = folders.get(app)?.dir;
  if (dir !== undefined && SAFE_ID.test(plan.campaignId)) {
    const header: PartHeader = { version: VERSION, size: plan.sizes[kind], campaignId: plan.campaignId, kind, index, ended: plan.ended, from, h: lines.h, bytes, lastId, last: sha(last), body: sha(member) };
    writeCacheFile(partPath(dir, plan.campaignId, kind, index, plan.ended), MAGIC, header, member);
  }
  return { member, bytes, h: lines.h, lastId };
}
