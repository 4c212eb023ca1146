import { pino } from 'pino';
import { buttons, commands } from '../commands/index.js';
import { createApp } from './app/createApp.js';
import type { Logger } from './app/ports.js';
import type { Config } from './config.js';
import { startDiscordBot } from './discord/bot.js';
import { startScheduler } from './cron/startScheduler.js';

/**
 * Runs the real bot: the database, the scheduler and the Discord client, with a graceful
 * shutdown on SIGINT/SIGTERM (stop the clock, finish the delivery in flight, close the database).
 */
export async function runDiscord(config: Config): Promise<void> {
  const logger: Logger = pino({ level: config.LOG_LEVEL, redact: ['token', '*.token', 'DISCORD_TOKEN'] });
  const app = createApp({ databasePath: config.DATABASE_PATH, logger });
  const token = config.DISCORD_TOKEN;
  if (!token) throw new Error('DISCORD_TOKEN is not set');
  const bot = await startDiscordBot({ app, token, commands, buttons, logger });
  const scheduler = startScheduler(app, {});
  logger.info({ user: bot.client.user.tag, commands: commands.length, database: config.DATABASE_PATH }, 'bot ready');
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    scheduler.stop();
    await bot.stop();
    app.close();
    logger.info({}, 'stopped');
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
