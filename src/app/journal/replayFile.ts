import { createHash } from 'node:crypto';
import { STATE_VERSION } from '../../engine/campaign/index.js';
import type { JournalRow, JournalText } from '../../db/journalRepo.js';

/**
 * The replay part of `/campaign export` (docs/replay.md): the export is one JSON document, laid out
 * one journal entry and one event a line so that a reader can name the line that does not fit.
 * Version 5: line 1 is the export's head (state, members, scenario, how many journal entries and
 * events follow); then the journal entries, each a line with `h`, the SHA-256 of the previous
 * entry's `h` (the first: of the campaign's journal genesis, {@link journalGenesis}) and its own
 * text; a line closing the journal (the number of entries, the last `h`, the SHA-256 of line 1);
 * then the events, one a line, chained the same way from {@link eventsGenesis} (each line's hash is
 * not written: the last one is, in the last line with their number). Neither chain depends on the
 * head, so the entries and events of a closed part of the log have the same bytes in every export
 * (src/app/campaign/exportChunks.ts keeps them compressed). A file cut short and closed again (as
 * valid JSON, or with a last line made from the last entry kept) still does not read whole: its
 * head names more entries and events than it holds. Version 4 (the journal's chain from line 1, the
 * events inside line 1) is still read.
 */
export const EXPORT_FORMAT = 'valormr-campaign-export';
/** 5: the chains start from the campaign (not from line 1), the events follow the journal a line each. */
const EXPORT_VERSION = 5;
/** The versions replay reads: 4 (before the log was kept in closed parts) and this one. */
const READ_VERSIONS: readonly number[] = [4, EXPORT_VERSION];
/** The journal's own format (a change to what an entry holds bumps it). */
const JOURNAL_FORMAT = 1;

/** A journal entry as the export writes it (without its campaign id). */
export type ExportedEntry = Omit<JournalRow, 'campaignId'>;

const WITHHELD = '(withheld until the campaign ends)';
const SEED_PATHS = [['rng', 'seed'], ['rng', 'next'], ['rng', 'secret', 'master']] as const;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A copy of `value` (rooted at `path` in the state) with the dice seeds still secret replaced by words. */
function withheld(value: unknown, path: readonly (string | number)[]): unknown {
  if (!isRecord(value)) {
    return SEED_PATHS.some((p) => p.length === path.length && p.every((k, i) => k === path[i])) && typeof value === 'string' ? WITHHELD : value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const at = [...path, k];
    const under = SEED_PATHS.some((p) => p.slice(0, at.length).every((x, i) => x === at[i]));
    out[k] = under ? withheld(v, at) : v;
  }
  return out;
}

/**
 * An entry as exported. Until the campaign ends, the dice seeds (the public seeds of the periods
 * not over, the secret master) are withheld, as everywhere else (docs/dice.md): replay takes each
 * die's value from the entry's dice instead.
 */
export function exportedEntry(row: JournalRow, ended: boolean): ExportedEntry {
  const { campaignId: _id, ...entry } = row;
  if (ended) return entry;
  if (row.kind === 'checkpoint') return { ...entry, change: withheld(row.change, []) };
  const ops = (row.change as { p: (string | number)[]; v?: unknown }[]).map((op) => ('v' in op ? { ...op, v: withheld(op.v, op.p) } : op));
  return { ...entry, change: ops };
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** An operation that sets a seed to a string (the whole operation, its value last): the value is withheld. */
const SEED_OP = /(\{"p":\["rng",(?:"seed"|"next"|"secret","master")\],"v":)"(?:[^"\\]|\\.)*"\}/g;
/** An operation that sets a whole object holding seeds (the state, the dice, their secret part): withheld the slow way. */
const HOLDS_SEEDS = /\{"p":\[(?:"rng"(?:,"secret")?)?\],/;

/**
 * An entry's exported text, `JSON.stringify(exportedEntry(row, ended))` to the byte, spliced from
 * the stored JSON text: only a checkpoint or an operation that sets an object holding seeds is
 * parsed; a seed set alone has its value replaced in the text (tests/app/journalExportText.test.ts).
 */
export function entryText(row: JournalText, ended: boolean): string {
  if (!ended && (row.kind === 'checkpoint' || HOLDS_SEEDS.test(row.change))) {
    const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
    return JSON.stringify(exportedEntry({ campaignId: '', ...row, input: parse(row.input), dice: parse(row.dice), change: parse(row.change) }, ended));
  }
  const change = ended ? row.change : row.change.replace(SEED_OP, (_op, head: string) => `${head}${JSON.stringify(WITHHELD)}}`);
  return `{"seq":${row.seq},"kind":${JSON.stringify(row.kind)},"invocation":${row.invocation},"at":${JSON.stringify(row.at)},"timeIndex":${row.timeIndex},"input":${row.input ?? 'null'},"dice":${row.dice ?? 'null'},"change":${change},"stateVersion":${row.stateVersion}}`;
}

/** Where a campaign's journal chain starts in an export (version 5): the campaign alone, so closed entries keep their bytes. */
export const journalGenesis = (campaignId: string): string => sha(`${EXPORT_FORMAT} journal ${campaignId}`);
/** Where a campaign's events chain starts in an export (version 5). */
export const eventsGenesis = (campaignId: string): string => sha(`${EXPORT_FORMAT} events ${campaignId}`);

/**
 * Line 1 of an export: every field of `head`, the closed contacts (their JSON text, as stored: a
 * season holds megabytes of them, never parsed to be written again), and the numbers of journal
 * entries and of events that follow.
 */
export function headLine(head: Record<string, unknown>, closedContacts: string, journalEntries: number, events: number): string {
  const { before, after } = headAround(head, journalEntries, events);
  return `${before}${closedContacts}${after}`;
}

/** Line 1 of an export around its closed contacts' array: `headLine` is `before`, the array, `after` (the export keeps runs of the array compressed). */
export function headAround(head: Record<string, unknown>, journalEntries: number, events: number): { before: string; after: string } {
  return {
    before: `${JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, ...head }).slice(0, -1)},"closedContacts":`,
    after: `,"eventCount":${events},"replay":{"journalFormat":${JOURNAL_FORMAT},"stateVersion":${STATE_VERSION},"journalEntries":${journalEntries},"entries":[`,
  };
}

/** A run of lines of the export and the chain's value after them. */
export interface Lines {
  readonly text: string;
  readonly h: string;
}

/**
 * Journal entries as the export's lines, the chain continued from `h`: each line starts with its
 * line break, and ends with a comma unless it is the journal's last (`closesJournal`).
 */
export function entryLines(rows: readonly JournalText[], ended: boolean, h: string, closesJournal: boolean): Lines {
  let text = '';
  let at = h;
  rows.forEach((row, i) => {
    const body = entryText(row, ended);
    at = sha(`${at}${body}`);
    text += `\n${body.slice(0, -1)},"h":"${at}"}${closesJournal && i === rows.length - 1 ? '' : ','}`;
  });
  return { text, h: at };
}

/** Events (each its JSON text) as the export's lines, the chain continued from `h` (the hashes are not written: the last one is, in the last line). */
export function eventLines(events: readonly string[], h: string, closesLog: boolean): Lines {
  let text = '';
  let at = h;
  events.forEach((event, i) => {
    at = sha(`${at}${event}`);
    text += `\n${event}${closesLog && i === events.length - 1 ? '' : ','}`;
  });
  return { text, h: at };
}

/** The line closing the journal (its number of entries, the last `h`, the digest of line 1: `headDigest`, SHA-256 hex) and opening the events. */
export const journalEnd = (count: number, last: string, headDigest: string): string => `\n],"count":${count},"last":"${last}","head":"${headDigest}"},"events":[`;

/** The export's last line: the number of events and the last value of their chain. */
export const exportEnd = (count: number, last: string): string => `\n],"eventCount":${count},"eventsLast":"${last}"}`;

/** The whole export's text from its parts read at once (`events`: each event's JSON text): what the chunked export (exportChunks.ts) gives, in one piece. */
export function exportText(head: Record<string, unknown> & { meta: { id: string } }, closedContacts: string, events: readonly string[], rows: readonly JournalText[], ended: boolean): string {
  const first = headLine(head, closedContacts, rows.length, events.length);
  const journal = entryLines(rows, ended, journalGenesis(head.meta.id), true);
  const log = eventLines(events, eventsGenesis(head.meta.id), true);
  return `${first}${journal.text}${journalEnd(rows.length, journal.h, sha(first))}${log.text}${exportEnd(events.length, log.h)}`;
}

/** Version 4's line closing the journal and the export. */
const closingLineV4 = (count: number, last: string, head: string): string => `],"count":${count},"last":"${last}","head":"${head}"}}`;

/** What a replay reads from an export. */
export interface ReplayFile {
  readonly head: {
    readonly meta: { readonly id: string; readonly guildId: string; readonly channelId: string; readonly ownerUserId: string; readonly createdAt: string };
    readonly state: unknown;
    readonly members: readonly { readonly armyId: string; readonly userId: string; readonly displayName: string }[];
    readonly scenario: unknown;
  };
  readonly entries: readonly ExportedEntry[];
}

/** A file that is not a replayable export, with the line that does not fit (numbered from 1). */
export class ReplayFileError extends Error {
  constructor(readonly line: number, readonly why: string) {
    super(`line ${line}: ${why}`);
    this.name = 'ReplayFileError';
  }
}

const ENTRY_KEYS = ['seq', 'kind', 'invocation', 'at', 'timeIndex', 'input', 'dice', 'change', 'stateVersion', 'h'] as const;

function parseEntry(line: string, n: number, previous: string, seq: number): { entry: ExportedEntry; h: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line);
  } catch {
    throw new ReplayFileError(n, `not a journal entry (not one JSON object): ${line.slice(0, 80)}`);
  }
  if (!isRecord(raw)) throw new ReplayFileError(n, 'not a journal entry (not a JSON object)');
  const missing = ENTRY_KEYS.filter((k) => !Object.hasOwn(raw, k));
  if (missing.length > 0) throw new ReplayFileError(n, `a journal entry lacks ${missing.join(', ')}`);
  const { h, ...entry } = raw;
  const expected = sha(`${previous}${JSON.stringify(entry)}`);
  if (h !== expected) throw new ReplayFileError(n, 'this entry is not the one exported (its hash does not follow from it and the lines before): the file was edited');
  if (entry['seq'] !== seq) throw new ReplayFileError(n, `entry ${String(entry['seq'])} where entry ${seq} was expected`);
  if (entry['stateVersion'] !== STATE_VERSION) throw new ReplayFileError(n, `an entry written in state version ${String(entry['stateVersion'])}; this replay reads version ${STATE_VERSION}`);
  return { entry: entry as unknown as ExportedEntry, h: expected };
}

/** What line 1 says: the head, the export's version, and how many journal entries (and, from version 5, events) follow. */
interface Head {
  readonly head: ReplayFile['head'];
  readonly version: number;
  readonly count: number;
  readonly events: number;
}

const wholeCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** The export's head (line 1), checked: its format, version, journal format and state version, and how many entries follow. */
function readHead(first: string): Head {
  const prefix = `{"format":"${EXPORT_FORMAT}",`;
  if (!first.startsWith(prefix)) throw new ReplayFileError(1, `not a campaign export (it should begin with ${prefix})`);
  let head: unknown;
  try {
    head = JSON.parse(`${first}]}}`);
  } catch {
    throw new ReplayFileError(1, 'the export\'s head is not whole JSON: the file was cut inside it (and perhaps closed again), or it is an export from before replay (version 2 or older: export the campaign again)');
  }
  const version = isRecord(head) ? head['version'] : undefined;
  if (!isRecord(head) || typeof version !== 'number' || !READ_VERSIONS.includes(version)) {
    throw new ReplayFileError(1, `an export of version ${String(version ?? '?')}; replay reads versions ${READ_VERSIONS.join(' and ')} (export the campaign again with this bot)`);
  }
  const replay = head['replay'];
  if (!isRecord(replay) || replay['journalFormat'] !== JOURNAL_FORMAT || replay['stateVersion'] !== STATE_VERSION) {
    throw new ReplayFileError(1, `a journal of format ${isRecord(replay) ? String(replay['journalFormat']) : '?'} and state version ${isRecord(replay) ? String(replay['stateVersion']) : '?'}; this replay reads format ${JOURNAL_FORMAT}, state version ${STATE_VERSION}`);
  }
  const count = replay['journalEntries'];
  if (!wholeCount(count)) throw new ReplayFileError(1, 'the export\'s head does not say how many journal entries follow (journalEntries)');
  const events = version === 4 ? 0 : head['eventCount'];
  if (!wholeCount(events)) throw new ReplayFileError(1, 'the export\'s head does not say how many events follow (eventCount)');
  const meta = head['meta'];
  if (!isRecord(meta) || typeof meta['id'] !== 'string') throw new ReplayFileError(1, 'the export\'s head does not name its campaign (meta.id)');
  return { head: head as unknown as ReplayFile['head'], version, count, events };
}

/** Line 1 edited: the digest the journal's last line keeps of it differs (checked first, so that the first line that does not fit is named). */
function checkHeadDigest(lines: readonly string[], first: string): void {
  const closing = lines.findLast((l) => l.startsWith('],"count":'));
  const kept = closing === undefined ? undefined : /"head":"([0-9a-f]{64})"\}/.exec(closing)?.[1];
  if (kept !== undefined && kept !== sha(first)) throw new ReplayFileError(1, 'the export\'s head is not the one exported (the digest its last line keeps of it does not match): the file was edited');
}

/** The journal's entries from line 2 on, and the index of the line closing it (checked against them). */
function readJournal(lines: readonly string[], { count, version, head }: Head): { entries: ExportedEntry[]; closing: number } {
  const first = lines[0] ?? '';
  let h = version === 4 ? sha(first) : journalGenesis(head.meta.id);
  const entries: ExportedEntry[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('],')) {
      if (entries.length < count) throw new ReplayFileError(i + 1, `the journal ends after ${entries.length} of the ${count} entries the export's head names: the file was cut (and closed again)`);
      const expected = version === 4 ? closingLineV4(entries.length, h, sha(first)) : journalEnd(entries.length, h, sha(first)).slice(1);
      if (line !== expected) throw new ReplayFileError(i + 1, `the journal's last line does not match its ${entries.length} entries`);
      return { entries, closing: i };
    }
    // A file cut just after a line break ends in an empty line: truncated, as below.
    if (line === '' && i === lines.length - 1) break;
    if (entries.length === count) throw new ReplayFileError(i + 1, `the journal should end here: the export's head names ${count} entries`);
    const parsed = parseEntry(line, i + 1, h, entries.length);
    entries.push(parsed.entry);
    h = parsed.h;
  }
  throw new ReplayFileError(lines.length, `the file ends after ${entries.length} of the ${count} journal entries the export's head names, without the journal's last line: it is truncated`);
}

/** Version 5's events, from line `from` on: as many as the head names, their chain the one the last line keeps; the index of the last line. */
function checkEvents(lines: readonly string[], from: number, { events: count, head }: Head): number {
  let h = eventsGenesis(head.meta.id);
  let n = 0;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('],')) {
      if (n < count) throw new ReplayFileError(i + 1, `the events end after ${n} of the ${count} the export's head names: the file was cut (and closed again)`);
      if (line !== exportEnd(n, h).slice(1)) throw new ReplayFileError(i + 1, `the export's last line does not match its ${n} events: an event was edited, moved or left out`);
      return i;
    }
    if (line === '' && i === lines.length - 1) break;
    if (n === count) throw new ReplayFileError(i + 1, `the events should end here: the export's head names ${count} events`);
    h = sha(`${h}${line.endsWith(',') ? line.slice(0, -1) : line}`);
    n++;
  }
  throw new ReplayFileError(lines.length, `the file ends after ${n} of the ${count} events the export's head names, without the export's last line: it is truncated`);
}

/**
 * Reads an export for replay, refusing (with the first line that does not fit) a file of another
 * format or version, a truncated one (closed again or not), or one whose lines were edited.
 * Nothing is replayed from a file that does not read whole. Versions 4 and 5 are read.
 */
export function readReplayFile(text: string): ReplayFile {
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  const head = readHead(first);
  checkHeadDigest(lines, first);
  const { entries, closing } = readJournal(lines, head);
  const last = head.version === 4 ? closing : checkEvents(lines, closing + 1, head);
  if (lines.slice(last + 1).some((l) => l.trim() !== '')) throw new ReplayFileError(last + 2, 'text after the end of the export');
  return { head: head.head, entries };
}
