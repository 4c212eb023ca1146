import { setImmediate as turn } from 'node:timers/promises';
import { writeTransaction } from '../db/client.js';
import { packEvents } from '../db/eventRepo.js';
import { packJournal } from '../db/journalRepo.js';
import { packFrames } from '../db/tickRepo.js';
import type { App } from './app.js';

/**
 * How long a row stays plain (issue 25: a long campaign's database stays small). The journal, the
 * events and the ticks' frames are written plain, and packed a week later (src/db/packedText.ts:
 * ~7x smaller for the journal, ~5x for events, ~25x for frames): what commands, ticks, the undo and
 * the web page's recent days read stays plain. Reading a packed row unpacks it; every reader gets
 * the same text back.
 */
const COLD_AFTER_DAYS = 7;

/** Rows packed per transaction: a slice of a few milliseconds, then the event loop gets a turn. */
const SLICE_ROWS = 200;

/**
 * How many cold rows of a kind must be waiting before they are packed: some hundred pages of plain
 * rows (an event ~450 bytes, a journal row ~1.2 KB, a frame ~6 KB). On SQLite a run of packed rows
 * is written into fresh pages and the pages it leaves are freed (src/db/eventRepo.ts `packEvents`);
 * rows packed a few at a time would leave each of their pages half empty again, as rewriting them
 * in place did (issue 25). Fewer rows than this stay plain until more have gone cold.
 */
const MIN_RUN = { journal: 256, events: 512, frames: 32 } as const;

/** At most this many rows a run (a database from before packing is packed over several runs). */
const RUN_ROWS = 20_000;

export interface PackedCount {
  readonly journal: number;
  readonly events: number;
  readonly frames: number;
}

/**
 * Packs the rows that have gone cold (older than `days`), oldest first, a slice per transaction
 * with a turn of the event loop between slices; run by the scheduler with the pruning. A kind is
 * packed once `minRun` of its rows are cold (`MIN_RUN` unless given: tests pack a short campaign). It changes
 * no state a replay or a reader sees (only how rows are stored), so it is no journal entry.
 */
export async function packCold(app: App, days = COLD_AFTER_DAYS, minRun?: number): Promise<PackedCount> {
  const before = new Date(app.clock.now().getTime() - days * 86_400_000).toISOString();
  const count = { journal: 0, events: 0, frames: 0 };
  const kinds = [['journal', packJournal], ['events', packEvents], ['frames', packFrames]] as const;
  for (const [kind, pack] of kinds) {
    // A run starts only when enough rows wait; then it packs every cold row, slice after slice.
    for (let slice = 0; ; slice++) {
      const least = slice === 0 ? minRun ?? MIN_RUN[kind] : 1;
      const n = writeTransaction(app.db, () => pack(app.db, before, SLICE_ROWS, least));
      count[kind] += n;
      if (n < SLICE_ROWS || count.journal + count.events + count.frames >= RUN_ROWS) break;
      await turn();
    }
  }
  return count;
}
