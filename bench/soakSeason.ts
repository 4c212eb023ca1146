import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buttons } from '../commands/index.js';
import type { ButtonHandler } from '../src/app/commandContext.js';
import { createApp } from '../src/app/createApp.js';
import { runButton } from '../src/app/journal/invocation.js';
import { ManualClock } from '../src/app/ports.js';
import { readCampaign } from '../src/app/unitOfWork.js';
import { ConsoleSession, type ConsoleOutput } from '../src/console/session.js';
import { seededDice } from '../src/console/seededDice.js';
import { createRngState, SeededDice } from '../src/engine/dice/index.js';
import { isWater, type MapModel } from '../src/engine/map/index.js';
import type { CampaignState } from '../src/engine/state/index.js';

/** The players' side of a season: who commands what, where marches go, and the army watched by the timed commands. */
export interface Cast {
  readonly actor: { userId: string; userName: string; guildId: string; channelId: string; roleIds: string[] };
  readonly map: MapModel;
  readonly armies: readonly string[];
  readonly owner: ReadonlyMap<string, string>;
  /** Land hexes, the targets of marches. */
  readonly land: readonly string[];
  /** The army whose commander sends the timed commands. */
  readonly watched: string;
  readonly watcher: string;
}

/** A season being played: the app and its console, the players and their armies, the dice that choose for them. */
export interface Season extends Cast {
  readonly app: ReturnType<typeof createApp>;
  readonly clock: ManualClock;
  readonly session: ConsoleSession;
  /** Everything the console wrote (kept for the secrecy check at the end). */
  readonly outputs: ConsoleOutput[];
  readonly dir: string;
  readonly databasePath: string;
  readonly run: (line: string) => Promise<ConsoleOutput[]>;
  /** The dice that choose for the players. */
  readonly pick: SeededDice;
  readonly one: <T>(xs: readonly T[], purpose: string) => T;
  readonly read: <T>(fn: (s: CampaignState) => T) => T;
  readonly contactButtons: ButtonHandler;
}

type Console = Omit<Season, keyof Cast>;

const ACTOR = { userId: 'referee', userName: 'referee', guildId: 'soak', channelId: 'soak', roleIds: [] };

/** The app on a database (new or existing), its console, and the players' dice. */
export function seasonConsole(opts: { databasePath: string; dir: string; seed: number; now: Date; pickSeed: number }): Console {
  const clock = new ManualClock(opts.now);
  const app = createApp({ databasePath: opts.databasePath, clock, dice: seededDice(opts.seed) });
  const outputs: ConsoleOutput[] = [];
  const session = new ConsoleSession(app, { where: { guildId: 'soak', channelId: 'soak', baseDir: process.cwd() }, outDir: opts.dir, write: (o) => outputs.push(o), saveFiles: false });
  const run = async (line: string): Promise<ConsoleOutput[]> => {
    const from = outputs.length;
    await session.handle(line);
    return outputs.slice(from);
  };
  const pick = new SeededDice(createRngState(opts.pickSeed));
  const one = <T>(xs: readonly T[], purpose: string): T => xs[pick.roll(xs.length, purpose) - 1] as T;
  const contactButtons = buttons.find((b) => b.prefix === 'contact');
  if (!contactButtons) throw new Error('no contact button handler');
  const read = <T>(fn: (s: CampaignState) => T): T => readCampaign(app, { actor: ACTOR }, (tx) => fn(tx.state));
  return { app, clock, session, outputs, dir: opts.dir, databasePath: opts.databasePath, run, pick, one, read, contactButtons };
}

/** The app on a fresh database, the Valormr campaign created, its 24 armies given to 12 players, and started. */
export async function openSeason(opts: { seed: number; databasePath?: string }): Promise<Season> {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-soak-'));
  const databasePath = opts.databasePath ?? join(dir, 'soak.db');
  const con = seasonConsole({ databasePath, dir, seed: opts.seed, now: new Date('2026-11-22T07:00:00Z'), pickSeed: opts.seed * 7919 });
  const { run, read, app } = con;
  await run('@referee /campaign create scenario:valormr name:"Season"');
  const map = readCampaign(app, { actor: ACTOR }, (tx) => tx.map);
  const armies = read((s) => Object.keys(s.armies).sort());
  const owner = new Map(armies.map((id, i) => [id, `p${(i % 12) + 1}`]));
  for (const [id, user] of owner) await run(`@referee /campaign assign army:${id} user:${user}`);
  await run('@referee /campaign start');
  const land = map.allHexes().filter((h) => !isWater(map.terrainAt(h))).map((h) => map.format(h));
  const watched = armies[0] as string;
  return { ...con, actor: ACTOR, map, armies, owner, land, watched, watcher: owner.get(watched) as string };
}

/** Each army an order at random (marches, some forced or unformed, rests, couriers, holds): the command lines. */
export function orderLines(season: Season, k: number): string[] {
  const { one, armies, land } = season;
  const pick = (purpose: string): number => season.pick.d6(purpose);
  return armies.map((id) => {
    const user = season.owner.get(id) as string;
    const r = pick('order');
    if (r <= 3) {
      const extra = pick('forced') === 6 ? ' forced:true' : pick('unformed') >= 5 ? ' unformed:true' : '';
      return `@${user} /move army:${id} to:${one(land, 'target')}${extra}`;
    }
    if (r === 4) return `@${user} /rest army:${id}`;
    if (r === 5 && pick('courier') === 6) return `@${user} /courier send from-army:${id} to-army:${one(armies, 'recipient')} message:"Report at dusk, ${k}"`;
    return `@${user} /hold army:${id}`;
  });
}

/** The fixed mix of commands users send most (the watched army's commander): `/army status`, `/move`, `/turn status`, `/intel`. */
export function commandLines(season: Season): string[] {
  const { watched, watcher } = season;
  return [`@${watcher} /army status army:${watched}`, `@${watcher} /move army:${watched} to:${season.one(season.land, 'watched target')}`, `@${watcher} /turn status`, `@${watcher} /intel army:${watched}`];
}

/** Every contact prompt is answered by one of its buttons, at random. Returns how many answers were taken. */
export async function answerPrompts(season: Season, fromTick: readonly ConsoleOutput[]): Promise<number> {
  let answered = 0;
  for (const o of fromTick) {
    const choices = ((o.data as { buttons?: { id: string }[] } | undefined)?.buttons ?? []).map((b) => b.id);
    if (o.to !== 'dm' || choices.length === 0 || !o.user) continue;
    try {
      await runButton(season.contactButtons, { app: season.app, userId: o.user, customId: season.one(choices, 'answer') });
      answered++;
    } catch {
      // A prompt already settled by the other side's answer: as a player would see it.
    }
    await season.session.flush();
  }
  return answered;
}

/** Every battle is recorded. */
export async function recordBattles(season: Season): Promise<void> {
  const list = await season.run('@referee /battle list');
  for (const m of (list[0]?.content ?? '').matchAll(/\b(c\d+)\b/g)) await season.run(`@referee /battle result contact:${m[1]}`);
}
