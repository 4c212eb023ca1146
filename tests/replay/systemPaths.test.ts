import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { runDelivery } from '../../src/app/outbox.js';
import { tickChannel } from '../../src/app/turn/tickChannel.js';
import { replayText, reportText } from '../../src/console/replay.js';
import { startScheduler } from '../../src/cron/startScheduler.js';
import { journalOf } from '../../src/db/journalRepo.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { exported } from './exported.js';

/*
 * Issue 29 item 8: every path that changes a campaign's state is journalled, not only the
 * transports' commands and buttons. The bot's own changes (the scheduler's due ticks, early ticks,
 * a pause's `until:`, an `/away until:` running out, reminders; the delivery loop's pause for a
 * lost channel) are played at random between commands; every journal entry must name what runs it
 * again, and the export must replay exactly.
 */

let h: Harness | undefined;
afterEach(() => h?.close());

/** One run of the production scheduler (every job of startScheduler: pauses, due ticks, reminders, pre-warm, pruning). */
function schedulerRun(x: Harness): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = startScheduler(x.app, { trigger: () => ({ stop: () => undefined }), onRun: () => (s.stop(), resolve()), onError: reject });
  });
}

/** A half period played outside the console (its posts left in the outbox), then delivered to a channel that is gone. */
async function channelLost(x: Harness): Promise<void> {
  tickChannel(x.app, { guildId: 'console', channelId: 'console' });
  await runDelivery(x.app, (item) => Promise.resolve(item.to === 'channel' ? { result: 'permanent', reason: 'Unknown Channel' } : 'sent'));
}

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:bob',
  '@referee /campaign settings early-tick:30',
  '@referee /campaign start',
];

type Step = string | 'LATER' | 'MUCH-LATER' | 'SCHEDULER' | 'CHANNEL-LOST';
const STEPS: readonly Step[] = [
  '@alice /move army:hadewych to:0817', '@alice /rest army:hadewych', '@bob /rest army:aeskrvald', '@bob /move army:aeskrvald to:0710',
  '@alice /ready', '@bob /ready', '@alice /away until:6h', '@bob /away until:1d',
  '@referee /campaign pause until:3h', '@referee /campaign resume', '@referee /turn undo',
  '!tick', 'LATER', 'MUCH-LATER', 'SCHEDULER', 'SCHEDULER', 'CHANNEL-LOST',
];

async function play(x: Harness, step: Step): Promise<void> {
  const later = (hours: number): void => x.clock.set(new Date(x.clock.now().getTime() + hours * 3_600_000));
  if (step === 'LATER') later(2.5);
  else if (step === 'MUCH-LATER') later(13);
  else if (step === 'SCHEDULER') await schedulerRun(x);
  else if (step === 'CHANNEL-LOST') await channelLost(x);
  else await x.run(step);
}

describe('replay: the bot\'s own changes are journalled', () => {
  it('GIVEN commands, the scheduler (due and early ticks, pause and away ending, reminders) and a lost channel at random WHEN exported THEN every journal entry names what runs it again and it replays exactly', async () => {
    const kinds = new Set<string>();
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom(...STEPS), { minLength: 6, maxLength: 18 }), fc.integer({ min: 1, max: 1000 }), async (steps, seed) => {
      h?.close();
      h = await consoleHarness({ seed });
      await h.run(...SETUP);
      for (const s of steps) await play(h, s);
      await play(h, 'MUCH-LATER');
      await play(h, 'SCHEDULER');
      const text = await exported(h);
      const entries = journalOf(h.app.db, JSON.parse(text.split('\n')[0] + ']}}').meta.id as string).filter((e) => e.kind === 'entry');
      for (const e of entries) kinds.add((e.input as { kind: string }).kind);
      expect(entries.filter((e) => e.input === null)).toEqual([]);
      expect(reportText(await replayText(text))).toMatch(/^replays exactly/);
    // The generated runs may all lose the channel or stay paused; this one always reaches a due tick,
    // so the check below does not depend on what four random runs happened to do.
    }), { numRuns: 4, endOnFailure: true, examples: [[['@alice /move army:hadewych to:0817', '!tick', 'LATER', 'SCHEDULER', 'MUCH-LATER', 'SCHEDULER'], 7]] });
    // The scheduler played ticks and the runs reached the bot's own changes.
    expect([...kinds]).toEqual(expect.arrayContaining(['command', 'dueTick', 'tick']));
  });

  it('GIVEN a pause with until:, a lost channel and the scheduler WHEN exported THEN each of the bot\'s own changes is an entry of its own kind and it replays exactly', async () => {
    h = await consoleHarness({ seed: 5 });
    await h.run(...SETUP, '@alice /away until:12h', '@referee /campaign pause until:1d');
    await play(h, 'MUCH-LATER');
    await play(h, 'MUCH-LATER');
    await play(h, 'SCHEDULER');
    await play(h, 'CHANNEL-LOST');
    await h.run('@referee /campaign resume', '@bob /ready', '@alice /ready');
    await play(h, 'LATER');
    await play(h, 'SCHEDULER');
    const text = await exported(h);
    const kinds = journalOf(h.app.db, JSON.parse(text.split('\n')[0] + ']}}').meta.id as string).filter((e) => e.kind === 'entry').map((e) => (e.input as { kind: string } | null)?.kind ?? 'none');
    expect(kinds).toEqual(expect.arrayContaining(['pauseEnded', 'channelFault', 'dueTick', 'tick']));
    expect(kinds).not.toContain('none');
    expect(reportText(await replayText(text))).toMatch(/^replays exactly/);
  });
});

/** Every .ts file under `dir`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('replay: the paths outside the transports are the ones enumerated', () => {
  it('GIVEN the scheduler WHEN its jobs are listed THEN they are the ones the property above runs (a new job must be journalled or shown to change no state)', () => {
    const src = readFileSync('src/cron/startScheduler.ts', 'utf8');
    const jobs = [...src.matchAll(/^import \{([^}]*)\} from '\.\.\/app\/[^']*';$/gm)].flatMap((m) => (m[1] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '' && !s.startsWith('type ')));
    // Journalled: resumeEndedPauses (pauseEnded), runDueTicks (dueTick, scheduleMissing). No state change:
    // sendReminders (reminder columns), prewarmDue (a read), pruneDelivered and pruneInteractions (outbox and claims),
    // packCold (how cold rows are stored: every reader gets the same text back, tests/app/packedRows.test.ts),
    // keepExportParts (files beside the database: the export's closed parts, tests/app/exportKeep.test.ts).
    // isStoreUnavailable is no job: it tells a lost store from other errors (src/app/handleError.ts).
    const helpers = new Set(['isStoreUnavailable']);
    expect(jobs.filter((j) => !helpers.has(j)).sort()).toEqual(['keepExportParts', 'packCold', 'prewarmDue', 'pruneDelivered', 'pruneInteractions', 'resumeEndedPauses', 'runDueTicks', 'sendReminders']);
  });

  it('GIVEN the web page WHEN its code is read THEN it never opens a write transaction on a campaign (it is a reader only)', () => {
    for (const f of [...tsFiles('src/web'), ...tsFiles('src/app/web')]) expect(readFileSync(f, 'utf8'), f).not.toMatch(/\binCampaign\(|saveState\(/);
  });
});
