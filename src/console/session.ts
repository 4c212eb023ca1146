import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../app/app.js';
import { errorMessages, isStoreUnavailable } from '../app/handleError.js';
import type { MessageFile, Reply } from '../app/messages.js';
import { DeliveryLanes, type DeliveryResult, type OutboxItem } from '../app/outbox.js';
import { runCommand, withInvocation } from '../app/journal/invocation.js';
import { ManualClock } from '../app/ports.js';
import { resumeEndedPauses, runDueTicks, sendReminders } from '../app/scheduler/index.js';
import { tickChannel } from '../app/turn/tickChannel.js';
import { findCommand } from '../../commands/index.js';
import { consoleContext, type ConsoleWhere } from './consoleContext.js';
import { consoleText } from './consoleText.js';
import { parseLine } from './parseLine.js';

/** One output line of the console protocol. */
export interface ConsoleOutput {
  readonly to: 'reply' | 'ephemeral' | 'dm' | 'channel';
  readonly user?: string;
  readonly content: string;
  readonly data?: unknown;
  readonly files?: readonly string[];
  /** For DMs and channel posts: the outbox message delivered (a crash-safe check that nothing went out twice). */
  readonly id?: number;
}

export interface ConsoleOptions {
  readonly where: ConsoleWhere;
  /** Folder for images and other files. */
  readonly outDir: string;
  readonly write: (out: ConsoleOutput) => void;
  /** Users whose DMs are "closed" (to play the fallback). */
  readonly closedDms?: ReadonlySet<string>;
  /** Write images under `outDir` (default); false only names them (long automated runs). */
  readonly saveFiles?: boolean;
  /** The reader's time zone for Discord timestamps (default: the machine's). */
  readonly timeZone?: string;
  /** Each message as the app wrote it, before the console reads it as text (what Discord would be sent: tests). */
  readonly onMessage?: (m: Parameters<typeof consoleText>[0]) => void;
}

/**
 * The console transport: the same commands as Discord, one text line at a time. It only parses,
 * calls the command, and delivers what comes back (replies, then the outbox).
 */
export class ConsoleSession {
  private fileCount = 0;
  /**
   * One pool for the session: it looks for dead workers' claims now and then, not after every
   * line. One lane, so a script's output keeps the outbox's order.
   */
  private readonly lanes: DeliveryLanes;

  constructor(private readonly app: App, private readonly opts: ConsoleOptions) {
    this.lanes = new DeliveryLanes(app, (item) => this.deliver(item), { lanes: 1, perSecond: Number.POSITIVE_INFINITY });
  }

  async handle(raw: string): Promise<void> {
    const line = parseLine(raw);
    const app = this.app;
    try {
      switch (line.kind) {
        case 'blank':
        case 'comment':
          return;
        case 'error':
          this.opts.write({ to: 'ephemeral', content: line.message, data: { error: 'console.syntax' } });
          return;
        case 'now':
          if (!(app.clock instanceof ManualClock)) throw new Error('the clock cannot be set in this mode');
          app.clock.set(new Date(line.iso));
          this.opts.write({ to: 'ephemeral', content: `Clock set to ${app.clock.now().toISOString()}.`, data: { now: app.clock.now().toISOString() } });
          break;
        case 'clock': {
          // The scheduler's minute check at the console's clock: pauses that ended, due ticks, reminders.
          const resumed = resumeEndedPauses(app).length;
          const ticks = await runDueTicks(app);
          const played = ticks.reduce((n, t) => n + t.played, 0);
          const reminded = (await sendReminders(app)).reduce((n, r) => n + r.reminded.length, 0);
          this.opts.write({ to: 'ephemeral', content: `Clock check at ${app.clock.now().toISOString()}: ${played} tick(s) played, ${reminded} reminder(s), ${resumed} pause(s) ended.`, data: { clock: app.clock.now().toISOString(), played, reminded, resumed, skipped: ticks.map((t) => t.skipped).filter((x) => x !== undefined) } });
          await this.flush();
          return;
        }
        case 'tick': {
          // `!tick 3` is one invocation of three transactions (docs/replay.md).
          const where = this.opts.where;
          await withInvocation({ kind: 'tick', guildId: where.guildId, channelId: where.channelId, ...(line.count > 1 ? { count: line.count } : {}) }, async () => {
            for (let i = 0; i < line.count; i++) {
              const outcome = tickChannel(app, where);
              this.opts.write({ to: 'ephemeral', content: outcome.played ? `Tick: played ${outcome.from}; now ${outcome.to}.` : `Tick not played: ${outcome.why ?? outcome.reason}`, data: { tick: outcome.played, from: outcome.from, to: outcome.to, reason: outcome.reason } });
              await this.flush();
            }
          });
          return;
        }
        case 'command': {
          const command = findCommand(line.command);
          if (!command) {
            this.opts.write({ to: 'ephemeral', user: line.user, content: `There is no /${line.command}. Try \`@${line.user} /help\`.`, data: { error: 'console.unknownCommand' } });
            return;
          }
          let replies: readonly Reply[];
          try {
            const ctx = consoleContext(app, command, line.user, line.words, line.options, this.opts.where);
            replies = await runCommand(command, ctx);
          } catch (err) {
            replies = errorMessages(err, app.logger, { command: line.command, user: line.user });
          }
          for (const m of replies) this.opts.write(this.toOutput(m, line.user));
          break;
        }
      }
    } catch (err) {
      for (const m of errorMessages(err, app.logger, { line: raw })) this.opts.write(this.toOutput(m, undefined));
    }
    try {
      // After a command, only what this process queued is looked for (a read command costs no
      // look); other lines (a clock set, a tick) look for everything due.
      await this.lanes.drain({ ifQueued: line.kind === 'command' });
    } catch (err) {
      // The store out of reach: the messages wait in the outbox and go out after a later line.
      if (!isStoreUnavailable(err)) throw err;
      app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'console: the outbox waits: the campaign store is unavailable');
    }
  }

  /** Delivers everything in the outbox that is due. */
  async flush(): Promise<void> {
    await this.lanes.drain();
  }

  /** One outbox message, written as a protocol line. */
  private async deliver(item: OutboxItem): Promise<DeliveryResult> {
    if (item.to === 'dm' && item.userId && this.opts.closedDms?.has(item.userId)) return 'dmClosed';
    this.opts.write({
      id: item.id,
      to: item.to,
      ...(item.userId ? { user: item.userId } : {}),
      content: this.text(item),
      // The protocol promises `data` on every line.
      data: item.buttons && item.buttons.length > 0 ? { ...(item.data as object), buttons: item.buttons } : item.data ?? {},
      ...(item.files && item.files.length > 0 ? { files: this.save(item.files) } : {}),
    });
    return 'sent';
  }

  /** A message as console text: cards as text, buttons as commands, timestamps in local time. */
  private text(m: Parameters<typeof consoleText>[0]): string {
    this.opts.onMessage?.(m);
    return consoleText(m, this.app.clock.now(), this.opts.timeZone);
  }

  private toOutput(m: Reply, user: string | undefined): ConsoleOutput {
    return {
      // The console presses no buttons: an update of a pressed message reads as a DM.
      to: m.to === 'update' ? 'dm' : m.to,
      ...(user ? { user } : {}),
      content: this.text(m),
      data: m.data ?? {},
      ...(m.files && m.files.length > 0 ? { files: this.save(m.files) } : {}),
    };
  }

  private save(files: readonly MessageFile[]): string[] {
    if (this.opts.saveFiles === false) return files.map((f) => f.name);
    mkdirSync(this.opts.outDir, { recursive: true });
    return files.map((f) => {
      this.fileCount++;
      const path = join(this.opts.outDir, `${String(this.fileCount).padStart(3, '0')}-${f.name}`);
      writeFileSync(path, f.data);
      return path;
    });
  }
}
