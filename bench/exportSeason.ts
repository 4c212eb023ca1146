import { copyFileSync, rmSync } from 'node:fs';
import { exportCampaign } from '../src/app/campaign/exportCampaign.js';
import { createApp } from '../src/app/createApp.js';
import { rawSqlite } from '../src/db/client.js';
import { DEFAULT_ATTACHMENT_LIMIT } from '../src/discord/interactionContext.js';

/**
 * `node --import tsx bench/exportSeason.ts DB [RUNS] [PAUSE_MS]`: `/campaign export` of the (first) campaign of
 * a soak's database (`npm run soak -- --halves 1200 --db FILE`), on a copy, as a Discord referee
 * meets it (the file ready to upload under Discord's default limit), RUNS times in a row: the first
 * finds no kept parts (`<db>-layers/exports/` removed), the others find them. One JSON line: ms,
 * longest event-loop gap, kind (asIs, compressed, parts: over the limit even compressed, in several
 * files), bytes (all files) and files of each. PAUSE_MS (default 0) waits between runs, as a
 * referee's exports are apart (a kept file is taken on its stamp once it last changed 2 s before
 * it was checked: right after it was built it is hashed again).
 */
const [source, runsArg, pauseArg] = process.argv.slice(2);
if (!source) throw new Error('usage: bench/exportSeason.ts DB [RUNS]');
const path = `${source}.export-bench.db`;
copyFileSync(source, path);
rmSync(`${path}-layers`, { recursive: true, force: true });
const app = createApp({ databasePath: path });
const { id, owner, guild, channel } = rawSqlite(app.db).prepare('select id, owner_user_id as owner, guild_id as guild, channel_id as channel from campaigns limit 1').get() as { id: string; owner: string; guild: string; channel: string };
const actor = { userId: owner, userName: owner, guildId: guild, channelId: channel, roleIds: [] as string[] };
const runs: { ms: number; gapMs: number; kind: string; bytes: number; files: number }[] = [];
for (let i = 0; i < Number(runsArg ?? 3); i++) {
  if (i > 0) await new Promise((resolve) => setTimeout(resolve, Number(pauseArg ?? 0)));
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => { const now = performance.now(); gap = Math.max(gap, now - last); last = now; }, 1);
  const started = performance.now();
  const replies = await exportCampaign(app, actor, DEFAULT_ATTACHMENT_LIMIT);
  const [r] = replies;
  const ms = performance.now() - started;
  gap = Math.max(gap, performance.now() - last);
  clearInterval(ticker);
  const data = r?.data as { file?: string; tooLarge?: unknown; parts?: number } | undefined;
  // bytes: the whole file (all its parts); files: how many files the referee gets.
  const files = replies.flatMap((x) => x.files ?? []);
  const kind = data?.tooLarge ? 'tooLarge' : data?.parts !== undefined ? 'parts' : data?.file?.endsWith('.gz') ? 'compressed' : 'asIs';
  runs.push({ ms: Math.round(ms), gapMs: Math.round(gap), kind, bytes: files.reduce((n, f) => n + f.data.byteLength, 0), files: files.length });
}
app.close();
rmSync(path, { force: true });
rmSync(`${path}-layers`, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ campaign: id, runs })}\n`);
