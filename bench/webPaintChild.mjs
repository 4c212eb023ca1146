/**
 * A freshly started process serving the campaign page, for webFirstPaintMs cold (bench/web.ts):
 * the COMPILED bot (dist/, as `npm start` runs it) or, with `--source`, the TypeScript under tsx
 * (`node --import tsx`). It opens the database given, starts the web page on a free loopback port
 * as `npm start` does (startWebFromConfig), and then answers each line on stdin with one JSON line
 * on stdout: `{ url }`, a fresh `/web` link of the person given (as the `/web` command answers it).
 * Stdin closed: it stops. Args: <database> <userId> <guildId> <channelId> [--source].
 */
import process from 'node:process';
import { createInterface } from 'node:readline';
import { URL } from 'node:url';

const [databasePath, userId, guildId, channelId] = process.argv.slice(2);
const source = process.argv.includes('--source');
const base = new URL(source ? '../src/' : '../dist/src/', import.meta.url);
const ext = source ? '.ts' : '.js';
const load = (path) => import(new URL(`${path}${ext}`, base).href);
const { createApp } = await load('app/createApp');
const { loadConfig } = await load('config');
const { startWebFromConfig } = await load('web/startWeb');
const { webLink } = await load('app/web/webAccess');

const config = loadConfig({ DATABASE_PATH: databasePath, WEB: 'on', WEB_PORT: '0', LOG_LEVEL: 'warn' });
const app = createApp({ databasePath });
const web = await startWebFromConfig(app, config);
if (!web) throw new Error('the web page did not start');
const actor = { userId, userName: userId, guildId, channelId, roleIds: [] };
const lines = createInterface({ input: process.stdin });
for await (const _ of lines) {
  const url = webLink(app, actor)[0]?.data?.url;
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}
await web.close();
app.close();
process.exit(0);
