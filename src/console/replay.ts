import { formatGameTime, fromIndex } from '../engine/clock/index.js';
import { applyOps, firstDifference, type Json, type PathOp } from '../engine/replay/index.js';
import type { JournalDie } from '../engine/dice/index.js';
import type { App } from '../app/app.js';
import type { CommandContext } from '../app/commandContext.js';
import { runButton, runCommand, withInvocation, type JournalInput, type OptionValue, type Replaying } from '../app/journal/invocation.js';
import { asState, putState, recordedDice, replayApp, startCampaign, storedState } from '../app/journal/replayApp.js';
import { readReplayFile, type ExportedEntry, type ReplayFile } from '../app/journal/replayFile.js';
import { playDueTick, scheduleMissing } from '../app/scheduler/playDueTick.js';
import { resumeWhenPauseEnds } from '../app/campaign/lifecycle.js';
import { replayChannelFault } from '../app/campaign/channelFault.js';
import { tickChannel } from '../app/turn/tickChannel.js';

import { buttons, findCommand } from '../../commands/index.js';
import { gunzipSync } from 'node:zlib';

/** An export file's text: as it is, or unpacked when /campaign export gzipped it to fit Discord (its first bytes 1f 8b). */
export function exportFileText(bytes: Buffer): string {
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * Replay (docs/replay.md): from the journal's first checkpoint, run every recorded invocation again
 * (the same command with the options it read, the same button, the same tick) on a fresh database,
 * at the clock it used, with the dice it drew; after each, the state must be the one the journal
 * recorded (the dice seeds aside: chosen at random, withheld in an export), and at the end the
 * stored state of the export.
 */

/** The dice seeds: chosen at random when a period begins (and withheld in an export until the end); their dice are checked one by one instead. */
const SEEDS = ['rng.seed', 'rng.next', 'rng.secret.master'];

export type ReplayReport =
  | { readonly exact: true; readonly entries: number; readonly invocations: number; readonly checkpoints: number; readonly from: string }
  | {
    readonly exact: false; readonly line: number; readonly seq: number; readonly halfPeriod: string; readonly what: string; readonly why: string;
    readonly path?: string; readonly expected?: string; readonly got?: string;
    /** The difference is between the export's stored state (`expected`) and what the journal replays to (`got`). */
    readonly stored?: boolean;
  };

/** What an entry ran, in words. */
function describe(input: JournalInput | null): string {
  if (!input) return 'a change with no recorded command';
  switch (input.kind) {
    case 'command': {
      const opts = Object.entries(input.options).filter(([, v]) => v !== null).map(([k, v]) => `${k}:${String(v)}`).join(' ');
      return `@${input.actor.userName} /${input.command}${input.subcommand ? ` ${input.subcommand}` : ''}${opts ? ` ${opts}` : ''}`;
    }
    case 'button': return `@${input.userId} pressed ${input.customId}`;
    case 'tick': return input.count && input.count > 1 ? `${input.count} ticks (!tick ${input.count})` : 'a tick (!tick)';
    case 'dueTick': return `the scheduled tick due ${input.dueIso}`;
    case 'pauseEnded': return 'the end of a pause with until: (the scheduler)';
    case 'scheduleMissing': return 'a running campaign given its due time (the scheduler)';
    case 'channelFault': return `a pause for a channel fault (${input.fault.permission ?? input.fault.reason})`;
  }
}

/** The command's context from what the journal recorded: each option as it was read. */
function replayContext(app: App, input: Extract<JournalInput, { kind: 'command' }>): CommandContext {
  const opt = <T extends OptionValue>(name: string, is: (v: OptionValue) => v is T): T | undefined => {
    const v = input.options[name];
    return v !== undefined && v !== null && is(v) ? v : undefined;
  };
  const str = (v: OptionValue): v is string => typeof v === 'string';
  const num = (v: OptionValue): v is number => typeof v === 'number';
  const bool = (v: OptionValue): v is boolean => typeof v === 'boolean';
  return {
    app, ...input.actor, subcommand: input.subcommand ?? undefined,
    string: (n) => opt(n, str), integer: (n) => opt(n, num), number: (n) => opt(n, num), boolean: (n) => opt(n, bool),
    user: (n) => opt(n, str), userLabel: (n) => opt(`label:${n}`, str),
    attachment: () => undefined,
  };
}

/** Runs one recorded invocation again. Refusals and errors are returned as the reason it did not replay. */
async function rerun(app: App, campaignId: string, input: JournalInput, dice: Replaying): Promise<string | undefined> {
  try {
    switch (input.kind) {
      case 'command': {
        const command = findCommand(input.command);
        if (!command) return `there is no /${input.command} in this version`;
        const file = Object.entries(input.options).find(([k, v]) => k.startsWith('file:') && v !== null);
        if (file) return `it read an uploaded file (${String(file[1])}), which the journal does not keep`;
        await runCommand(command, replayContext(app, input), dice);
        return undefined;
      }
      case 'button': {
        const handler = buttons.find((b) => b.prefix === (input.customId.split(':')[0] ?? ''));
        if (!handler) return `no button handler for ${input.customId}`;
        await runButton(handler, { app, userId: input.userId, customId: input.customId, ...(input.userName !== undefined ? { userName: input.userName } : {}), ...(input.roleIds ? { roleIds: input.roleIds } : {}) }, dice);
        return undefined;
      }
      case 'tick':
        // `!tick 3` is one invocation of three transactions.
        withInvocation(input, () => {
          for (let i = 0; i < (input.count ?? 1); i++) tickChannel(app, input);
        }, dice);
        return undefined;
      case 'dueTick':
        withInvocation(input, () => playDueTick(app, campaignId, input.dueIso), dice);
        return undefined;
      case 'pauseEnded':
        withInvocation(input, () => resumeWhenPauseEnds(app, campaignId), dice);
        return undefined;
      case 'scheduleMissing':
        withInvocation(input, () => scheduleMissing(app, campaignId), dice);
        return undefined;
      case 'channelFault':
        withInvocation(input, () => replayChannelFault(app, campaignId, input.fault), dice);
        return undefined;
    }
  } catch (err) {
    return `it failed on replay: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** The entries to replay together: a checkpoint alone, or the entries of one invocation (consecutive, same number). */
function groups(entries: readonly ExportedEntry[]): ExportedEntry[][] {
  const out: ExportedEntry[][] = [];
  for (const e of entries) {
    const last = out.at(-1);
    const prev = last?.at(-1);
    if (last && prev && e.kind === 'entry' && prev.kind === 'entry' && e.invocation !== 0 && e.invocation === prev.invocation) last.push(e);
    else out.push([e]);
  }
  return out;
}

/** Replays a read export. */
async function replay(file: ReplayFile): Promise<ReplayReport> {
  const first = file.entries[0];
  if (!first || first.kind !== 'checkpoint') {
    return { exact: false, line: 2, seq: 0, halfPeriod: '-', what: 'the journal', why: 'the journal does not begin with a checkpoint (the state it starts from)' };
  }
  const id = file.head.meta.id;
  const app = replayApp();
  try {
    let expected = first.change as Json;
    startCampaign(app, file, asState(expected), (first.input as { why?: string } | null)?.why !== 'created');
    let invocations = 0;
    let checkpoints = 1;
    for (const group of groups(file.entries).slice(1)) {
      const head = group[0] as ExportedEntry;
      const where = { line: head.seq + 2, seq: head.seq, halfPeriod: formatGameTime(fromIndex(head.timeIndex)), what: describe(head.input as JournalInput | null) };
      const before = storedState(app, id);
      if (head.kind === 'checkpoint') {
        checkpoints += 1;
        expected = head.change as Json;
        putState(app, before, asState(expected));
        continue;
      }
      expected = group.reduce((s, e) => applyOps(s, e.change as PathOp[]), expected);
      const input = head.input as JournalInput | null;
      if (!input) return { exact: false, ...where, why: 'this change was made by nothing the journal can run again (an entry with no command)' };
      // Each transaction of the invocation runs at its own entry's clock.
      let entered = 0;
      app.clock.set(new Date(head.at));
      const onEntry = (): void => {
        entered += 1;
        const next = group[entered];
        if (next) app.clock.set(new Date(next.at));
      };
      const dice = recordedDice(group.flatMap((e) => (e.dice ?? []) as JournalDie[]));
      const failed = await rerun(app, id, input, { dice, onEntry });
      if (failed) return { exact: false, ...where, why: failed };
      if (dice.left() > 0) return { exact: false, ...where, why: `the original rolled ${dice.left()} more dice than the replay` };
      if (entered !== group.length) return { exact: false, ...where, why: `the original changed the campaign in ${group.length} transaction(s), the replay in ${entered}` };
      const got = storedState(app, id);
      const diff = firstDifference(expected, got, SEEDS);
      if (diff) return { exact: false, ...where, why: 'the state differs', ...diff };
      invocations += 1;
      putState(app, got, asState(expected));
    }
    const last = file.entries.at(-1) as ExportedEntry;
    const stored = firstDifference(file.head.state, expected, SEEDS);
    if (stored) {
      return {
        exact: false, line: 1, seq: last.seq, halfPeriod: formatGameTime(fromIndex(last.timeIndex)), what: 'the stored state (the export\'s "state")',
        why: 'the stored state is not what the journal replays to', path: stored.path, expected: stored.expected, got: stored.got, stored: true,
      };
    }
    return { exact: true, entries: file.entries.length, invocations, checkpoints, from: String((first.input as { why?: string } | null)?.why ?? 'created') };
  } finally {
    app.close();
  }
}

/** The report as the command line prints it. */
export function reportText(r: ReplayReport): string {
  if (r.exact) {
    const from = r.from === 'created' ? 'from its creation' : 'from its checkpoint (a campaign from before the journal: it replays from its state when the journal began)';
    return `replays exactly: ${r.invocations} invocation(s) in ${r.entries} journal entries, ${from}${r.checkpoints > 1 ? `, through ${r.checkpoints - 1} later checkpoint(s)` : ''}; the stored state is the replayed one.`;
  }
  const field = !r.path ? '' : r.stored ? `\n  field ${r.path}: stored ${r.expected ?? '?'}, the journal replays to ${r.got ?? '?'}` : `\n  field ${r.path}: recorded ${r.expected ?? '?'}, replayed ${r.got ?? '?'}`;
  return `DOES NOT REPLAY: at journal entry ${r.seq} (line ${r.line}), ${r.halfPeriod}, ${r.what}: ${r.why}.${field}`;
}

/** Reads and replays an export's text (the file a referee got from `/campaign export`). */
export async function replayText(text: string): Promise<ReplayReport> {
  return replay(readReplayFile(text));
}
