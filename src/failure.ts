import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Where the settings came from besides the process environment: the .env file dotenv reads
 * (DOTENV_CONFIG_PATH, or .env in the working directory), named in full and whether it exists, so
 * a failed start says which file to fix. A service that sets its variables itself (systemd's
 * EnvironmentFile=, docker's --env-file) has them in the environment; the sentence says so too.
 */
function settingsSource(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  const file = resolve(cwd, env.DOTENV_CONFIG_PATH ?? '.env');
  return `${file}${existsSync(file) ? '' : ' (not found)'} or the service's environment file`;
}

/**
 * The one-line reason the bot could not start or had to stop, with what to do about it. The same
 * sentence whether Discord refuses the token at login or while the bot is running.
 */
export function failureLine(error: unknown): string {
  const e = (error instanceof Error ? error : new Error(String(error))) as Error & { code?: string; hint?: string };
  const hint = e.hint ? ` ${e.hint}`
    : e.code === 'TokenInvalid' ? ` Check DISCORD_TOKEN in ${settingsSource()} (Bot tab of the Discord developer portal).`
      : e.code === 'ENOTFOUND' || e.code === 'ECONNREFUSED' ? ' Discord could not be reached: check the network. Without DISCORD_TOKEN, `npm start` plays in the console.'
        : e.code === 'DatabaseGone' ? ' Nothing more was written. Put the database back at that path (or set DATABASE_PATH to where it is) and start again.'
          : e.message.startsWith('Bad configuration:') ? ` Fix it in ${settingsSource()}; .env.example lists every setting with an example.`
            : '';
  return `${e.message.replace(/\.$/, '')}.${hint}`;
}
