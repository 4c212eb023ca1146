import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, writeTransaction } from '../../src/db/client.js';
import { allEventsJson, appendEvents, eventsJsonAfter, logJsonWritten, markEventsUndone } from '../../src/db/eventRepo.js';
import type { EngineEvent } from '../../src/engine/events/index.js';

/**
 * The export's event log is one JSON array. SQLite builds it itself (json_group_array); on
 * PostgreSQL it is written in JavaScript in the same compact form. Both forms, run on SQLite over
 * generated events (any text: quotes, backslashes, control characters, any Unicode; data of any
 * JSON shape; undone or not), give the same bytes, and the bytes parse back to the events.
 */

const db = openDatabase(':memory:');
afterAll(() => closeDatabase(db));

const jsonValue = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const event = fc.record({
  type: fc.string({ unit: 'binary', maxLength: 12 }),
  text: fc.string({ unit: 'binary', maxLength: 40 }),
  audience: fc.constantFrom<EngineEvent['audience']>({ kind: 'referee' }, { kind: 'public' }, { kind: 'army', armyId: 'a"1\\' }),
  data: fc.option(jsonValue, { nil: undefined }),
});

describe('the event log as JSON', () => {
  it('GIVEN generated events WHEN written by SQLite and by the JavaScript form THEN the bytes are the same and parse back to the events', () => {
    let n = 0;
    // Short lists, and lists past appendEvents' batch of 32 rows a statement (a whole batch or two, then the rest one by one).
    fc.assert(fc.property(fc.oneof(fc.array(event, { maxLength: 8 }), fc.array(event, { minLength: 31, maxLength: 70 })), fc.nat(8), fc.option(fc.string({ maxLength: 6 }), { nil: null }), (list, undoAfter, actor) => {
      const id = `c${n++}`;
      const kept = list.filter((e) => !/[\ud800-\udfff]/.test(e.text + e.type)) as EngineEvent[];
      writeTransaction(db, () => {
        appendEvents(db, id, { day: 2, half: 1 }, actor, kept, '2026-11-27T07:00:00.000Z');
        markEventsUndone(db, id, undoAfter);
      });
      const sqlite = allEventsJson(db, id);
      const written = logJsonWritten(db, id);
      expect(written).toEqual(sqlite);
      // The export (version 5) reads the log by parts, an event a line: the same bytes, event by event.
      const parts: string[] = [];
      for (let after = 0, part = eventsJsonAfter(db, id, 0, 3); part.length > 0; after = part.at(-1)?.id ?? after, part = eventsJsonAfter(db, id, after, 3)) parts.push(...part.map((e) => e.json));
      expect(`[${parts.join(',')}]`).toBe(sqlite.json);
      const parsed = JSON.parse(written.json) as { type: string; text: string; data: unknown; actorUserId: string | null }[];
      expect(parsed.map((e) => [e.type, e.text, e.data, e.actorUserId])).toEqual(kept.map((e) => [e.type, e.text, e.data ?? null, actor]));
    }), { numRuns: 150 });
  });
});
