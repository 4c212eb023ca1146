import { createHash } from 'node:crypto';
import { STATE_VERSION } from '../../engine/campaign/index.js';
import type { JournalRow, JournalText } from '../../db/journalRepo.js';

/**
 * The replay part of `/campaign export` (docs/replay.md): the export is one JSON document, laid out
 * one journal entry a line so that a reader can name the line that does not fit. Line 1 is the
 * export's head (state, members, scenario, log) up to the journal, with the number of journal
 * entries that follow (`journalEntries`); each journal entry is a line with `h`, the SHA-256 of
 * the previous line's `h` (line 1: of line 1) and its own text; the last line closes the document
 * with the number of entries, the last `h` and the SHA-256 of line 1 (`head`). So a file cut short
 * and closed again (as valid JSON, or with a last line made from the last entry kept) still does
 * not read whole: its head names more entries than it holds.
 */
export const EXPORT_FORMAT = 'valormr-campaign-export';
/** 4: the head names its number of journal entries, the last line the digest of the head. */
const EXPORT_VERSION = 4;
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

/** The export's text: `head` (every field of the export but the journal) and the journal, a line each. */
export function exportText(head: Record<string, unknown>, eventsJson: string, rows: readonly JournalText[], ended: boolean): string {
  const replay = `"replay":{"journalFormat":${JOURNAL_FORMAT},"stateVersion":${STATE_VERSION},"journalEntries":${rows.length},"entries":[`;
  const first = `${JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, ...head }).slice(0, -1)},"events":${eventsJson},${replay}`;
  const lines = [first];
  let h = sha(first);
  rows.forEach((row, i) => {
    const body = entryText(row, ended);
    h = sha(`${h}${body}`);
    lines.push(`${body.slice(0, -1)},"h":"${h}"}${i < rows.length - 1 ? ',' : ''}`);
  });
  lines.push(closingLine(rows.length, h, sha(first)));
  return lines.join('\n');
}

/** The export's last line: the number of entries, the last entry's `h`, the digest of line 1. */
const closingLine = (count: number, last: string, head: string): string => `],"count":${count},"last":"${last}","head":"${head}"}}`;

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

/** The export's head (line 1), checked: its format, version, journal format and state version, and how many entries follow. */
function readHead(first: string): { head: ReplayFile['head']; count: number } {
  const prefix = `{"format":"${EXPORT_FORMAT}",`;
  if (!first.startsWith(prefix)) throw new ReplayFileError(1, `not a campaign export (it should begin with ${prefix})`);
  let head: unknown;
  try {
    head = JSON.parse(`${first}]}}`);
  } catch {
    throw new ReplayFileError(1, 'the export\'s head is not whole JSON: the file was cut inside it (and perhaps closed again), or it is an export from before replay (version 2 or older: export the campaign again)');
  }
  if (!isRecord(head) || head['version'] !== EXPORT_VERSION) throw new ReplayFileError(1, `an export of version ${isRecord(head) ? String(head['version']) : '?'}; replay reads version ${EXPORT_VERSION} (export the campaign again with this bot)`);
  const replay = head['replay'];
  if (!isRecord(replay) || replay['journalFormat'] !== JOURNAL_FORMAT || replay['stateVersion'] !== STATE_VERSION) {
    throw new ReplayFileError(1, `a journal of format ${isRecord(replay) ? String(replay['journalFormat']) : '?'} and state version ${isRecord(replay) ? String(replay['stateVersion']) : '?'}; this replay reads format ${JOURNAL_FORMAT}, state version ${STATE_VERSION}`);
  }
  const count = replay['journalEntries'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new ReplayFileError(1, 'the export\'s head does not say how many journal entries follow (journalEntries)');
  return { head: head as unknown as ReplayFile['head'], count };
}

/** Line 1 edited: the digest the last line keeps of it differs (checked first, so that the first line that does not fit is named). */
function checkHeadDigest(lines: readonly string[], first: string): void {
  const closing = lines.findLast((l) => l.startsWith('],'));
  const kept = closing === undefined ? undefined : /"head":"([0-9a-f]{64})"\}\}$/.exec(closing)?.[1];
  if (kept !== undefined && kept !== sha(first)) throw new ReplayFileError(1, 'the export\'s head is not the one exported (the digest its last line keeps of it does not match): the file was edited');
}

/**
 * Reads an export for replay, refusing (with the first line that does not fit) a file of another
 * format or version, a truncated one (closed again or not), or one whose lines were edited.
 * Nothing is replayed from a file that does not read whole.
 */
export function readReplayFile(text: string): ReplayFile {
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  const { head, count } = readHead(first);
  checkHeadDigest(lines, first);
  let h = sha(first);
  const entries: ExportedEntry[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('],')) {
      if (entries.length < count) throw new ReplayFileError(i + 1, `the journal ends after ${entries.length} of the ${count} entries the export's head names: the file was cut (and closed again)`);
      if (line !== closingLine(entries.length, h, sha(first))) throw new ReplayFileError(i + 1, `the journal's last line does not match its ${entries.length} entries`);
      if (lines.slice(i + 1).some((l) => l.trim() !== '')) throw new ReplayFileError(i + 2, 'text after the end of the export');
      return { head, entries };
    }
    // A file cut just after a line break ends in an empty line: truncated, as below.
    if (line === '' && i === lines.length - 1) break;
    if (entries.length === count) throw new ReplayFileError(i + 1, `the journal should end here: the export's head names ${count} entries`);
    const parsed = parseEntry(line, i + 1, h, entries.length);
    entries.push(parsed.entry);
    h = parsed.h;
  }
  throw new ReplayFileError(lines.length, `the file ends after ${entries.length} of the ${count} journal entries the export's head names, without the export's last line: it is truncated`);
}
