import 'dotenv/config';
import { loadConfig } from './config.js';
import { runConsole } from './console/main.js';

/**
 * Entry point (`npm start`). With DISCORD_TOKEN set the bot connects to Discord; without it the
 * console transport starts on the same database, so the game can be played locally.
 */
try {
  const config = loadConfig(process.env);
  if (config.DISCORD_TOKEN) {
    const { runDiscord } = await import('./runDiscord.js');
    await runDiscord(config);
  } else {
    await runConsole({}, { databasePath: config.DATABASE_PATH, persistent: true });
  }
} catch (err) {
  const e = err as Error & { code?: string };
  const hint = e.code === 'TokenInvalid' ? ' Check DISCORD_TOKEN in .env (Bot tab of the Discord developer portal).'
    : e.code === 'ENOTFOUND' || e.code === 'ECONNREFUSED' ? ' Discord could not be reached: check the network. Without DISCORD_TOKEN, `npm start` plays in the console.'
      : '';
  process.stderr.write(`The bot could not start: ${e.message}.${hint}\n`);
  process.exitCode = 1;
}
