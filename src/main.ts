import 'dotenv/config';
import { loadConfig } from './config.js';
import { runConsole } from './console/main.js';

/**
 * Entry point (`npm start`). With DISCORD_TOKEN set the bot connects to Discord; without it the
 * console transport starts on the same database, so the game can be played locally.
 */
const config = loadConfig(process.env);
if (config.DISCORD_TOKEN) {
  const { runDiscord } = await import('./runDiscord.js');
  await runDiscord(config);
} else {
  await runConsole({}, { databasePath: config.DATABASE_PATH, persistent: true });
}
