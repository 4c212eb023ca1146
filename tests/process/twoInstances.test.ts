/**
 * Two bot processes on one token and one database (a deploy overlap, a second copy started by
 * mistake): Discord gives every interaction to both sessions. Each interaction is run by exactly
 * one of them; the other does nothing and logs no error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { startCampaign } from '../../src/app/campaign/lifecycle.js';
import { createApp } from '../../src/app/createApp.js';
import { commandPayloads } from '../../src/discord/registration.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { buildDist, killAll, sleep, startBot } from './botProcess.js';
import { sqlNumber } from '../support/sql.js';
import { sharedTestStore, storeEnv } from '../support/store.js';

// The compiled bot (startBot runs dist/src/main.js): built once for the run if a source changed.
beforeAll(buildDist);

const dir = mkdtempSync(join(tmpdir(), 'valormr-twice-'));
let fake: FakeDiscord | undefined;

afterAll(async () => {
  await killAll();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ARMIES = ['anax', 'hadewych', 'solon', 'annemie', 'minke', 'arkthark', 'kobolds', 'oberon', 'laugher', 'lizardmen',
  'elf-queen', 'elf-king', 'groennendr', 'grunnthraesir', 'elding', 'throrgrmir', 'aeskrvald', 'grallune', 'lanze', 'gyrhawk'];

describe('two instances on one token', () => {
  it('GIVEN two bot processes on one database, each given every interaction WHEN 20 undeferred (/campaign assign) and 20 deferred (/rest) commands run THEN every effect happens once, every answer and DM is sent once, and no error is logged', async () => {
    fake = await FakeDiscord.start({ users: Object.values(PEOPLE), everySession: true });
    fake.setCommands(commandPayloads(commands));
    const path = sharedTestStore(join(dir, 'twice.db'));
    const app = createApp({ databasePath: path });
    const actor = { userId: PEOPLE.referee.id, userName: 'Ref', guildId: fake.guildId, channelId: fake.channelId, roleIds: [] };
    createCampaign(app, actor, { name: 'Twice', scenario: 'valormr' });
    startCampaign(app, actor);

    const env = { DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, ...storeEnv(path), LOG_LEVEL: 'debug' };
    const bots = [startBot(env), startBot(env)];
    await Promise.all(bots.map((b) => b.waitForLine((l) => l.includes('"discord ready"'), 120_000, 'the bot ready')));
    expect(fake.sessions.filter((s) => s.socket)).toHaveLength(2);

    const players = [PEOPLE.alice.id, PEOPLE.bob.id];
    const ids: string[] = [];
    for (const [i, army] of ARMIES.entries()) {
      ids.push(fake.pushCommand({ command: 'campaign', subcommand: 'assign', options: { army, user: players[i % 2]! }, userId: PEOPLE.referee.id }));
    }
    await Promise.all(ids.map((id) => fake!.waitForAnswer(id, 1, 30_000)));
    const orders: string[] = [];
    for (const [i, army] of ARMIES.entries()) orders.push(fake.pushCommand({ command: 'rest', options: { army }, userId: players[i % 2]! }));
    await Promise.all(orders.map((id) => fake!.waitForAnswer(id, 1, 30_000)));
    const count = (sql: string): number => sqlNumber(app.db, sql);
    await fake.waitFor(() => count("select count(*) from outbox_messages where status = 'pending'") === 0, 30_000, 'an empty outbox');
    // The process that did not run an interaction may come to it after the other answered it (a
    // loaded machine): every one of the 40 is waited for until one process has stood aside from it.
    const stoodAside = (): number[] => bots.map((b) => b.logs().filter((l) => l.msg === 'interaction taken by another process').length);
    await fake.waitFor(() => stoodAside()[0]! + stoodAside()[1]! >= 40, 60_000, 'one process standing aside from each of the 40 interactions');
    await sleep(1000); // anything run or sent twice would show by now

    // Each effect once.
    expect(count("select count(*) from events where type = 'commanderAssigned'")).toBe(20);
    expect(count("select count(*) from events where type = 'orderGiven'")).toBe(20);
    // Each interaction answered once, with no refusal from Discord (a second answer is 40060).
    for (const id of [...ids, ...orders]) {
      const rec = fake.interaction(id);
      expect(rec.callbacks).toHaveLength(1);
      expect(rec.messages.length).toBeGreaterThanOrEqual(1);
    }
    expect(fake.calls.filter((c) => c.path.startsWith('/interactions/') && c.status >= 400)).toEqual([]);
    // Each assignment DM once.
    for (const army of ARMIES) {
      const dms = fake.messages.filter((m) => m.kind === 'dm' && m.content.includes(`(\`${army}\`)`) && m.content.startsWith('You command'));
      expect(dms, army).toHaveLength(1);
    }
    // Both processes received the interactions; neither logged an error.
    for (const b of bots) {
      const errors = b.logs().filter((l) => Number(l.level) >= 50);
      expect(errors).toEqual([]);
    }
    // Every interaction reached both: one ran it, the other stood aside (a debug line, no more).
    const aside = stoodAside();
    expect(aside[0]! + aside[1]!).toBe(40);
    app.close();
  }, 120_000);
});
