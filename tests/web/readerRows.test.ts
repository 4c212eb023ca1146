import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerInputs } from '../../src/app/web/readerInputs.js';
import { spectatorMap, spectatorShown, spectatorVersion } from '../../src/app/web/spectatorPage.js';
import { webMapVersion, webPage, type PageRequest } from '../../src/app/web/webPage.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { rawSqlite } from '../../src/db/client.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { script } from '../secrecy/campaignScript.js';
import { AUTOCOMPLETE } from '../secrecy/worlds.js';

/*
 * Issue 28: the keys a reader's page and pictures are kept under cover every input they are made
 * from, whatever table it is read from. tests/web/readerInputs.test.ts changes the stored STATE;
 * this one changes the other rows the pages read: the chronicle (events), the ticks' index and
 * frames (the timeline, the spectators' half period), closed contacts and their estimates (intel,
 * the map's sightings), the outbox (the referee's inbox, kept DMs), members and notices.
 * Property: for any one of them changed as the bot changes it (a value of a row, fast-check
 * picks the row, the column and, in JSON, the leaf; rows taken away; a row added, a copy of one
 * made new), for every reader (alice
 * now and on a past day, the referee now and viewing as alice, the spectators), whenever what
 * they are shown changes (page.json's data, the map's version), the key it is kept and compared
 * under changes too. (A stale page, or a stale picture under an unchanged key, would be served.)
 * Each change is made inside a savepoint and rolled back. SQLite only: it edits rows through
 * better-sqlite3 (the keys are worked out by the same code on both stores).
 */

/**
 * The tables besides the state's that the pages read: which of their rows are not part of the
 * state (those the state property covers); the columns the bot changes in a row after writing it
 * (each varied in place); how rows go: `delete` (any one: released, pruned), `fromHere` (this one
 * and every later one: what an undo does to the ticks), `withdraw` (this event and every later
 * one marked undone: the undo's mark), or not at all; and what makes a copy of a row a new row
 * (`fresh`: a column given a new value; an integer `id` is numbered anew, so a copied event is the
 * newest). A value the bot writes once and never changes (an event's text, a message's content,
 * a closed record) is varied as the bot varies it: by rows added and taken away.
 */
const TABLES: Record<string, { where: string; changing: readonly string[]; gone: 'delete' | 'fromHere' | 'withdraw'; fresh: Record<string, string> }> = {
  // Logged (appended), withdrawn by an undo; never deleted.
  events: { where: 'true', changing: [], gone: 'withdraw', fresh: {} },
  // Played, undone (the latest ones deleted), their undo snapshot dropped past the undo window.
  ticks: { where: 'true', changing: ['snapshot', 'state_version', 'ran_at'], gone: 'fromHere', fresh: { time_index: '(select max(time_index) + 1 from ticks)' } },
  // Closed records (a contact closed, one reopened by an undo: the row's live flag moves it into the state, which the state property varies).
  contacts: { where: 'live = 0', changing: [], gone: 'delete', fresh: { id: "id || 'b'" } },
  contact_estimates: { where: 'true', changing: [], gone: 'delete', fresh: { contact_id: "contact_id || 'b'" } },
  // Queued, claimed, sent, refused, read with /intel, tried again, pruned.
  outbox_messages: { where: 'true', changing: ['status', 'parts_sent', 'claimed_by', 'lease_until', 'read_at', 'attempts', 'next_attempt_at', 'last_error', 'delivered_at'], gone: 'delete', fresh: { dedupe_key: 'null' } },
  // Assigned, released, their name as Discord last gave it.
  members: { where: 'true', changing: ['display_name'], gone: 'delete', fresh: { user_id: "user_id || 'b'" } },
  notices: { where: 'true', changing: ['reminder_minutes', 'tick_report', 'order_confirm'], gone: 'delete', fresh: { user_id: "user_id || 'b'" } },
  // Delivered or captured couriers' records.
  couriers: { where: 'live = 0', changing: [], gone: 'delete', fresh: { id: "id || 'b'" } },
};

interface Reader {
  readonly name: string;
  /** What the server keeps and compares the reader's view under (one or more keys). */
  readonly key: () => unknown;
  /** What the reader is shown. */
  readonly shown: () => unknown;
}

let h: Harness;
let campaignId: string;
let readers: Reader[];

const person = (userId: string, req: PageRequest): Reader => ({
  name: `${userId} ${JSON.stringify(req)}`,
  key: () => readerInputs(h.app, { campaignId, userId }, req),
  shown: () => [webPage(h.app, { campaignId, userId }, req), webMapVersion(h.app, { campaignId, userId }, req)],
});

/** Every reader's key and view, or undefined when a change left the campaign unreadable (no reader's page). */
function seen(): { key: unknown; shown: string }[] | undefined {
  try {
    return readers.map((r) => ({ key: JSON.stringify(r.key()), shown: JSON.stringify(r.shown()) }));
  } catch {
    return undefined;
  }
}

type Op = { kind: 'set'; table: string; rowid: number; column: string; leaf: number; by: number } | { kind: 'delete' | 'copy'; table: string; rowid: number };

/** Every primitive leaf of a JSON value, by its path. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
}

/** A value changed: a number moved by `by`, a string lengthened, a boolean flipped, null made `by`; in JSON text, one leaf so (the `leaf`-th, modulo their count). */
function changedValue(v: unknown, leaf: number, by: number): unknown {
  if (typeof v === 'number') return v + by;
  if (v === null) return by;
  if (typeof v !== 'string') return v;
  let json: unknown;
  try {
    json = JSON.parse(v);
  } catch {
    return `${v}${by}`;
  }
  if (json === null || typeof json !== 'object') return `${v}${by}`;
  const all = leaves(json);
  const path = all[leaf % all.length]!;
  if (path.length === 0) return `${v}${by}`;
  let at = json as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  const x = at[last];
  at[last] = typeof x === 'number' ? x + by : typeof x === 'string' ? `${x}${by}` : typeof x === 'boolean' ? !x : x === null ? by : x;
  return JSON.stringify(json);
}

/** Makes the change in the open savepoint; false when the database refuses it (a key taken, a constraint). */
function apply(op: Op): boolean {
  const db = rawSqlite(h.app.db);
  try {
    if (op.kind === 'delete') {
      const gone = TABLES[op.table]!.gone;
      if (gone === 'delete') db.prepare(`delete from ${op.table} where rowid = ?`).run(op.rowid);
      if (gone === 'fromHere') db.prepare(`delete from ${op.table} where campaign_id = ? and time_index >= (select time_index from ${op.table} where rowid = ?)`).run(campaignId, op.rowid);
      if (gone === 'withdraw') db.prepare(`update ${op.table} set undone = 1 where campaign_id = ? and id >= (select id from ${op.table} where rowid = ?)`).run(campaignId, op.rowid);
    } else if (op.kind === 'copy') {
      // A new row like this one (an event logged, a message queued, a tick played...).
      const cols = (db.prepare(`select name from pragma_table_info('${op.table}') where name <> 'id' or type <> 'INTEGER'`).all() as { name: string }[]).map((c) => c.name);
      const fresh = TABLES[op.table]!.fresh;
      db.prepare(`insert into ${op.table} (${cols.map((c) => `"${c}"`).join(', ')}) select ${cols.map((c) => fresh[c] ?? `"${c}"`).join(', ')} from ${op.table} where rowid = ?`).run(op.rowid);
    } else if (op.kind === 'set') {
      const v = (db.prepare(`select "${op.column}" as v from ${op.table} where rowid = ?`).get(op.rowid) as { v: unknown }).v;
      const next = changedValue(v, op.leaf, op.by);
      if (next === v) return false;
      db.prepare(`update ${op.table} set "${op.column}" = ? where rowid = ?`).run(next, op.rowid);
    }
    return true;
  } catch {
    return false;
  }
}

/** In a savepoint rolled back after: the database as it was for the next run. */
function tried<T>(fn: () => T): T {
  const db = rawSqlite(h.app.db);
  db.exec('savepoint tried');
  try {
    return fn();
  } finally {
    db.exec('rollback to tried');
    db.exec('release tried');
  }
}

beforeAll(async () => {
  // The secrecy test's fog campaign (contacts, a battle, couriers, undo), carol's DMs closed (kept messages, the referee's inbox), spectators one half period behind.
  h = await consoleHarness({ closedDms: ['carol'] });
  const s = script('fog', 'valormr');
  await h.run(...s.setup, ...s.play.filter((l) => l !== AUTOCOMPLETE), '@referee /campaign settings spectators:1', '@alice /notify reminder:30m tick-report:changes', '!tick 3', '@alice /army status');
  campaignId = readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] } }, (tx) => tx.meta.id);
  const spectators: Reader = {
    name: 'spectators',
    key: () => [spectatorVersion(h.app, campaignId), spectatorMap(h.app, campaignId)?.key],
    shown: () => [spectatorShown(h.app, campaignId)?.data, spectatorMap(h.app, campaignId)?.version],
  };
  readers = [person('alice', {}), person('alice', { day: 1 }), person('referee', {}), person('referee', { as: 'hadewych' }), spectators];
});
afterAll(() => h.close());

describe('a reader\'s key covers the rows their page reads', () => {
  it('GIVEN a fog campaign\'s pages (alice now and on day 1, the referee and "view as", the spectators) WHEN any one stored row besides the state changes THEN each reader\'s key changes whenever what they are shown changes', { timeout: 600_000 }, () => {
    const before = seen();
    if (!before) throw new Error('no page');
    const db = rawSqlite(h.app.db);
    const rows = Object.entries(TABLES).flatMap(([table, { where, changing }]) => {
      const ids = (db.prepare(`select rowid as r from ${table} where campaign_id = ? and ${where}`).all(campaignId) as { r: number }[]).map((x) => x.r);
      return ids.map((rowid) => ({ table, rowid, cols: changing }));
    });
    // Every table the pages read has rows to change.
    expect(new Set(rows.map((r) => r.table))).toEqual(new Set(Object.keys(TABLES)));
    const op: fc.Arbitrary<Op> = fc.constantFrom(...rows).chain((r) => fc.oneof(
      ...(r.cols.length > 0 ? [{ weight: 4, arbitrary: fc.record({ column: fc.constantFrom(...r.cols), leaf: fc.nat(), by: fc.constantFrom(1, -1, 7) }).map((x): Op => ({ kind: 'set', table: r.table, rowid: r.rowid, ...x })) }] : []),
      { weight: 2, arbitrary: fc.constant<Op>({ kind: 'delete', table: r.table, rowid: r.rowid }) },
      { weight: 2, arbitrary: fc.constant<Op>({ kind: 'copy', table: r.table, rowid: r.rowid }) },
    ));
    const tally = { moved: 0, keyOnly: 0, neither: 0 };
    fc.assert(fc.property(op, (o) => {
      const after = tried(() => (apply(o) ? seen() : undefined));
      fc.pre(after !== undefined);
      after.forEach((a, i) => {
        const b = before[i]!;
        if (a.shown !== b.shown) {
          tally.moved += 1;
          expect(a.key, `${readers[i]!.name}: ${JSON.stringify(o)} moved what they are shown, not their key`).not.toBe(b.key);
        } else if (a.key !== b.key) {
          tally.keyOnly += 1;
        } else {
          tally.neither += 1;
        }
      });
    }), { numRuns: 150 });
    expect(tally.moved, JSON.stringify(tally)).toBeGreaterThan(10);
    expect(tally.neither, JSON.stringify(tally)).toBeGreaterThan(10);
    expect(seen()).toEqual(before);
  });
});
