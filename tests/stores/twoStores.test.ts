import type * as Crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { exported } from '../replay/exported.js';
import { script } from '../secrecy/campaignScript.js';
import { AUTOCOMPLETE } from '../secrecy/worlds.js';
import { freshPostgresDatabase } from '../support/postgres.js';

/**
 * The two-store differential test (issue 30): one scripted campaign played by the console on
 * SQLite and on PostgreSQL, with the same seed and clock, must give every delivery (recipient,
 * text, cards and buttons, picture bytes) equal byte for byte, and the same exported journal. The
 * script is the differential secrecy test's (movement, scouts, ships, couriers, a contact with
 * estimates by DM, a battle and its result, undo, exports), with a pause and a resume and ticks
 * over several days after it; in fog under Valormr's rules, and in public under ACKS'.
 */

/**
 * What the bot draws at random (the campaign's id, the dice periods' secret seeds, the outbox's
 * nonces, the journal's first invocation number) is drawn here from a counter restarted for each
 * play, and each play loads the app's modules afresh (their own counters start again): the two
 * plays must differ only in their store. The cryptographic functions themselves are the real ones.
 */
const draws = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  const randomBytes = (size: number): Buffer => {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i += 32) real.createHash('sha256').update(`draw ${draws.count++}`).digest().copy(out, i);
    return out;
  };
  const randomInt = (a: number, b?: number): number => {
    const [min, max] = b === undefined ? [0, a] : [a, b];
    return min + (randomBytes(6).readUIntBE(0, 6) % (max - min));
  };
  const randomUUID = (): string => real.createHash('sha256').update(`uuid ${draws.count++}`).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5');
  return { ...real, default: { ...real, randomBytes, randomInt, randomUUID }, randomBytes, randomInt, randomUUID };
});

/** After the shared script: a pause and a resume, then two more days of ticks and what readers look at. */
const MORE = [
  '@referee /campaign pause reason:"the harvest feast"',
  '@alice /turn status',
  '@referee /campaign resume',
  '@alice /move to:1018',
  '!tick 4',
  '@alice /map view:mine', '@bob /intel', '@referee /referee inbox',
  '!tick 4',
  '@carol /army status', '@alice /campaign status',
];

interface Delivery { to: string; user: string | undefined; content: string; data: unknown; files: string[] }

/** Everything a reader got, pictures and files as their names and the SHA-256 of their bytes, and the referee's export. */
async function play(databasePath: string, positions: 'public' | 'fog', profile: 'valormr' | 'acks'): Promise<{ deliveries: Delivery[]; journal: string }> {
  draws.count = 0;
  vi.resetModules();
  const { consoleHarness } = await import('../scenarios/harness.js');
  const h = await consoleHarness({ seed: 30, databasePath });
  try {
    const s = script(positions, profile);
    await h.run(...s.setup, ...s.play.filter((l) => l !== AUTOCOMPLETE), ...MORE);
    const journal = await exported(h);
    const deliveries = h.outputs.map((o) => ({
      to: o.to, user: o.user, content: o.content, data: o.data,
      files: (o.files ?? []).map((f) => `${basename(f)} ${createHash('sha256').update(readFileSync(f)).digest('hex')}`),
    }));
    return { deliveries, journal };
  } finally {
    h.close();
  }
}

/** The first delivery that differs, with its place: a readable failure instead of two long arrays. */
function firstDifference(a: readonly Delivery[], b: readonly Delivery[]): { at: number; sqlite: Delivery | undefined; postgres: Delivery | undefined } | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return { at: i, sqlite: a[i], postgres: b[i] };
  }
  return undefined;
}

describe('one campaign, two stores: SQLite and PostgreSQL answer byte for byte alike', () => {
  it.each([['fog', 'valormr'], ['public', 'acks']] as const)('GIVEN the campaign in %s under %s WHEN played on each store THEN every delivery and the exported journal are equal', async (positions, profile) => {
    const sqlite = await play(':memory:', positions, profile);
    const postgres = await play(freshPostgresDatabase(), positions, profile);
    expect(sqlite.deliveries.length).toBeGreaterThan(100);
    expect(sqlite.deliveries.filter((d) => d.to === 'dm').length).toBeGreaterThan(10);
    expect(sqlite.deliveries.some((d) => d.files.some((f) => /\.png /.test(f)))).toBe(true);
    // What the script reached: a contact engaged, a battle's result, undo, a pause and a resume, days of ticks.
    for (const done of ['"command":"engage"', '"subcommand":"result"', '"subcommand":"undo"', '"subcommand":"pause"', '"subcommand":"resume"']) expect(sqlite.journal).toContain(done);
    expect(sqlite.journal.match(/"input":\{"kind":"tick"/g)?.length).toBeGreaterThanOrEqual(10);
    expect(firstDifference(sqlite.deliveries, postgres.deliveries)).toBeUndefined();
    expect(postgres.deliveries).toEqual(sqlite.deliveries);
    expect(postgres.journal).toBe(sqlite.journal);
  });
});
