import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inCampaign, readCampaign } from '../../src/app/session.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import type { CampaignState } from '../../src/engine/state/campaign.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';

/*
 * The differential secrecy harness: one scripted campaign played twice, in two worlds that differ
 * only in a fact hidden from some readers. Every byte a reader receives (replies, ephemeral
 * answers, DMs, channel posts, files) must be the same in both worlds.
 *
 * To add a reader (the web page, a spectator): add a `Reader` whose `receives` picks its outputs
 * (or whose `extra` reads what it sees after each line). To add a world variation (secret dice
 * values): add a `Variation` that changes the state before the script and names the readers the
 * fact is hidden from; `normalize` lets a variation say which strings may differ (a commitment hash).
 */

/** Someone who receives outputs: the channel, or a player by their console user name. */
export interface Reader {
  readonly name: string;
  receives(o: ConsoleOutput): boolean;
}

/** The campaign channel: public replies and channel posts. */
export const CHANNEL_READER: Reader = { name: 'channel', receives: (o) => o.to === 'channel' || o.to === 'reply' };

/** A player: what the channel gets, and their own ephemeral answers and DMs. */
export const player = (user: string): Reader => ({
  name: user,
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
  /** The campaign as played, one console line each (`!tick` plays a half period). */
  readonly play: readonly string[];
}

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

/** Plays the script in the world where the hidden fact is `value`; returns each reader's transcript and what it reached. */
export async function playWorld<T>(script: Script, variation: Variation<T>, value: T, readers: readonly Reader[]): Promise<World> {
  const h: Harness = await consoleHarness({ seed: 5 });
  try {
    await h.run(script.setup.join('\n'));
    const campaignId = readCampaign(h.app, { actor: REFEREE }, (tx) => tx.meta.id);
    inCampaign(h.app, { campaignId }, (tx) => ({ state: variation.apply(tx.state, value), result: undefined }));
    const start = h.outputs.length;
    for (const line of script.play) await h.run(line);
    await h.deliver();
    const played = h.outputs.slice(start);
    const normalize = variation.normalize ?? ((t: string) => t);
    const events = readCampaign(h.app, { actor: REFEREE }, (tx) => JSON.parse(tx.read.allEventsJson().json) as { type: string }[]);
    return {
      transcripts: new Map(readers.map((r) => [r.name, played.filter((o) => r.receives(o)).map((o) => canonical(o, campaignId, normalize))])),
      reached: new Set(events.map((e) => e.type)),
    };
  } finally {
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
