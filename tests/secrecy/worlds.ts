import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { commands } from '../../commands/index.js';
import type { App } from '../../src/app/app.js';
import type { Command, CommandOptionJson } from '../../src/app/commandContext.js';
import { inCampaign, readCampaign } from '../../src/app/unitOfWork.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { openWebPages, type WebPageReader, type WebPages } from './webReader.js';

/*
 * The differential secrecy harness: one scripted campaign played twice, in two worlds that differ
 * only in a fact hidden from some readers. Every byte a reader receives (replies, ephemeral
 * answers, DMs, channel posts, files) must be the same in both worlds.
 *
 * To add a reader: add a `Reader` whose `receives` picks its outputs. The web pages (a person's,
 * the spectators') are readers too (webReader.ts): what their routes serve at the end, and what
 * their live streams said after each line, under the name `webName(standsFor)`. To add a world variation (secret dice
 * values): add a `Variation` that changes the state before the script and names the readers the
 * fact is hidden from; `normalize` lets a variation say which strings may differ (a commitment hash).
 */

/** Someone who receives outputs: the channel, or a player by their console user name. */
export interface Reader {
  readonly name: string;
  receives(o: ConsoleOutput): boolean;
  /** A player's user id: they also read the autocomplete choices offered to them (at each `!autocomplete` line). */
  readonly user?: string;
}

/** The campaign channel: public replies and channel posts. */
export const CHANNEL_READER: Reader = { name: 'channel', receives: (o) => o.to === 'channel' || o.to === 'reply' };

/** A player: what the channel gets, and their own ephemeral answers and DMs. */
export const player = (user: string): Reader => ({
  name: user,
  user,
  receives: (o) => CHANNEL_READER.receives(o) || ((o.to === 'ephemeral' || o.to === 'dm') && o.user === user),
});

/** A fact hidden from some readers, with the two (or more) values it can take. */
export interface Variation<T> {
  readonly name: string;
  /** The readers (by name) the fact is hidden from. */
  readonly hiddenFrom: readonly string[];
  /** The world with the hidden fact set to `value`. */
  apply(state: CampaignState, value: T): CampaignState;
  /** Strings allowed to differ between worlds, replaced before comparing (none by default). */
  normalize?(text: string): string;
}

export interface Script {
  /** Lines run before the world is made (campaign, settings, assignments). */
  readonly setup: readonly string[];
  /**
   * The campaign as played, one console line each (`!tick` plays a half period). `!autocomplete`
   * (the harness's own line) has each player type into every option that autocompletes.
   */
  readonly play: readonly string[];
}

export const AUTOCOMPLETE = '!autocomplete';
/** What a player types into an option that autocompletes: nothing, a letter, a name's start, digits of a hex. */
export const TYPED = ['', 'a', 'lady', '17'] as const;

interface Typed { readonly command: Command; readonly subcommand: string | undefined; readonly option: string }

/** Every option of every command that autocompletes (in subcommands and groups too). */
function autocompleting(): Typed[] {
  const out: Typed[] = [];
  const walk = (command: Command, options: readonly CommandOptionJson[] | undefined, subcommand: string | undefined): void => {
    for (const o of options ?? []) {
      if (o.type === 1 || o.type === 2) walk(command, o.options, o.type === 1 ? o.name : undefined);
      else if (o.autocomplete) out.push({ command, subcommand, option: o.name });
    }
  };
  for (const command of commands) if (command.autocomplete) walk(command, command.data.toJSON().options, undefined);
  return out;
}

/** The choices each option offers `user` for each thing typed, one line per option and text. */
async function choicesFor(app: App, user: string): Promise<string[]> {
  const lines: string[] = [];
  for (const t of autocompleting()) {
    for (const value of TYPED) {
      const ctx = { app, userId: user, guildId: REFEREE.guildId, channelId: REFEREE.channelId, roleIds: [], subcommand: t.subcommand, focused: { name: t.option, value }, string: () => undefined };
      const choices = await t.command.autocomplete?.(ctx);
      lines.push(JSON.stringify({ autocomplete: `/${t.command.data.name}${t.subcommand ? ` ${t.subcommand}` : ''} ${t.option}:${value}`, choices }));
    }
  }
  return lines;
}

/** How many options autocomplete (for a test that the harness typed into some). */
export const autocompletingOptions = (): number => autocompleting().length;

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

/** What one reader received, in order, one canonical line per output (files as their SHA-256). */
export type Transcript = readonly string[];

/** One world as played: each reader's transcript, and the kinds of event the campaign logged (what the script reached). */
export interface World {
  readonly transcripts: Map<string, Transcript>;
  readonly reached: ReadonlySet<string>;
}

function canonical(o: ConsoleOutput, campaignId: string, normalize: (t: string) => string): string {
  // The outbox id counts every message (the referee's too), and the campaign id is random: neither is content.
  // The console numbers the files it writes in its output folder across every user (003-...): a
  // transport's folder counter, not the attachment's name (Discord gets "battlefield-c1.png").
  const files = (o.files ?? []).map((f) => `${f.replace(/^.*[\\/]/, '').replace(/^\d+-/, '')}:${createHash('sha256').update(readFileSync(f)).digest('hex')}`);
  const text = JSON.stringify({ to: o.to, user: o.user, content: o.content, data: o.data ?? null, files });
  return normalize(text.split(campaignId).join('<campaign>'));
}

/**
 * Where an output lands: the answers to a reader's commands (shown or only to them), their DMs, the
 * campaign channel. A reader sees each place on its own. The order ACROSS places is the delivery
 * lanes' timing (each destination is delivered on its own lane, in parallel), not content, and it
 * varies with the machine's load; the order within a place is the outbox's, and is compared.
 */
const place = (o: ConsoleOutput): string => `${o.to === 'ephemeral' ? 'reply' : o.to}:${o.user ?? ''}`;

/** Outputs grouped by place (a stable sort: each place keeps its own order). */
const byPlace = (outputs: readonly ConsoleOutput[]): ConsoleOutput[] => [...outputs].sort((a, b) => (place(a) < place(b) ? -1 : place(a) > place(b) ? 1 : 0));

/**
 * Plays the script in the world where the hidden fact is `value`; returns each reader's transcript
 * and what it reached. `web`: the web pages read too (their transcripts named by `webName`).
 */
export async function playWorld<T>(script: Script, variation: Variation<T>, value: T, readers: readonly Reader[], web: readonly WebPageReader[] = []): Promise<World> {
  const h: Harness = await consoleHarness({ seed: 5 });
  let pages: WebPages | undefined;
  try {
    await h.run(script.setup.join('\n'));
    const campaignId = readCampaign(h.app, { actor: REFEREE }, (tx) => tx.meta.id);
    inCampaign(h.app, { campaignId }, (tx) => ({ state: variation.apply(tx.state, value), result: undefined }));
    pages = web.length > 0 ? await openWebPages(h, web) : undefined;
    const start = h.outputs.length;
    const offered = new Map<string, string[]>();
    for (const line of script.play) {
      if (line !== AUTOCOMPLETE) {
        await h.run(line);
        await pages?.openAfter(line);
        pages?.checkOpenPages();
        continue;
      }
      const byUser = new Map<string, string[]>();
      for (const user of new Set(readers.flatMap((r) => (r.user !== undefined ? [r.user] : [])))) byUser.set(user, await choicesFor(h.app, user));
      for (const r of readers) if (r.user !== undefined) offered.set(r.name, [...(offered.get(r.name) ?? []), ...(byUser.get(r.user) ?? [])]);
    }
    await h.deliver();
    pages?.checkOpenPages();
    const played = h.outputs.slice(start);
    const normalize = variation.normalize ?? ((t: string) => t);
    const events = readCampaign(h.app, { actor: REFEREE }, (tx) => JSON.parse(tx.read.allEventsJson().json) as { type: string }[]);
    const transcripts = new Map(readers.map((r) => [r.name, [...byPlace(played.filter((o) => r.receives(o))).map((o) => canonical(o, campaignId, normalize)), ...(offered.get(r.name) ?? []).map(normalize)]]));
    for (const [name, lines] of (await pages?.finish()) ?? []) transcripts.set(name, lines.map(normalize));
    return { transcripts, reached: new Set(events.map((e) => e.type)) };
  } finally {
    await pages?.close();
    h.close();
  }
}

/** The first line where two transcripts differ, for a readable failure. */
export function firstDifference(a: Transcript, b: Transcript): string | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    if (a[i] !== b[i]) return `output ${i}:\n  world A: ${a[i] ?? '(nothing)'}\n  world B: ${b[i] ?? '(nothing)'}`;
  }
  return undefined;
}
