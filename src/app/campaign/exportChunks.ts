import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { readTransaction } from '../../db/client.js';
import { eventsJsonAfter } from '../../db/eventRepo.js';
import { journalTextBetween, type JournalText } from '../../db/journalRepo.js';
import { type CacheHeader, privateFolder, sourcesVersion, writeCacheFile } from '../../cacheFile.js';
import { forgetFiles, isLastRow, newKeptFiles, type KeptFiles, keptHeader as readKeptHeader, type Member, placeMembers } from './exportFiles.js';
import type { App } from '../app.js';
import { onCampaignCommit } from '../campaignCommits.js';
import type { CampaignTx } from '../campaignTx.js';
import { contactRuns, eachContactsRun } from './exportContacts.js';
import type { KeepState, OnPart } from './exportTypes.js';
import { entryLines, eventLines, eventsGenesis, exportEnd, headAround, journalEnd, journalGenesis, type Lines } from '../journal/replayFile.js';

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
  /** About how many closed contacts make a kept run of them (line 1's array; runs end at records whose id hashes to 0 modulo this). */
  readonly contacts?: number;
}

/**
 * A season of 1,200 half periods is ~33,000 entries and ~86,000 events: ~65 journal parts and ~167 of events, an open tail of
 * at most 511 entries and 511 final events (plus those an undo may still withdraw); ~1,900 closed contacts (3.8 MB): ~15 runs.
 * Parts of 512 events rather than 2,048: a reused export reads ~900 tail rows, not ~2,400 (220 vs 315 ms median, load 5-6),
 * for a file 0.85% larger compressed (more gzip members).
 */
const PART_SIZES: Required<PartSizes> = { journal: 512, events: 512, contacts: 128 };

const gzipAsync = promisify(gzip);
const MAGIC = Buffer.from('VLMREXP1');
const VERSION = sourcesVersion('export parts 2', [
  new URL('./exportChunks.ts', import.meta.url), new URL('./exportContacts.ts', import.meta.url), new URL('../journal/replayFile.ts', import.meta.url),
  new URL('../../db/eventRepo.ts', import.meta.url), new URL('../../db/journalRepo.ts', import.meta.url),
]);

interface Folder {
  readonly dir: string | undefined;
  readonly sizes: Required<PartSizes>;
  /** What the process knows of the kept files (their headers, which bodies were checked: exportFiles.ts). */
  readonly files: KeptFiles;
  /** What the background builder knows (exportKeep.ts): campaigns changed since it last looked, and what it found then. */
  readonly keep: KeepState;
  /** Stops listening for deleted and changed campaigns. */
  readonly stop: () => void;
}

const folders = new WeakMap<App, Folder>();

/**
 * Keeps the app's closed export parts in `dir` (createApp: `<layers>/exports`); without it every
 * part is built at each export. The parts hold the whole log, secrets included: they are kept only
 * in a folder of this user's own, readable by no one else (`privateFolder`); otherwise none is kept.
 */
export function keepExportPartsIn(app: App, dir: string, sizes: PartSizes = PART_SIZES): void {
  const own = privateFolder(dir) ? dir : undefined;
  const had = folders.get(app);
  const keep: KeepState = { dirty: new Set(), done: new Map(), swept: false, running: undefined };
  folders.set(app, { dir: own, sizes: { ...PART_SIZES, ...sizes }, files: newKeptFiles(), keep, stop: had?.stop ?? onCampaignCommit(app, (campaignId, revision) => {
    // A campaign deleted: its kept parts go too (after the command, off its path). A campaign
    // changed: the background builder looks at it again (exportKeep.ts).
    if (revision === undefined) setImmediate(() => forgetCampaign(app, campaignId));
    else folders.get(app)?.keep.dirty.add(campaignId);
  }) });
}

/** Where the app keeps export parts (none: undefined), their sizes, and the background builder's state. */
export function keptFolder(app: App): { readonly dir: string; readonly sizes: Required<PartSizes>; readonly keep: KeepState } | undefined {
  const folder = folders.get(app);
  return folder?.dir === undefined ? undefined : { dir: folder.dir, sizes: folder.sizes, keep: folder.keep };
}

/** Removes the kept parts of a campaign (deleted, or gone from the database: exportKeep.ts). */
export function forgetCampaign(app: App, campaignId: string): void {
  const dir = keptDir(app, campaignId);
  if (dir === undefined) return;
  const folder = folders.get(app);
  if (folder !== undefined) forgetFiles(folder.files, dir);
  folder?.keep.done.delete(campaignId);
  rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/** A kept file's header (exportFiles.ts `keptHeader`), with this app's memory of kept files. */
const keptHeader = (app: App, path: string): CacheHeader | undefined => readKeptHeader(folders.get(app)?.files, path, MAGIC);
const sizesOf = (app: App): Required<PartSizes> => folders.get(app)?.sizes ?? PART_SIZES;

/** The folder the app keeps the parts of `campaignId` in, if it keeps any (only for campaign ids the bot made). */
function keptDir(app: App, campaignId: string): string | undefined {
  const dir = folders.get(app)?.dir;
  return dir === undefined || !SAFE_ID.test(campaignId) ? undefined : join(dir, campaignId);
}

/** More rows than any campaign has (a PostgreSQL integer's largest value). */
const ALL = 2_147_483_647;

const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** A kept part's header, read in the plan's transaction; its body (the gzip member) is read after it (`readBodies`). */
interface KeptFile {
  readonly header: PartHeader;
  readonly path: string;
  readonly at: CacheHeader;
}

/** What the export's one read transaction gives: the head, the open tail, how many closed parts come before it, and the kept ones found good. */
export interface ExportPlan {
  readonly sizes: Required<PartSizes>;
  readonly campaignId: string;
  readonly ended: boolean;
  readonly head: Record<string, unknown> & { readonly meta: { readonly id: string } };
  /** The closed contacts (ids and stored texts as UTF-8 bytes), in the order the head writes them. */
  readonly closedContacts: readonly { readonly id: string; readonly data: Buffer }[];
  readonly entries: number;
  readonly journalParts: number;
  readonly journalTail: readonly JournalText[];
  readonly events: number;
  readonly eventParts: number;
  /** The last event of the closed parts (0: none), after which the open tail starts. */
  readonly tailAfter: number;
  readonly eventsTail: readonly string[];
  /** The kept parts whose last row the database holds as they kept it, checked in the plan's transaction (`journal-3`, `events-0`...): their headers only. */
  readonly kept: ReadonlyMap<string, KeptFile>;
}

/**
 * The plan of an export, read inside its transaction: the head, the number of journal entries and
 * of events, the rows of the open tail (read here, so that they are of the same moment as the
 * state), and the kept parts that are still the database's: their files read, and their last rows
 * read again in one query for the journal and one for the log. The events are counted from the
 * last good kept part on (it holds `(index + 1) * size` events up to its last one): only the rows
 * after it are counted.
 */
export function exportPlan(app: App, tx: CampaignTx, head: ExportPlan['head'], tails = true): ExportPlan {
  const sizes = sizesOf(app);
  const campaignId = tx.meta.id;
  const ended = tx.state.status === 'ended';
  const dir = keptDir(app, campaignId);
  const kept = new Map<string, KeptFile>();

  const entries = tx.read.journalLength();
  const journalParts = entries === 0 ? 0 : Math.floor((entries - 1) / sizes.journal);
  const journalFiles = dir === undefined ? [] : keptFiles(app, dir, campaignId, 'journal', ended, journalParts);
  const journalRows = new Map(tx.read.journalAt(journalFiles.map((f) => f.header.lastId)).map((r) => [r.seq, r]));
  for (const f of journalFiles) {
    const row = journalRows.get(f.header.lastId);
    if (f.header.lastId === (f.header.index + 1) * sizes.journal - 1 && row !== undefined && isLastRow(folders.get(app)?.files, f.path, f.header.last, row, rowText)) kept.set(`journal-${f.header.index}`, f);
  }

  const final = tx.read.finalEventsUpTo();
  const eventFiles = dir === undefined ? [] : keptFiles(app, dir, campaignId, 'events', ended, ALL).filter((f) => final === undefined || f.header.lastId <= final);
  const eventRows = new Map(tx.read.eventsAt(eventFiles.map((f) => f.header.lastId)).map((r) => [r.id, r]));
  let base = { count: 0, id: 0 };
  for (const f of eventFiles) {
    const row = eventRows.get(f.header.lastId);
    if (row === undefined || !isLastRow(folders.get(app)?.files, f.path, f.header.last, row, (json) => json)) continue;
    kept.set(`events-${f.header.index}`, f);
    base = { count: (f.header.index + 1) * sizes.events, id: f.header.lastId };
  }
  const events = base.count + tx.read.eventCountBetween(base.id);
  const finalCount = final === undefined ? events : base.count + tx.read.eventCountBetween(base.id, final);
  const eventParts = Math.max(0, Math.floor(Math.min(finalCount, events - 1) / sizes.events));
  const tailAfter = eventParts === 0 ? 0 : boundaryId(tx, kept, eventParts * sizes.events - 1, base, sizes.events) ?? 0;
  return {
    sizes,
    campaignId,
    ended,
    head,
    closedContacts: tails ? tx.read.closedContactBytes() : [],
    entries,
    journalParts,
    journalTail: tails ? tx.read.journalBetween(journalParts * sizes.journal, entries - 1) : [],
    events,
    eventParts,
    tailAfter,
    eventsTail: tails ? tx.read.eventsAfter(tailAfter, ALL).map((e) => e.json) : [],
    kept,
  };
}

/** The id of the event at place `index` (from 0): a good kept part's last, or counted on from the last good one, or (before it) from the first. */
function boundaryId(tx: CampaignTx, kept: ReadonlyMap<string, KeptFile>, index: number, base: { count: number; id: number }, size: number): number | undefined {
  if ((index + 1) % size === 0) {
    const part = kept.get(`events-${(index + 1) / size - 1}`);
    if (part !== undefined) return part.header.lastId;
  }
  return index >= base.count ? tx.read.eventIdAfter(base.id, index - base.count) : tx.read.eventIdAt(index);
}

/** A closed part as taken: its gzip member, its text's length, the chain value after it, and its last event's id (events). */
interface Part {
  readonly member: Member;
  readonly bytes: number;
  readonly h: string;
  readonly lastId: number;
}

/** The export as gzip members (concatenated: one gzip stream of the export's text), and the text's length. */
export interface BuiltExport {
  /** The members, one after the other in `packed`. */
  readonly members: readonly Buffer[];
  /** The whole gzip stream (the members as they lie in it: the kept ones were read into their place). */
  readonly packed: Buffer;
  readonly bytes: number;
  /** Closed parts (and runs of closed contacts) taken as kept, and built now. */
  readonly kept: number;
  readonly built: number;
}

/**
 * The export from its plan: the head and the open tail compressed now, each closed part taken as
 * kept or built (read in its own short read transaction: closed parts never change) and kept. Each
 * part is compressed on zlib's threads, so the event loop is free between parts. The kept parts'
 * bodies are read last, a slice between turns of the event loop, into their place in one buffer;
 * a body found damaged or changed since its header was read (`bad`: their files) is built again (the
 * export is built once more without it).
 */
export async function buildExport(app: App, plan: ExportPlan, bad: ReadonlySet<string> = new Set()): Promise<BuiltExport> {
  // The head and the open tail's pieces compressed side by side on zlib's threads, fast (level 1: ~4x less
  // CPU than 6 for ~45 kB more in a season's 10 MB; ~1.2 MB of text); the closed parts once, best.
  const members: (Member | Promise<Buffer>)[] = [];
  let [bytes, kept, built, pending] = [0, 0, 0, ''];
  const flush = (): void => {
    if (pending === '') return;
    const member = gzipAsync(pending, { level: 1 });
    member.catch(() => undefined); // Its failure is thrown where the members are awaited (below), not as an unhandled rejection meanwhile.
    members.push(member);
    bytes += Buffer.byteLength(pending);
    pending = '';
  };
  const take: OnPart = async (part, wasKept) => {
    flush();
    members.push(part.member);
    bytes += part.bytes;
    if (wasKept) kept++;
    else built++;
  };
  const dir = keptDir(app, plan.campaignId);

  // Line 1: the closed contacts' closed runs as kept (found by their text's digest), the rest compressed now.
  const { before, after } = headAround(plan.head, plan.entries, plan.events);
  const line = createHash('sha256').update(before).update('[');
  pending = `${before}[`;
  const runs = contactRuns(plan.closedContacts, plan.sizes.contacts);
  for (const run of runs.closed) line.update(run);
  if (dir === undefined) pending += Buffer.concat(runs.closed).toString('utf8');
  else await eachKeptContactsRun(app, plan.campaignId, runs.closed, bad, take);
  pending += `${runs.open}]${after}`;
  line.update(`${runs.open}]${after}`);
  const headDigest = line.digest('hex');

  const h = await eachJournalPart(app, plan, bad, take);
  const journal = entryLines(plan.journalTail, plan.ended, h, true);
  pending += `${journal.text}${journalEnd(plan.entries, journal.h, headDigest)}`;
  const { h: e, afterId } = await eachEventsPart(app, plan, bad, take);
  if (afterId !== plan.tailAfter) throw new Error(`broken data: the log of ${plan.campaignId} changed in its closed parts (they end at event ${afterId}, the open tail starts after ${plan.tailAfter})`);
  const tail = eventLines(plan.eventsTail, e, true);
  pending += `${tail.text}${exportEnd(plan.events, tail.h)}`;
  flush();
  const placed = await placeMembers(folders.get(app)?.files, await Promise.all(members));
  if ('bad' in placed) return buildExport(app, plan, new Set([...bad, ...placed.bad]));
  return { ...placed, bytes, kept, built };
}

/** Each closed run of line 1's closed contacts, taken as kept or built now and kept (exportContacts.ts `eachContactsRun`), if the app keeps parts. */
export async function eachKeptContactsRun(app: App, campaignId: string, runs: readonly Buffer[], bad: ReadonlySet<string>, onRun: OnPart): Promise<void> {
  const dir = keptDir(app, campaignId);
  if (dir !== undefined) await eachContactsRun({ read: (path) => keptHeader(app, path), version: VERSION, magic: MAGIC, dir, campaignId }, runs, bad, onRun);
}

/** Each closed part of the journal, in order, taken as kept (`chained`) or built now and kept; answers the chain value after the last. */
export async function eachJournalPart(app: App, plan: ExportPlan, bad: ReadonlySet<string>, onPart: OnPart): Promise<string> {
  let h = journalGenesis(plan.campaignId);
  for (let k = 0; k < plan.journalParts; k++) {
    const from = k * plan.sizes.journal;
    const to = from + plan.sizes.journal - 1;
    const found = chained(plan.kept.get(`journal-${k}`), bad, h);
    const part = found ?? await buildPart(app, plan, 'journal', k, h, () => {
      const rows = journalTextBetween(app.db, plan.campaignId, from, to);
      if (rows.length !== plan.sizes.journal) throw new Error(`broken data: the journal of ${plan.campaignId} lost entries ${from}-${to} while it was exported`);
      const last = rows.at(-1);
      return { lines: entryLines(rows, plan.ended, h, false), last: last === undefined ? '' : rowText(last), lastId: to };
    });
    await onPart(part, found !== undefined);
    h = part.h;
  }
  return h;
}

/** Each closed part of the log, in order, taken as kept (`chained`) or built now and kept; answers the chain value after the last, and its last event's id. */
export async function eachEventsPart(app: App, plan: ExportPlan, bad: ReadonlySet<string>, onPart: OnPart): Promise<{ h: string; afterId: number }> {
  let e = eventsGenesis(plan.campaignId);
  let afterId = 0;
  for (let k = 0; k < plan.eventParts; k++) {
    const from = afterId;
    const found = chained(plan.kept.get(`events-${k}`), bad, e);
    const part = found ?? await buildPart(app, plan, 'events', k, e, () => {
      const rows = eventsJsonAfter(app.db, plan.campaignId, from, plan.sizes.events);
      if (rows.length !== plan.sizes.events) throw new Error(`broken data: the log of ${plan.campaignId} lost events after ${from} while it was exported`);
      const last = rows.at(-1);
      return { lines: eventLines(rows.map((r) => r.json), e, false), last: last?.json ?? '', lastId: last?.id ?? from };
    });
    await onPart(part, found !== undefined);
    e = part.h;
    afterId = part.lastId;
  }
  return { h: e, afterId };
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

const partPath = (dir: string, kind: PartKind, index: number, ended: boolean): string => join(dir, `${kind}-${index}${ended ? '-ended' : ''}.gz`);

/** A journal row's text as stored (what the kept part's last row is checked against). */
const rowText = (row: JournalText): string => JSON.stringify(row);

/**
 * The kept parts of one kind whose file is whole and whose header is this code's, this campaign's
 * and of this state (ended or not), from part 0 on until one is missing (at most `count`).
 */
function keptFiles(app: App, dir: string, campaignId: string, kind: PartKind, ended: boolean, count: number): KeptFile[] {
  const sizes = sizesOf(app);
  const found: KeptFile[] = [];
  for (let index = 0; index < count; index++) {
    const path = partPath(dir, kind, index, ended);
    const at = keptHeader(app, path);
    if (at === undefined) break;
    const header = at.header as Partial<PartHeader>;
    if (header.version !== VERSION || header.size !== sizes[kind] || header.campaignId !== campaignId || header.kind !== kind || header.index !== index || header.ended !== ended) continue;
    if (typeof header.from !== 'string' || typeof header.h !== 'string' || typeof header.bytes !== 'number' || typeof header.lastId !== 'number' || typeof header.last !== 'string' || typeof header.body !== 'string') continue;
    found.push({ header: header as PartHeader, path, at });
  }
  return found;
}

/**
 * A kept part (its last row checked in the plan; its body read and checked once the export is laid
 * out) taken if it starts from the chain value the export is at (`from`: the part before it rebuilt
 * may end elsewhere), and its body was not found bad before.
 */
function chained(file: KeptFile | undefined, bad: ReadonlySet<string>, from: string): Part | undefined {
  if (file === undefined || bad.has(file.path) || file.header.from !== from) return undefined;
  return { member: { path: file.path, at: file.at }, bytes: file.header.bytes, h: file.header.h, lastId: file.header.lastId };
}

/** Builds closed part `index` from the database (one short read transaction), compresses it (zlib's threads) and keeps it. */
async function buildPart(app: App, plan: ExportPlan, kind: PartKind, index: number, from: string, read: () => { lines: Lines; last: string; lastId: number }): Promise<Part> {
  const { lines, last, lastId } = readTransaction(app.db, read);
  const member = await gzipAsync(lines.text, { level: 9 });
  const bytes = Buffer.byteLength(lines.text);
  const dir = keptDir(app, plan.campaignId);
  if (dir !== undefined) {
    const header: PartHeader = { version: VERSION, size: plan.sizes[kind], campaignId: plan.campaignId, kind, index, ended: plan.ended, from, h: lines.h, bytes, lastId, last: sha(last), body: sha(member) };
    writeCacheFile(partPath(dir, kind, index, plan.ended), MAGIC, header, member);
  }
  return { member, bytes, h: lines.h, lastId };
}
