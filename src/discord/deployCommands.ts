/**
 * `npm run deploy-commands` (or, compiled, `node dist/src/discord/deployCommands.js`, with
 * `--env-file PATH` for the file the service reads): registers the slash commands with Discord,
 * or with DISCORD_API_BASE when set. With DISCORD_GUILD_ID the
 * commands go to that one server and appear at once (for development); without it they are
 * global (for production; Discord may take a while to show changes everywhere).
 */
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiscordAPIError, REST, Routes } from 'discord.js';
import type { Command } from '../../src/app/commandContext.js';
import { checkCommandLimits, commandPayloads, inviteUrl } from './registration.js';

export interface DeployEnv {
  readonly token: string;
  readonly clientId: string;
  readonly guildId: string | undefined;
}

const SNOWFLAKE = /^\d{17,20}$/;

/** Reads and checks the variables; the error names every missing or malformed one (never a value). */
export function readDeployEnv(env: Readonly<Record<string, string | undefined>>): DeployEnv {
  const problems: string[] = [];
  const token = env.DISCORD_TOKEN?.trim() ?? '';
  const clientId = env.DISCORD_CLIENT_ID?.trim() ?? '';
  const guildId = env.DISCORD_GUILD_ID?.trim() || undefined;
  if (!token) problems.push('DISCORD_TOKEN is not set (the bot token from the Developer Portal, Bot page)');
  if (!clientId) problems.push('DISCORD_CLIENT_ID is not set (the Application ID from the Developer Portal, General Information page)');
  else if (!SNOWFLAKE.test(clientId)) problems.push('DISCORD_CLIENT_ID must be the numeric Application ID');
  if (guildId !== undefined && !SNOWFLAKE.test(guildId)) problems.push('DISCORD_GUILD_ID must be a numeric server id (or be left unset to deploy globally)');
  if (problems.length > 0) {
    throw new Error(`Cannot deploy the commands:\n${problems.map((p) => `- ${p}`).join('\n')}\nSet them in the environment file (.env, or the service's: --env-file PATH; see docs/discord-setup.md).`);
  }
  return { token, clientId, guildId };
}

export interface DeployResult {
  readonly scope: 'guild' | 'global';
  readonly names: readonly string[];
}

/** Checks the payloads against Discord's limits, then replaces the registered commands with them. */
export async function deployCommands(env: DeployEnv, commands: readonly Command[], restApi?: string): Promise<DeployResult> {
  const payloads = checkCommandLimits(commandPayloads(commands));
  const rest = new REST(restApi ? { api: restApi } : {}).setToken(env.token);
  const route = env.guildId ? Routes.applicationGuildCommands(env.clientId, env.guildId) : Routes.applicationCommands(env.clientId);
  let registered: { name: string }[];
  try {
    registered = (await rest.put(route, { body: payloads })) as { name: string }[];
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401) throw new Error('Discord refused DISCORD_TOKEN (401 Unauthorized): copy the bot token again from the Bot page.');
    if (error instanceof DiscordAPIError && (error.status === 403 || error.status === 404)) {
      throw new Error(`Discord refused the registration (${error.status} ${error.message}): check DISCORD_CLIENT_ID${env.guildId ? ' and DISCORD_GUILD_ID, and that the bot was invited to that server with the applications.commands scope' : ''}.`);
    }
    throw error;
  }
  return { scope: env.guildId ? 'guild' : 'global', names: registered.map((c) => c.name) };
}

/**
 * The environment file to read: `--env-file PATH` (the file the service reads too: systemd's
 * EnvironmentFile=, docker's --env-file), else DOTENV_CONFIG_PATH, else `.env` here. Variables
 * already in the environment win, as with the bot.
 */
function envFileOf(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): { path: string; explicit: boolean } {
  const i = argv.findIndex((a) => a === '--env-file' || a.startsWith('--env-file='));
  if (i >= 0) {
    const arg = argv[i]!;
    const path = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
    if (!path) throw new Error('--env-file needs a path, e.g. --env-file /etc/valormr.env');
    return { path: resolve(path), explicit: true };
  }
  return { path: resolve(env.DOTENV_CONFIG_PATH ?? '.env'), explicit: false };
}

async function main(): Promise<void> {
  const file = envFileOf(process.argv.slice(2), process.env);
  if (file.explicit && !existsSync(file.path)) throw new Error(`Cannot deploy the commands: the environment file ${file.path} does not exist.`);
  const dotenv = await import('dotenv');
  const loaded = dotenv.config({ path: file.path, quiet: true });
  if (file.explicit && loaded.error) throw new Error(`Cannot deploy the commands: the environment file ${file.path} cannot be read (${loaded.error.message}). Run as the user the service runs as (sudo -u valormr ...).`);
  const env = readDeployEnv(process.env);
  const { commands } = await import('../../commands/index.js');
  // DISCORD_API_BASE, as for the bot: another Discord (a fake one in the tests).
  const apiBase = process.env.DISCORD_API_BASE?.trim() || undefined;
  const result = await deployCommands(env, commands, apiBase);
  const where = result.scope === 'guild' ? `server ${env.guildId}` : 'all servers (global; may take a while to appear)';
  console.log(`Registered ${result.names.length} commands for ${where}: ${result.names.map((n) => `/${n}`).join(' ')}`);
  console.log(`Invite the bot with: ${inviteUrl(env.clientId)}`);
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  main().catch((error: unknown) => {
    // The message never holds the token: readDeployEnv names variables, Discord errors name routes.
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
