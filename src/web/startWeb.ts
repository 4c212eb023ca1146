import { createHash } from 'node:crypto';
import type { App } from '../app/app.js';
import type { Config } from '../config.js';
import type { WebServer } from './server.js';

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
      ...(config.WEB_PUBLIC_URL ? { publicUrl: config.WEB_PUBLIC_URL } : {}),
      ...(config.WEB_TRUST_PROXY ? { trustProxy: config.WEB_TRUST_PROXY === 'off' ? false : config.WEB_TRUST_PROXY } : {}),
      ...(config.WEB_SECRET ? { secret: createHash('sha256').update(config.WEB_SECRET).digest() } : {}),
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
