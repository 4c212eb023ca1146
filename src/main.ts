import { existsSync } from 'node:fs';
import module from 'node:module';
import { parseArgs } from 'node:util';
import { databaseTarget, loadConfig, shardList, shardRequest } from './config.js';
import { failureLine } from './failure.js';

/**
 * Entry point (`npm start`, or `node dist/src/main.js` under a supervisor). With DISCORD_TOKEN
 * set the bot connects to Discord; without it the console transport starts on the same database,
 * so the game can be played locally. `--shards auto|N` (or SHARDS=auto|N) runs the bot under
 * discord.js's ShardingManager, one process per shard; the shard processes run this same file.
 */
// Node 22.1+ keeps compiled code between starts (the bot loads some 400 modules); Node 20 has no such cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** The whole start, one async function: the compiled bundle is CommonJS (src/codeCache.ts), which has no top-level await. */
async function main(): Promise<void> {
  // Settings from .env (dotenv, or the file DOTENV_CONFIG_PATH names): dotenv and node:crypto under it
  // are loaded only when there is such a file to read.
  if (process.env.DOTENV_CONFIG_PATH || existsSync('.env') || process.argv.some((a) => a.startsWith('dotenv_config_'))) await import('dotenv/config');

  // An empty SHARDS= or SHARD_COUNT= (a copied .env.example under docker's --env-file or systemd's
  // EnvironmentFile=) means unset; discord.js would parse it as JSON and fail to start.
  for (const key of ['SHARDS', 'SHARD_COUNT']) if (process.env[key]?.trim() === '') delete process.env[key];

  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { shards: { type: 'string' } }, strict: false });
    const config = loadConfig(process.env);
    if (config.DISCORD_TOKEN) {
      const shards = process.env.SHARDING_MANAGER ? undefined : shardRequest(typeof values.shards === 'string' ? values.shards : config.SHARDS);
      // SHARD_LIST without a sharded start would be ignored: refused instead (a shard process has it from its manager).
      if (shards === undefined && !process.env.SHARDING_MANAGER) shardList(config.SHARD_LIST, undefined);
      if (shards !== undefined) {
        const { runShards } = await import('./runShards.js');
        await runShards(config, shards, { file: process.argv[1]!, execArgv: process.execArgv });
      } else {
        const { runDiscord } = await import('./runDiscord.js');
        await runDiscord(config);
      }
    } else {
      const { runConsole } = await import('./console/main.js');
      const { startWebFromConfig } = await import('./web/startWeb.js');
      await runConsole({}, { databasePath: databaseTarget(config), persistent: true, ...(config.RENDER_CACHE_DIR ? { renderCacheDir: config.RENDER_CACHE_DIR } : {}), withApp: (app) => startWebFromConfig(app, config) });
    }
  } catch (err) {
    process.stderr.write(`The bot could not start: ${failureLine(err)}\n`);
    process.exitCode = 1;
  }
}

void main();
