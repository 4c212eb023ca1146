import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { withInvocation } from '../../src/app/journal/invocation.js';
import { tickChannel } from '../../src/app/turn/tickChannel.js';
import { replayText, reportText } from '../../src/console/replay.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import { journalOf } from '../../src/db/journalRepo.js';
import { campaignState, consoleHarness, type Harness } from '../scenarios/harness.js';
import { exported } from './exported.js';

/*
 * Issue 29 item 8, what the first journal left untested: a campaign made from an uploaded scenario,
 * an invocation that changes the campaign in several transactions, and `manual-dice:all` (every
 * roll entered by hand) while the seeds are withheld. Each replays exactly.
 */

let h: Harness | undefined;
afterEach(() => h?.close());

const head = (text: string): { scenario: { name: string }; replay: { entries: unknown[] } } => JSON.parse(`${text.split('\n')[0] ?? ''}]}}`) as never;
const WHERE = { guildId: 'console', channelId: 'console' };

describe('replay: a campaign made from an uploaded scenario file', () => {
  it('GIVEN `/campaign create file:` (the only command that reads an upload) WHEN played and replayed THEN the journal starts from the campaign as created, the file\'s scenario travels in the export, and it replays exactly', async () => {
    const upload = fileURLToPath(new URL('../../docs/cases/scenarios/ackslands.json', import.meta.url));
    h = await consoleHarness({ seed: 9 });
    await h.run(`@referee /campaign create name:"Uploaded" file:"${upload}"`, '@referee /campaign assign army:reg150 user:alice', '@referee /campaign start', '@alice /rest', '!tick', '!tick');
    const text = await exported(h);
    expect(head(text).scenario.name).toBe((JSON.parse(readFileSync(upload, 'utf8')) as { name: string }).name);
    // The upload is read by the creation, whose whole result is the journal's first checkpoint: nothing re-reads the file.
    expect(text.split('\n')[1]).toMatch(/^\{"seq":0,"kind":"checkpoint",.*"input":\{"why":"created"\}/);
    expect(journalOf(h.app.db, campaignState(h).id).some((e) => JSON.stringify(e.input).includes('"file:'))).toBe(false);
    expect(reportText(await replayText(text))).toMatch(/^replays exactly: \d+ invocation\(s\) in \d+ journal entries, from its creation/);
  });
});

describe('replay: one invocation, several transactions', () => {
  it('GIVEN `!tick 3` (one invocation that changes the campaign three times) WHEN replayed THEN its three entries share one invocation and it replays exactly', async () => {
    h = await consoleHarness({ seed: 4 });
    await h.run('@referee /campaign create scenario:valormr name:"Autumn War"', '@referee /campaign assign army:hadewych user:alice', '@referee /campaign start', '@alice /move army:hadewych to:0817', '!tick 3');
    const ticks = journalOf(h.app.db, campaignState(h).id).filter((e) => (e.input as { kind?: string } | null)?.kind === 'tick');
    expect(ticks).toHaveLength(3);
    expect(new Set(ticks.map((e) => e.invocation)).size).toBe(1);
    expect(reportText(await replayText(await exported(h)))).toMatch(/^replays exactly/);
  });

  it('GIVEN an invocation whose transactions ran at different times WHEN replayed THEN each runs at its own entry\'s clock and it replays exactly', async () => {
    h = await consoleHarness({ seed: 4 });
    await h.run('@referee /campaign create scenario:valormr name:"Autumn War"', '@referee /campaign assign army:hadewych user:alice', '@referee /campaign start');
    const x = h;
    withInvocation({ kind: 'tick', ...WHERE, count: 2 }, () => {
      tickChannel(x.app, WHERE);
      x.clock.set(new Date(x.clock.now().getTime() + 5 * 3_600_000));
      tickChannel(x.app, WHERE);
    });
    const ats = journalOf(h.app.db, campaignState(h).id).filter((e) => (e.input as { kind?: string } | null)?.kind === 'tick').map((e) => e.at);
    expect(ats).toHaveLength(2);
    expect(ats[0]).not.toBe(ats[1]);
    expect(reportText(await replayText(await exported(h)))).toMatch(/^replays exactly/);
  });

  it('GIVEN an invocation recorded as one tick that changed the campaign twice WHEN replayed THEN it does not replay, saying how many transactions each made', async () => {
    h = await consoleHarness({ seed: 4 });
    await h.run('@referee /campaign create scenario:valormr name:"Autumn War"', '@referee /campaign assign army:hadewych user:alice', '@referee /campaign start');
    const x = h;
    withInvocation({ kind: 'tick', ...WHERE }, () => {
      tickChannel(x.app, WHERE);
      tickChannel(x.app, WHERE);
    });
    const report = await replayText(await exported(h));
    expect(report.exact).toBe(false);
    expect(reportText(report)).toMatch(/^DOES NOT REPLAY: at journal entry \d+ \(line \d+\), Day 1, morning, a tick \(!tick\): /);
  });
});

/** The manual dice asked of each user in `out`, entered: a value from each request's id, within its sides. */
function entries(out: readonly ConsoleOutput[]): string[] {
  return out.filter((o) => o.to === 'dm' && (o.data as { type?: string }).type === 'diceAsked').flatMap((o) => (o.data as { requests: { id: string; sides: number }[] }).requests
    .map((r) => `@${o.user ?? ''} /dice enter roll:${r.id} value:${(r.id.charCodeAt(1) % r.sides) + 1}`));
}

describe('replay: manual-dice:all with the seeds withheld', () => {
  // Once flaky (about one run in three a replay asked a fog/wind die the original had not): the dice
  // asked after a tick followed the period's seed, which the export withholds and replay draws
  // afresh. They follow the state alone now (tests/app/manualDiceAfterTick.test.ts).
  it('GIVEN every roll entered by hand (weather, contact dice) in a running campaign WHEN exported and replayed THEN no seed is in the file, dice entered by hand are in the journal, and it replays exactly', async () => {
    h = await consoleHarness({ seed: 6 });
    await h.run(
      '@referee /campaign create scenario:valormr name:"Autumn War"',
      '@referee /campaign assign army:hadewych user:alice', '@referee /campaign assign army:grallune user:bob',
      '@referee /army edit army:hadewych hex:1122', '@referee /army edit army:grallune hex:1121',
      '@referee /campaign settings manual-dice:all', '@referee /campaign start',
    );
    let asked = 0;
    for (let round = 0; round < 4; round++) {
      const out = await h.run('!tick');
      const lines = entries(out);
      asked += lines.length;
      await h.run(...lines, '@alice /engage', '@bob /engage');
    }
    expect(asked).toBeGreaterThan(0);
    const { rng } = campaignState(h);
    const text = await exported(h);
    for (const s of [rng.seed, rng.next, rng.secret?.master ?? 'no master']) expect(text).not.toContain(s);
    const dice = journalOf(h.app.db, campaignState(h).id).flatMap((e) => (e.dice ?? []) as { source: string }[]);
    expect(dice.filter((d) => d.source === 'manual').length).toBeGreaterThan(0);
    expect(reportText(await replayText(text))).toMatch(/^replays exactly/);
  });
});
