import { createApp } from '../../src/app/createApp.js';
import { seededDice } from '../../src/console/seededDice.js';
import { ManualClock } from '../../src/app/ports.js';
import { loadShippedScenario, mapOf } from '../../src/app/scenarios.js';
import { ConsoleSession, type ConsoleOptions, type ConsoleOutput } from '../../src/console/session.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { testStore } from '../support/store.js';
import { testTempDir } from '../support/tempDirs.js';

/** A message as the app wrote it, before the console read it as text. */
export type ConsoleMessage = Parameters<NonNullable<ConsoleOptions['onMessage']>>[0];

export interface Harness {
  readonly app: ReturnType<typeof createApp>;
  readonly clock: ManualClock;
  /** Dice used before the seeded ones, in order: push to script the next rolls. */
  readonly script: number[];
  readonly outputs: ConsoleOutput[];
  /** Each output's message as the app wrote it (content, cards, buttons), before the console read it: what Discord is sent. */
  readonly messages: ConsoleMessage[];
  /** Runs lines (one string with newlines, or several) and returns the outputs they produced. */
  run(...lines: string[]): Promise<ConsoleOutput[]>;
  last(): ConsoleOutput;
  dms(user: string): ConsoleOutput[];
  channel(): ConsoleOutput[];
  /** Delivers what the outbox owes now (after a use-case called outside a console line, e.g. a button). */
  deliver(): Promise<ConsoleOutput[]>;
  close(): void;
}

/** A console session on a fresh database (testStore(): SQLite in memory, or PostgreSQL on that leg), for scenario tests. */
export async function consoleHarness(opts: { seed?: number; dice?: number[]; databasePath?: string; now?: string; closedDms?: string[]; setup?: string; where?: { guildId: string; channelId: string } } = {}): Promise<Harness> {
  const clock = new ManualClock(new Date(opts.now ?? '2026-11-22T10:00:00Z'));
  const outDir = testTempDir('valormr-test-');
  const dice = seededDice(opts.seed ?? 1, opts.dice ?? []);
  const app = createApp({ databasePath: opts.databasePath ?? testStore(), clock, dice });
  const outputs: ConsoleOutput[] = [];
  const messages: ConsoleMessage[] = [];
  const session = new ConsoleSession(app, {
    where: { guildId: opts.where?.guildId ?? 'console', channelId: opts.where?.channelId ?? 'console', baseDir: process.cwd() },
    outDir,
    write: (o) => outputs.push(o),
    closedDms: new Set(opts.closedDms ?? []),
    timeZone: 'UTC',
    onMessage: (m) => messages.push(m),
  });
  const h: Harness = {
    app,
    clock,
    script: dice.script,
    outputs,
    messages,
    async run(...lines) {
      const start = outputs.length;
      for (const block of lines) for (const line of block.split('\n')) await session.handle(line);
      return outputs.slice(start);
    },
    last() {
      const o = outputs[outputs.length - 1];
      if (!o) throw new Error('no output yet');
      return o;
    },
    dms: (user) => outputs.filter((o) => o.to === 'dm' && o.user === user),
    channel: () => outputs.filter((o) => o.to === 'channel'),
    async deliver() {
      const start = outputs.length;
      await session.flush();
      return outputs.slice(start);
    },
    close: () => app.close(),
  };
  if (opts.setup) await h.run(opts.setup);
  return h;
}

/** Creates the Valormr campaign with the referee as owner and assigns armies to users. */
export const VALORMR_SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
].join('\n');

/**
 * The Autumn War (the shipped Valormr scenario) created at 10:00 on 22 November, its armies
 * assigned (army id -> user), then `more` lines (settings, the start): the table tests' setup.
 */
export function autumnWar(assign: Readonly<Record<string, string>>, ...more: string[]): string {
  return [
    '!now 2026-11-22T10:00Z',
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    ...Object.entries(assign).map(([army, user]) => `@referee /campaign assign army:${army} user:${user}`),
    ...more,
  ].join('\n');
}

/** The console's referee (the `@referee` of a script) as an actor, for reads straight from the app. */
export const CONSOLE_REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

/** The console channel's campaign state, read straight from the database (for assertions). */
export function campaignState(x: Harness): CampaignState {
  return readCampaign(x.app, { actor: CONSOLE_REFEREE }, (tx) => tx.state);
}

/** The id of the console channel's campaign. */
export function campaignIdOf(x: Harness): string {
  return readCampaign(x.app, { actor: CONSOLE_REFEREE }, (tx) => tx.meta.id);
}

export const valormrMap = mapOf(loadShippedScenario('valormr'));

/** Where an army of the Valormr campaign stands now, as a CCRR id. */
export function hexIdOf(x: Harness, armyId: string): string {
  const a = campaignState(x).armies[armyId];
  if (!a) throw new Error(`no army ${armyId}`);
  return valormrMap.format(a.hex);
}
