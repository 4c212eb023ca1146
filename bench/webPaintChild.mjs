/**
 * A freshly started process serving the campaign page, for webFirstPaintMs cold (bench/web.ts):
 * the COMPILED bot (dist/, as `npm start` runs it) or, with `--source`, the TypeScript under tsx
 * (`node --import tsx`). It opens the database given, starts the web page on a free loopback port
 * as `npm start` does (startWebFromConfig), and then answers each line on stdin with one JSON line
 * on stdout: `link`: `{ url }`, a fresh `/web` link of the person given (as the `/web` command
 * answers it); `tick`: plays the campaign's current half period (as the scheduler would), waits
 * DRAW_AHEAD_WAIT_MS (past the watch's round for campaigns that moved, every 2 s) and
 * until the views being drawn ahead are drawn, then `{ played, cpuMs }` (the process's CPU time,
 * render threads included, from the tick to then). Stdin closed: it stops.
 * Args: <database> <userId> <guildId> <channelId> [--source] [--draw-ahead=on|off]: with
 * `--draw-ahead`, the page is started by startWebServer itself, with drawing ahead on or off
 * (bench/web.ts's after-tick figures compare the two); without, as `npm start` starts it.
 */
import process from 'node:process';
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers/promises';
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
const { playTick } = await load('app/turn/playTick');
const { readCampaign } = await load('app/unitOfWork');

const DRAW_AHEAD_WAIT_MS = 6000;
const ahead = process.argv.find((a) => a.startsWith('--draw-ahead='))?.slice('--draw-ahead='.length);
const config = loadConfig({ DATABASE_PATH: databasePath, WEB: 'on', WEB_PORT: '0', LOG_LEVEL: 'warn' });
const app = createApp({ databasePath });
const web = ahead === undefined
  ? await startWebFromConfig(app, config)
  : await (await load('web/server')).startWebServer(app, { port: 0, ...(ahead === 'on' ? { drawAhead: true } : {}) });
if (!web) throw new Error('the web page did not start');
const actor = { userId, userName: userId, guildId, channelId, roleIds: [] };
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'tick') {
    const campaignId = readCampaign(app, { actor }, (tx) => tx.meta.id);
    const cpu = process.cpuUsage();
    const { played } = playTick(app, { campaignId });
    await setTimeout(DRAW_AHEAD_WAIT_MS);
    await web.drawnAhead();
    // The process's CPU time (every thread: the render threads' too) from the tick until what is drawn ahead is drawn.
    const used = process.cpuUsage(cpu);
    process.stdout.write(`${JSON.stringify({ played, cpuMs: (used.user + used.system) / 1000 })}\n`);
    continue;
  }
  const url = webLink(app, actor)[0]?.data?.url;
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}
await web.close();
app.close();
process.exit(0);
