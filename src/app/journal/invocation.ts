import { AsyncLocalStorage } from 'node:async_hooks';
import { randomInt } from 'node:crypto';
import type { RecordedDice } from '../../engine/dice/index.js';
import type { ButtonHandler, Command, CommandContext } from '../commandContext.js';
import type { Reply } from '../messages.js';

/** An option value as the journal keeps it (a user option keeps its id; `label:<name>` its display name). */
export type OptionValue = string | number | boolean | null;

/** Who gave a command, as the journal keeps it (enough to give it again). */
export interface JournalActor {
  readonly userId: string;
  readonly userName: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly roleIds: readonly string[];
}

/**
 * What a journal entry runs again (docs/replay.md): a slash command with the options it read, a
 * button press, the console's `!tick` (a half period played now in a channel), the scheduler's
 * due tick, or one of the bot's own changes: a pause whose `until:` came (the scheduler), a running
 * campaign given its due time (the scheduler), a campaign paused because its channel refused a
 * post for good (the delivery loop).
 */
export type JournalInput =
  | { readonly kind: 'command'; readonly command: string; readonly subcommand: string | null; readonly actor: JournalActor; readonly options: Readonly<Record<string, OptionValue>> }
  | { readonly kind: 'button'; readonly customId: string; readonly userId: string; readonly userName?: string; readonly roleIds?: readonly string[] }
  | { readonly kind: 'tick'; readonly guildId: string; readonly channelId: string }
  | { readonly kind: 'dueTick'; readonly campaignId: string; readonly dueIso: string }
  | { readonly kind: 'pauseEnded'; readonly campaignId: string }
  | { readonly kind: 'scheduleMissing'; readonly campaignId: string }
  | { readonly kind: 'channelFault'; readonly campaignId: string; readonly fault: ChannelFault };

/** A post to a campaign's channel refused for good: why, as the pause tells the referee. */
export interface ChannelFault {
  readonly reason: string;
  /** The permission the bot lacks there, as the platform names it. */
  readonly permission?: string;
  /** A refusal the live permissions do not explain: the permissions held. */
  readonly held?: readonly string[];
}

/** The invocation under way: what the journal records for each transaction it runs. */
export interface Invocation {
  /** Entries of one invocation share this number (a command may run several transactions). */
  readonly id: number;
  readonly input: JournalInput;
  /** Replay only: the dice the original drew, given back in order. */
  readonly recorded?: RecordedDice;
}

const current = new AsyncLocalStorage<Invocation>();
let counter = randomInt(1, 2 ** 30);

/** The invocation the running code belongs to, if a transport or the scheduler named one. */
export function currentInvocation(): Invocation | undefined {
  return current.getStore();
}

/** Runs `fn` as one invocation (an inner one, e.g. `/turn advance` playing a tick, stays part of the outer). */
export function withInvocation<T>(input: JournalInput, fn: () => T, recorded?: RecordedDice): T {
  if (current.getStore()) return fn();
  counter = counter >= 2 ** 30 ? 1 : counter + 1;
  return current.run({ id: counter, input, ...(recorded ? { recorded } : {}) }, fn);
}

/**
 * Runs one of the bot's own changes (not a user's: a pause ending, a delivery fault) as an
 * invocation of its own, even when the code calling it runs in a command's async context (a
 * delivery loop started from one): replay runs it by itself.
 */
export function withOwnInvocation<T>(input: JournalInput, fn: () => T, recorded?: RecordedDice): T {
  // Under replay (an invocation given its recorded dice) it is that invocation, run again.
  if (current.getStore()?.recorded) return fn();
  counter = counter >= 2 ** 30 ? 1 : counter + 1;
  return current.run({ id: counter, input, ...(recorded ? { recorded } : {}) }, fn);
}

/** A command's context that writes into `options` every option the command reads. */
function recording(ctx: CommandContext, options: Record<string, OptionValue>): CommandContext {
  const read = <T extends OptionValue | undefined>(name: string, v: T): T => {
    options[name] = v === undefined ? null : v;
    return v;
  };
  return {
    ...ctx,
    string: (n) => read(n, ctx.string(n)),
    integer: (n) => read(n, ctx.integer(n)),
    number: (n) => read(n, ctx.number(n)),
    boolean: (n) => read(n, ctx.boolean(n)),
    user: (n) => read(n, ctx.user(n)),
    userLabel: (n) => read(`label:${n}`, ctx.userLabel(n)),
    // A file's content is not kept: a journaled command that reads one cannot be replayed (said so).
    attachment: (n) => {
      const f = ctx.attachment(n);
      options[`file:${n}`] = f ? f.name : null;
      return f;
    },
  };
}

/** Runs a slash command as a journaled invocation (both transports call this, never `execute` directly). */
export function runCommand(command: Command, ctx: CommandContext, recorded?: RecordedDice): Promise<readonly Reply[]> {
  const options: Record<string, OptionValue> = {};
  const actor: JournalActor = { userId: ctx.userId, userName: ctx.userName, guildId: ctx.guildId, channelId: ctx.channelId, roleIds: [...ctx.roleIds] };
  return withInvocation({ kind: 'command', command: command.data.name, subcommand: ctx.subcommand ?? null, actor, options }, () => command.execute(recording(ctx, options)), recorded);
}

/** Runs a button press as a journaled invocation. */
export function runButton(handler: ButtonHandler, ctx: Parameters<ButtonHandler['execute']>[0], recorded?: RecordedDice): Promise<readonly Reply[]> {
  const input: JournalInput = { kind: 'button', customId: ctx.customId, userId: ctx.userId, ...(ctx.userName !== undefined ? { userName: ctx.userName } : {}), ...(ctx.roleIds ? { roleIds: [...ctx.roleIds] } : {}) };
  return withInvocation(input, () => handler.execute(ctx), recorded);
}
