/**
 * Test harness: a fake Discord, a real in-memory App (real migrations) and the real bot logged in
 * against the fake.
 */
import type { App } from '../../src/app/app.js';
import { createApp } from '../../src/app/createApp.js';
import { seededDice } from '../../src/console/seededDice.js';
import type { Logger } from '../../src/app/ports.js';
import { startDiscordBot, type DiscordBot, type DiscordBotOptions } from '../../src/discord/bot.js';
import { commandPayloads } from '../../src/discord/registration.js';
import type { ButtonHandler, Command } from '../../src/app/commandContext.js';
import { FakeDiscord } from './fakeDiscord.js';
import { testStore } from '../support/store.js';

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly obj: Record<string, unknown>;
  readonly msg: string | undefined;
}

export class RecordingLogger implements Logger {
  readonly entries: LogEntry[] = [];
  debug(obj: object, msg?: string): void { this.entries.push({ level: 'debug', obj: obj as Record<string, unknown>, msg }); }
  info(obj: object, msg?: string): void { this.entries.push({ level: 'info', obj: obj as Record<string, unknown>, msg }); }
  warn(obj: object, msg?: string): void { this.entries.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }); }
  error(obj: object, msg?: string): void { this.entries.push({ level: 'error', obj: obj as Record<string, unknown>, msg }); }
  at(level: LogEntry['level']): LogEntry[] { return this.entries.filter((e) => e.level === level); }
  /** Everything logged, as text (to look for secrets). */
  text(): string {
    return JSON.stringify(this.entries, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v));
  }
}

export class TestClock {
  constructor(public current = new Date('2026-11-22T12:00:00Z')) {}
  now(): Date { return new Date(this.current); }
  advance(ms: number): void { this.current = new Date(this.current.getTime() + ms); }
}

/** Referee, two players and a co-referee with the referee role. */
export const PEOPLE = {
  referee: { id: '300000000000000001', username: 'Ref' },
  alice: { id: '300000000000000002', username: 'Alice' },
  bob: { id: '300000000000000003', username: 'Bob' },
  cora: { id: '300000000000000004', username: 'Cora' },
} as const;

export interface Harness {
  readonly fake: FakeDiscord;
  readonly bot: DiscordBot;
  readonly app: App;
  readonly clock: TestClock;
  readonly logs: RecordingLogger;
  stop(): Promise<void>;
}

export async function startHarness(opts: {
  commands: readonly Command[];
  buttons?: readonly ButtonHandler[];
  deliveryIntervalMs?: number;
  safetyDeferMs?: number;
  seed?: number;
  dice?: number[];
  heartbeatIntervalMs?: number;
  /** More options of the bot (REST timeout, stop grace, fatal handler...). */
  bot?: Partial<DiscordBotOptions>;
}): Promise<Harness> {
  const fake = await FakeDiscord.start({
    ...(opts.heartbeatIntervalMs ? { heartbeatIntervalMs: opts.heartbeatIntervalMs } : {}),
    users: [
      { ...PEOPLE.referee },
      { ...PEOPLE.alice },
      { ...PEOPLE.bob },
      { ...PEOPLE.cora },
    ],
  });
  fake.members.get(PEOPLE.cora.id)!.roles.push(fake.refereeRoleId);
  fake.setCommands(commandPayloads(opts.commands));
  const logs = new RecordingLogger();
  const clock = new TestClock();
  const app = createApp({ databasePath: testStore(), clock, logger: logs, dice: seededDice(opts.seed ?? 42, opts.dice ?? []) });
  const bot = await startDiscordBot({
    app,
    token: fake.token,
    commands: opts.commands,
    buttons: opts.buttons ?? [],
    logger: logs,
    restApi: fake.restApi,
    deliveryIntervalMs: opts.deliveryIntervalMs ?? 60_000,
    safetyDeferMs: opts.safetyDeferMs ?? 1000,
    ...opts.bot,
  });
  return {
    fake, bot, app, clock, logs,
    async stop() {
      await bot.stop();
      await fake.close();
      app.close();
    },
  };
}

/** A 1x1 PNG. */
export const TINY_PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What a reader sees of a message: its content and its embeds' text (title, description, fields, footer). */
export function seenText(m: { readonly content: string; readonly embeds: readonly unknown[] }): string {
  const embeds = m.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } }[];
  return [m.content, ...embeds.flatMap((e) => [e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), e.footer?.text ?? ''])].filter(Boolean).join('\n');
}
