import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { buttons, commands } from '../commands/index.js';
import type { App } from './app/app.js';
import { campaignCounts } from './app/campaignCounts.js';
import { createApp } from './app/createApp.js';
import { describeTarget, isPostgresTarget } from './app/storeTarget.js';
import type { Logger } from './app/ports.js';
import { databaseTarget, type Config } from './config.js';
import { cronTrigger, startScheduler, type Scheduler } from './cron/startScheduler.js';
import { DatabaseFileGuard, DatabaseGoneError, openOrExplain } from './databaseGuard.js';
import { startDiscordBot, type DiscordBot } from './discord/bot.js';
import { failureLine } from './failure.js';
import { linkToWebElsewhere, startWebFromConfig } from './web/startWeb.js';
import type { WebServer } from './web/server.js';

/** Exit code when Discord or the database will not let the bot go on (a supervisor restarts or alerts). */
const FATAL_EXIT_CODE = 1;
/** A stop (signal or fatal state) never takes longer than this: then the process exits regardless. */
const HARD_EXIT_MS = 1900;
/** How often the database file is checked besides before each scheduler and delivery run. */
const GUARD_INTERVAL_MS = 2000;

/** Discord's formula: the shard that receives a guild's events, and so plays its campaigns. */
function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** The app as the bot process opens it: closed on the way out. */
type ClosableApp = App & { close(): void };

/** What is running, filled in as it starts (a stop may come at any point). */
interface Parts {
  bot?: DiscordBot;
  scheduler?: Scheduler;
  guardTimer?: NodeJS.Timeout;
  web?: WebServer;
}

/** The process's way out: a stop (exit code), a fatal state (the reason, exit 1), and the database check. */
interface Stopper {
  readonly stop: (exitCode: number) => Promise<void>;
  readonly fatal: (error: Error) => void;
  /** True while the database file is the one opened; otherwise stops the process. */
  readonly databaseOk: () => boolean;
  readonly stopping: () => boolean;
}

/**
 * Runs the real bot in this process: the database, the Discord client (one shard, or the shards
 * a ShardingManager gave this process), the scheduler for the campaigns of this process's guilds,
 * and the outbox delivery. Stops:
 * - on SIGINT/SIGTERM: the clock stops, sends in flight get a short grace then are abandoned
 *   (their messages stay queued), the database is closed; exit 0 within 2 s;
 * - on a fatal state: Discord will not take the bot (gateway close 4004, 4010-4014, a REST 401)
 *   or the database file was deleted or replaced: the same, with the one-line reason on stderr
 *   and exit code 1, and no tick played after it.
 */
export async function runDiscord(config: Config): Promise<void> {
  const shardIds = process.env.SHARDING_MANAGER ? process.env.SHARDS : undefined;
  const logger: Logger = pino({ level: config.LOG_LEVEL, redact: ['token', '*.token', 'DISCORD_TOKEN'], ...(shardIds !== undefined ? { base: { pid: process.pid, shards: shardIds } } : {}) });
  const token = config.DISCORD_TOKEN;
  if (!token) throw new Error('DISCORD_TOKEN is not set');
  const { app, databasePath, guard } = openDatabase(config, logger);
  const parts: Parts = {};
  const stopper = makeStopper(app, logger, parts, guard);
  if (!stopOnSignals(logger, stopper)) return;

  const bot = await startDiscordBot({
    app, token, commands, buttons, logger,
    ...(config.DISCORD_API_BASE ? { restApi: config.DISCORD_API_BASE } : {}),
    canDeliver: stopper.databaseOk,
    onFatal: stopper.fatal,
  });
  parts.bot = bot;
  if (stopper.stopping()) {
    await bot.stop();
    return;
  }
  const shards = ownedShards(bot);
  parts.scheduler = startGuildScheduler(app, { config, logger, bot, stopper, ownsGuild: shards.ownsGuild });
  parts.guardTimer = setInterval(stopper.databaseOk, GUARD_INTERVAL_MS);
  parts.guardTimer.unref();
  // One web page per bot: under the sharding manager, shard 0's process serves it; the others give `/web` links to it.
  if (!process.env.SHARDING_MANAGER || (shardIds ?? '').split(',').includes('0')) parts.web = await startWebFromConfig(app, config);
  else linkToWebElsewhere(app, config);
  logger.info({ user: bot.client.user.tag, commands: commands.length, database: databasePath, shards: [...shards.owned], shardCount: shards.count }, 'bot ready');
}

/**
 * Opens the database: DATABASE_URL's PostgreSQL, or the SQLite file DATABASE_PATH (a new one when
 * none is at the path, said in the log, and watched). Logs where it is (a password hidden) and its campaigns.
 */
function openDatabase(config: Config, logger: Logger): { app: ClosableApp; databasePath: string; guard: DatabaseFileGuard | undefined } {
  const target = databaseTarget(config);
  const sqlite = !isPostgresTarget(target);
  const databasePath = describeTarget(target);
  if (sqlite && databasePath !== ':memory:' && !existsSync(databasePath)) logger.warn({ database: databasePath }, 'no database at this path: a new, empty one is created');
  const app = openOrExplain(target, () => createApp({ databasePath: sqlite ? databasePath : target, logger, ...(config.RENDER_CACHE_DIR ? { renderCacheDir: config.RENDER_CACHE_DIR } : {}) }));
  const guard = sqlite ? DatabaseFileGuard.watch(databasePath) : undefined;
  const counts = campaignCounts(app);
  logger.info({ database: databasePath, campaigns: counts.total, byStatus: counts.byStatus }, `database ${databasePath}: ${counts.total} campaign${counts.total === 1 ? '' : 's'}`);
  return { app, databasePath, guard };
}

function makeStopper(app: ClosableApp, logger: Logger, parts: Parts, guard: DatabaseFileGuard | undefined): Stopper {
  let stopping = false;
  const stop = async (exitCode: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Whatever happens below, the process is gone within 2 s.
    setTimeout(() => process.exit(exitCode), HARD_EXIT_MS).unref();
    process.exitCode = exitCode;
    parts.scheduler?.stop();
    if (parts.guardTimer) clearInterval(parts.guardTimer);
    await parts.web?.close().catch(() => undefined);
    try {
      await parts.bot?.stop();
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'discord did not stop cleanly');
    }
    app.close();
    logger.info({ exitCode }, 'stopped');
    process.exit(exitCode);
  };
  const fatal = (error: Error): void => {
    if (stopping) return;
    // The same sentence as when the bot cannot start, so one alert rule catches both.
    const line = `The bot stopped: ${failureLine(error)}`;
    logger.error({ code: (error as { code?: string }).code }, line);
    process.stderr.write(`${line}\n`);
    void stop(FATAL_EXIT_CODE);
  };
  const databaseOk = (): boolean => {
    if (stopping) return false;
    const problem = guard?.problem();
    if (problem) fatal(new DatabaseGoneError(problem));
    return problem === undefined;
  };
  return { stop, fatal, databaseOk, stopping: () => stopping };
}

/**
 * Stops on SIGINT, SIGTERM, and when the shard manager is gone. False when it is gone already
 * (this process was still loading): nobody would ever stop it, so it does not start.
 */
function stopOnSignals(logger: Logger, stopper: Stopper): boolean {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      void stopper.stop(0);
    });
  }
  // A shard whose manager is gone (killed) stops too, rather than run on unsupervised.
  if (!process.send) return true;
  process.once('disconnect', () => {
    logger.warn({}, 'the shard manager is gone: stopping');
    void stopper.stop(0);
  });
  if (process.connected) return true;
  logger.warn({}, 'the shard manager is gone: stopping');
  void stopper.stop(0);
  return false;
}

/** The shards this process runs, and (when there are several) whether a guild's events come to it. */
function ownedShards(bot: DiscordBot): { owned: ReadonlySet<number>; count: number; ownsGuild: ((guildId: string) => boolean) | undefined } {
  const shards = bot.client.options.shards;
  const count = bot.client.options.shardCount ?? 1;
  const owned = new Set(Array.isArray(shards) ? shards : [0]);
  return { owned, count, ownsGuild: count > 1 ? (guildId: string) => owned.has(shardOfGuild(guildId, count)) : undefined };
}

/** The scheduler for this process's guilds: each run logged when it played ticks, then the outbox delivered. */
function startGuildScheduler(app: App, how: { config: Config; logger: Logger; bot: DiscordBot; stopper: Stopper; ownsGuild: ((guildId: string) => boolean) | undefined }): Scheduler {
  return startScheduler(app, {
    ...(how.ownsGuild ? { ownsGuild: how.ownsGuild } : {}),
    trigger: cronTrigger(how.config.SCHEDULER_CRON),
    canRun: how.stopper.databaseOk,
    onRun: (run) => {
      const played = run.ticks.filter((t) => t.played > 0);
      if (played.length > 0) how.logger.info({ ticks: played.map((t) => ({ campaignId: t.campaignId, played: t.played })) }, `scheduler: ${played.reduce((n, t) => n + t.played, 0)} ticks played`);
      how.bot.deliverSoon();
    },
  });
}
