import { createHash } from 'node:crypto';
import type { App } from '../app/app.js';
import type { Config } from '../config.js';
import type { WebServer } from './server.js';
import { WEB_LINK_TTL_MS } from '../app/web/webKeys.js';

/** The key links and cookies are signed with, from WEB_SECRET: the same in every process given the same setting. */
const webSecret = (setting: string): Buffer => createHash('sha256').update(setting).digest();

/**
 * Starts the campaign web page as configured (on loopback and port 8787 unless told otherwise),
 * or nothing when `WEB=off`. A port already taken is reported and the bot runs on without the page.
 * Fastify, its plugins and the page's modules are loaded only here, when the page is on, so a bot
 * with `WEB=off` never holds them in memory.
 */
export async function startWebFromConfig(app: App, config: Config): Promise<WebServer | undefined> {
  if (config.WEB === 'off') return undefined;
  try {
    const [{ startWebServer }, { discordProvider }] = await Promise.all([import('./server.js'), import('./discordLogin.js')]);
    const web = await startWebServer(app, {
      host: config.WEB_HOST,
      port: config.WEB_PORT,
      drawAhead: true,
      ...(config.WEB_PUBLIC_URL ? { publicUrl: config.WEB_PUBLIC_URL } : {}),
      ...(config.WEB_TRUST_PROXY ? { trustProxy: config.WEB_TRUST_PROXY === 'off' ? false : config.WEB_TRUST_PROXY } : {}),
      ...(config.WEB_SECRET ? { secret: webSecret(config.WEB_SECRET) } : {}),
      ...(config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET
        ? { oauth: discordProvider(config.DISCORD_CLIENT_ID, config.DISCORD_CLIENT_SECRET, config.DISCORD_API_BASE) }
        : {}),
    });
    app.logger.info({ url: web.url, publicUrl: app.web?.publicUrl }, `campaign web page on ${web.url}`);
    return web;
  } catch (err) {
    app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, `the campaign web page could not start on ${config.WEB_HOST}:${config.WEB_PORT}; the bot runs without it`);
    return undefined;
  }
}

/**
 * `/web` in a process that does not serve the page (under the sharding manager, every shard
 * process but shard 0's; with several machines, every machine but the one running shard 0): its
 * links point at the page the serving process has (WEB_PUBLIC_URL, else WEB_HOST:WEB_PORT), are
 * signed with the shared WEB_SECRET, and are spent in the shared database, so any process's link
 * logs in once on the page. Without WEB_SECRET the serving process signs with a random key no
 * other process knows: `/web` here then says the page is not running on this bot, and the log
 * says to set WEB_SECRET.
 */
export function linkToWebElsewhere(app: App, config: Config): void {
  if (config.WEB === 'off') return;
  if (!config.WEB_SECRET) {
    app.logger.warn({}, 'this process does not serve the web page (another shard\'s does) and WEB_SECRET is not set: its /web cannot give links the page accepts. Set WEB_SECRET (the same on every machine) and WEB_PUBLIC_URL.');
    return;
  }
  app.web = { publicUrl: (config.WEB_PUBLIC_URL ?? `http://${config.WEB_HOST}:${config.WEB_PORT}`).replace(/\/$/, ''), secret: webSecret(config.WEB_SECRET), linkTtlMs: WEB_LINK_TTL_MS };
}
