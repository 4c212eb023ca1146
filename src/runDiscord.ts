import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { buttons, commands } from '../commands/index.js';
import { campaignCounts } from './app/campaignCounts.js';
import { createApp } from './app/createApp.js';
import type { Logger } from './app/ports.js';
import type { Config } from './config.js';
import { cronTrigger, startScheduler, type Scheduler } from './cron/startScheduler.js';
import { DatabaseFileGuard, DatabaseGoneError, openOrExplain } from './databaseGuard.js';
import { startDiscordBot, type DiscordBot } from './discord/bot.js';
import { failureLine } from './failure.js';
import { startWebFromConfig } from './web/startWeb.js';
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
  const databasePath = config.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(config.DATABASE_PATH);
  if (databasePath !== ':memory:' && !existsSync(databasePath)) logger.warn({ database: databasePath }, 'no database at this path: a new, empty one is created');
  const app = openOrExplain(databasePath, () => createApp({ databasePath, logger }));
  const guard = DatabaseFileGuard.watch(databasePath);
  const counts = campaignCounts(app);
  logger.info({ database: databasePath, campaigns: counts.total, byStatus: counts.byStatus }, `database ${databasePath}: ${counts.total} campaign${counts.total === 1 ? '' : 's'}`);

  let stopping = false;
  /** What is running, filled in as it starts (a stop may come at any point). */
  const parts: { bot?: DiscordBot; scheduler?: Scheduler; guardTimer?: NodeJS.Timeout; web?: WebServer } = {};

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

  /** True while the database file is the one opened; otherwise stops the process. */
  const databaseOk = (): boolean => {
    if (stopping) return false;
    const problem = guard?.problem();
    if (problem) fatal(new DatabaseGoneError(problem));
    return problem === undefined;
  };

  process.once('SIGINT', () => {
    logger.info({ signal: 'SIGINT' }, 'shutting down');
    void stop(0);
  });
  process.once('SIGTERM', () => {
    logger.info({ signal: 'SIGTERM' }, 'shutting down');
    void stop(0);
  });
  // A shard whose manager is gone (killed) stops too, rather than run on unsupervised.
  if (process.send) {
    process.once('disconnect', () => {
      logger.warn({}, 'the shard manager is gone: stopping');
      void stop(0);
    });
    // Gone before this process got here (it was still loading): nobody would ever stop it.
    if (!process.connected) {
      logger.warn({}, 'the shard manager is gone: stopping');
      void stop(0);
      return;
    }
  }

  const bot = await startDiscordBot({
    app, token, commands, buttons, logger,
    ...(config.DISCORD_API_BASE ? { restApi: config.DISCORD_API_BASE } : {}),
    canDeliver: databaseOk,
    onFatal: fatal,
  });
  parts.bot = bot;
  if (stopping) {
    await bot.stop();
    return;
  }
  const shards = bot.client.options.shards;
  const shardCount = bot.client.options.shardCount ?? 1;
  const owned = new Set(Array.isArray(shards) ? shards : [0]);
  const ownsGuild = shardCount > 1 ? (guildId: string) => owned.has(shardOfGuild(guildId, shardCount)) : undefined;
  parts.scheduler = startScheduler(app, {
    ...(ownsGuild ? { ownsGuild } : {}),
    trigger: cronTrigger(config.SCHEDULER_CRON),
    canRun: databaseOk,
    onRun: (run) => {
      const played = run.ticks.filter((t) => t.played > 0);
      if (played.length > 0) logger.info({ ticks: played.map((t) => ({ campaignId: t.campaignId, played: t.played })) }, `scheduler: ${played.reduce((n, t) => n + t.played, 0)} ticks played`);
      bot.deliverSoon();
    },
  });
  parts.guardTimer = setInterval(databaseOk, GUARD_INTERVAL_MS);
  parts.guardTimer.unref();
  // One web page per bot: under the sharding manager, shard 0's process serves it.
  if (!process.env.SHARDING_MANAGER || (shardIds ?? '').split(',').includes('0')) parts.web = await startWebFromConfig(app, config);
  logger.info({ user: bot.client.user.tag, commands: commands.length, database: databasePath, shards: [...owned], shardCount }, 'bot ready');
}
