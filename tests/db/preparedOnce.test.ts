import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { rawSqlite } from '../../src/db/client.js';

/**
 * Every statement on the command and tick path is prepared once per connection (src/db/prepared.ts,
 * perConnection; issue 25 item 6). Building and preparing a query's SQL on each call cost more than
 * running it, so after a warm-up round the same commands and ticks must prepare NO statement on the
 * connection: each one listed here by its SQL is a query built anew on every call.
 */

const ROUND = [
  '@alice /army status army:hadewych',
  '@alice /move army:hadewych to:1114 unformed:true',
  '@alice /turn status',
  '@alice /campaign status',
  '@alice /map',
  '@alice /intel',
  '@referee /army edit army:hadewych fatigued:false',
  '@referee /referee inbox',
  '@alice /move army:hadewych to:0613 unformed:true',
  '!tick',
];

let h: Harness;
const prepared: string[] = [];

beforeAll(async () => {
  h = await consoleHarness({ setup: [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign start',
  ].join('\n') });
  const client = rawSqlite(h.app.db);
  const prepare = client.prepare.bind(client);
  client.prepare = (source: string) => {
    prepared.push(source);
    return prepare(source);
  };
});
afterAll(() => h.close());

describe('statements prepared once per connection', () => {
  it('GIVEN two warm-up rounds of commands and ticks WHEN the same round runs again THEN no statement is prepared', async () => {
    for (let round = 0; round < 2; round++) {
      for (const line of ROUND) await h.run(line);
    }
    // The spy sees what the warm-up prepared: the test would pass vacuously if it saw nothing.
    expect(prepared.length).toBeGreaterThan(0);
    prepared.length = 0;
    const answered: string[] = [];
    for (const line of ROUND) {
      const out = await h.run(line);
      answered.push(...out.map((o) => o.content));
    }
    expect(answered.length).toBeGreaterThan(ROUND.length);
    expect(prepared).toEqual([]);
  });
});
