import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayFileError, journalGenesis, readReplayFile } from '../../src/app/journal/replayFile.js';
import { replayText, reportText } from '../../src/console/replay.js';
import { applyOps, firstDifference, type Json, type PathOp } from '../../src/engine/replay/index.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { exported } from './exported.js';

/*
 * Issue 29, bad input: "A replay file ... truncated, or edited: refused with the first line that
 * does not fit, never a partial replay reported as exact." One real export, cut at every line
 * boundary and at random byte offsets, as it is and closed again as valid JSON (the trailing
 * elements of whichever array the cut fell in dropped: journal entries, events, an entry's dice),
 * and cut at every entry with a last line made from the last entry kept. Each is refused naming
 * the line where it was cut (or the next). A file whose whole hash chain was made again for fewer
 * entries (a careful forger; nothing unkeyed can refuse it) replays exactly only when those entries
 * do reach the state the file claims.
 */

let h: Harness | undefined;
let text = '';
let lines: string[] = [];
afterAll(() => h?.close());

beforeAll(async () => {
  h = await consoleHarness({ seed: 7 });
  await h.run(
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    '@referee /campaign assign army:hadewych user:alice', '@referee /campaign assign army:aeskrvald user:bob',
    '@referee /campaign start', '@alice /move army:hadewych to:0817', '!tick', '@bob /rest army:aeskrvald', '!tick', '@referee /turn undo', '!tick',
    '@referee /turn extend minutes:120',
  );
  text = await exported(h);
  lines = text.split('\n');
}, 120_000);

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
/** The line (from 1) of the byte at offset `at`. */
const lineOf = (at: number): number => text.slice(0, at).split('\n').length;

/** The line a text is refused at (a ReplayFileError), or what its replay reported. */
async function verdict(file: string): Promise<{ refused: number; why: string } | { report: string; exact: boolean }> {
  try {
    readReplayFile(file);
  } catch (err) {
    if (err instanceof ReplayFileError) return { refused: err.line, why: err.message };
    throw err;
  }
  const report = await replayText(file);
  return { report: reportText(report), exact: report.exact };
}

/** A cut text made valid JSON again: back to the last point where a value was whole, then every bracket still open closed. */
function reclosed(cut: string): string {
  const open: string[] = [];
  let inString = false;
  let escaped = false;
  let at = 0;
  let closers = '';
  const mark = (i: number): void => {
    at = i;
    closers = [...open].reverse().join('');
  };
  for (let i = 0; i < cut.length; i++) {
    const c = cut[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      open.push(c === '{' ? '}' : ']');
      mark(i + 1);
    } else if (c === '}' || c === ']') {
      open.pop();
      mark(i + 1);
    } else if (c === ',') mark(i);
  }
  return `${cut.slice(0, at)}${closers}`;
}

/** Refused at the line where it was cut, or the next one (the line that should have followed). */
async function refusedAtCut(file: string, cutLine: number): Promise<void> {
  const v = await verdict(file);
  expect(v, `cut in line ${cutLine}`).toMatchObject({ refused: expect.any(Number) as number });
  if ('refused' in v) {
    expect(v.refused, v.why).toBeGreaterThanOrEqual(cutLine);
    expect(v.refused, v.why).toBeLessThanOrEqual(cutLine + 1);
  }
}

describe('replay refuses an export cut short', () => {
  it('GIVEN the export WHEN read whole THEN it replays exactly (the cases below cut a good file)', async () => {
    expect(lines.length).toBeGreaterThan(12);
    expect(await verdict(text)).toMatchObject({ exact: true });
  });

  it('GIVEN the export cut at every line boundary (with and without the line break) WHEN replayed THEN each is refused at the line cut, nothing replayed', async () => {
    for (let j = 1; j < lines.length; j++) {
      const kept = lines.slice(0, j).join('\n');
      await refusedAtCut(kept, j);
      await refusedAtCut(`${kept}\n`, j);
    }
  });

  it('GIVEN the export cut at every line boundary and closed again as valid JSON WHEN replayed THEN each is refused at the line cut', async () => {
    for (let j = 1; j < lines.length; j++) {
      const file = reclosed(lines.slice(0, j).join('\n'));
      expect(() => JSON.parse(file) as unknown).not.toThrow();
      await refusedAtCut(file, j);
    }
  });

  it('GIVEN the export cut at any byte, as it is or closed again as valid JSON WHEN replayed THEN it is refused at the line cut (or, closed again into the very file, replays)', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: text.length - 1 }), fc.boolean(), async (at, close) => {
      const cut = text.slice(0, at);
      const file = close ? reclosed(cut) : cut;
      if (close) expect(() => JSON.parse(file) as unknown).not.toThrow();
      // Cut inside the last brackets, closing again gives back the file itself: that one replays.
      if (file === text) expect(await verdict(file)).toMatchObject({ exact: true });
      // The line cut is the line of the last byte kept (a cut just after a line break keeps that line whole).
      else await refusedAtCut(file, lineOf(at - 1));
    }), { numRuns: 300 });
  });

  it('GIVEN the journal cut after any entry and given a last line made from the last entry kept WHEN replayed THEN it is refused where the head\'s entries go missing', async () => {
    const entries = journalClosing() - 1;
    for (let k = 0; k < entries; k++) {
      const kept = lines.slice(0, k + 1).map((l, i) => (i === k ? l.replace(/,$/, '') : l));
      const last = k === 0 ? journalGenesis(campaignId()) : (JSON.parse(kept[k] ?? '{}') as { h: string }).h;
      const file = [...kept, `],"count":${k},"last":"${last}","head":"${sha(lines[0] ?? '')}"},"events":[`, ...lines.slice(journalClosing() + 1)].join('\n');
      expect(() => JSON.parse(file) as unknown).not.toThrow();
      const v = await verdict(file);
      expect(v).toEqual({ refused: k + 2, why: `line ${k + 2}: the journal ends after ${k} of the ${entries} entries the export's head names: the file was cut (and closed again)` });
    }
  });
});

/** The index of the line closing the journal (the events follow it). */
const journalClosing = (): number => lines.findIndex((l) => l.startsWith('],"count":'));
const campaignId = (): string => (JSON.parse(`${lines[0] ?? ''}]}}`) as { meta: { id: string } }).meta.id;

/** The journal's first `k` entries as a whole export of its own: head and hash chain made again (what a careful forger would do); the events as they were. */
function forged(k: number): string {
  const first = (lines[0] ?? '').replace(/"journalEntries":\d+/, `"journalEntries":${k}`);
  let hash = journalGenesis(campaignId());
  const out = [first];
  for (let i = 1; i <= k; i++) {
    const { h: _old, ...entry } = JSON.parse((lines[i] ?? '').replace(/,$/, '')) as Record<string, unknown>;
    const body = JSON.stringify(entry);
    hash = sha(`${hash}${body}`);
    out.push(`${body.slice(0, -1)},"h":"${hash}"}${i < k ? ',' : ''}`);
  }
  return [...out, `],"count":${k},"last":"${hash}","head":"${sha(first)}"},"events":[`, ...lines.slice(journalClosing() + 1)].join('\n');
}

/** Whether the journal's first `k` entries reach the state the export claims (the dice seeds aside, as replay compares). */
function reachesClaimedState(k: number): boolean {
  const entries = lines.slice(1, k + 1).map((l) => JSON.parse(l.replace(/,$/, '')) as { change: unknown });
  const state = entries.slice(1).reduce((s, e) => applyOps(s, e.change as PathOp[]), entries[0]?.change as Json);
  const claimed = (JSON.parse(`${lines[0] ?? ''}]}}`) as { state: Json }).state;
  return firstDifference(claimed, state, ['rng.seed', 'rng.next', 'rng.secret.master']) === undefined;
}

describe('replay of a journal made again for fewer entries', () => {
  it('GIVEN the first k entries with a head and hash chain made again WHEN replayed THEN it replays exactly only if they reach the state the file claims, else it says the stored state is not what they replay to', async () => {
    const entries = journalClosing() - 1;
    expect(reachesClaimedState(entries)).toBe(true);
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: entries - 1 }), async (k) => {
      const v = await verdict(forged(k));
      const reaches = reachesClaimedState(k);
      expect(v).toMatchObject({ exact: reaches });
      if (!reaches && 'report' in v) expect(v.report).toMatch(/^DOES NOT REPLAY: .*the stored state is not what the journal replays to/);
    }), { numRuns: 6 });
  });
});
