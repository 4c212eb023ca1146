import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { enqueue, outboxByStatus } from '../../src/db/outboxRepo.js';
import { startDiscordBot } from '../../src/discord/bot.js';
import { PEOPLE, startHarness, type Harness } from './harness.js';
import { decideButtons, pressed, testCommands } from './testCommands.js';

let h: Harness;
let campaignId: string;

beforeAll(async () => {
  h = await startHarness({ commands: testCommands, buttons: [decideButtons], heartbeatIntervalMs: 150 });
  const [first] = createCampaign(h.app, { userId: PEOPLE.referee.id, userName: 'Ref', guildId: h.fake.guildId, channelId: h.fake.channelId, roleIds: [] }, { name: 'Winter War', scenario: 'valormr' });
  campaignId = (first!.data as { campaignId: string }).campaignId;
  await h.bot.deliverNow();
});

afterAll(async () => {
  await h?.stop();
  // Nothing the bot sent was malformed for Discord.
  expect(h.fake.refusals).toEqual([]);
});

function statusOf(content: string): string | undefined {
  return outboxByStatus(h.app.db, campaignId, ['pending', 'sent', 'dmClosed', 'failed']).find((r) => r.content === content)?.status;
}

/**
 * How long a reconnection is waited for: a state, with no speed asserted (a loaded machine is slow,
 * never wrong). What each reconnection must be (a RESUME, no second IDENTIFY) is checked after it.
 */
const STATE_WAIT_MS = 60_000;

describe('reconnecting to the gateway', () => {
  it('GIVEN an outage (socket dropped, REST failing) WHEN a DM is due THEN it waits in the outbox and is delivered once after the resume, and an interaction sent meanwhile is replayed and answered', async () => {
    h.fake.dropSocket();
    h.fake.failRequests('POST', '/channels/', 503, 4);
    const content = 'Estimate: the enemy holds the bridge at 0710.';
    enqueue(h.app.db, { campaignId, to: 'dm', userId: PEOPLE.alice.id, content, nonce: 'reconnect1' }, h.clock.now().toISOString());
    await h.bot.deliverNow();
    expect(statusOf(content)).toBe('pending');
    expect(h.fake.dmsTo(PEOPLE.alice.id)).toEqual([]);

    const missed = h.fake.pushCommand({ command: 'echo', subcommand: 'public', userId: PEOPLE.bob.id });
    await h.fake.waitFor(() => h.fake.resumes === 1 && h.fake.connected, 60_000, 'a RESUME');
    const rec = await h.fake.waitForAnswer(missed);
    expect(rec.messages[0]).toMatchObject({ ephemeral: false, content: 'Hello everyone, from Bob.' });
    expect(h.fake.identifies).toBe(1);

    h.clock.advance(2_500);
    await h.bot.deliverNow();
    expect(statusOf(content)).toBe('sent');
    expect(h.fake.dmsTo(PEOPLE.alice.id).map((d) => d.content)).toEqual([content]);
    expect(h.logs.entries.some((e) => e.msg === 'gateway resumed')).toBe(true);
    await h.fake.waitFor(() => h.fake.heartbeats >= 2, 60_000, 'heartbeats on the resumed session');
  });

  it('GIVEN a session Discord will not resume WHEN the socket drops THEN the bot identifies again and keeps answering', async () => {
    h.fake.dropSocket({ refuseResume: true });
    // discord.js spaces identifies 5 s apart: this reconnection takes that long.
    await h.fake.waitFor(() => h.fake.identifies === 2 && h.fake.connected, STATE_WAIT_MS, 'a second IDENTIFY');
    await h.fake.waitFor(() => h.bot.client.isReady() && h.bot.client.ws.status === 0, 60_000, 'the client ready again');
    const id = h.fake.pushCommand({ command: 'echo', subcommand: 'public', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.messages[0]?.content).toBe('Hello everyone, from Alice.');
  }, 300_000);

  it('GIVEN a DM with buttons sent before a restart WHEN pressed after it THEN the new process handles the press', async () => {
    enqueue(h.app.db, { campaignId, to: 'dm', userId: PEOPLE.bob.id, nonce: 'reconnect2', content: 'Contact at 1214: decide.', buttons: [{ id: 'decide:c3:engage', label: 'Engage' }] }, h.clock.now().toISOString());
    await h.bot.deliverNow();
    await h.bot.stop();
    const restarted = await startDiscordBot({ app: h.app, token: h.fake.token, commands: testCommands, buttons: [decideButtons], logger: h.logs, restApi: h.fake.restApi, deliveryIntervalMs: 60_000 });
    try {
      const id = h.fake.pushButton({ customId: 'decide:c3:engage', userId: PEOPLE.bob.id });
      const rec = await h.fake.waitForAnswer(id);
      expect(rec.messages[0]).toMatchObject({ ephemeral: true, content: 'Decision recorded: engage.' });
      expect(pressed.at(-1)).toEqual({ userId: PEOPLE.bob.id, customId: 'decide:c3:engage' });
    } finally {
      await restarted.stop();
    }
  });
});

describe('gateway faults Discord really sends', () => {
  let g: Harness;
  const fatal: Error[] = [];

  beforeAll(async () => {
    g = await startHarness({ commands: testCommands, heartbeatIntervalMs: 200, bot: { onFatal: (e) => void fatal.push(e) } });
  });

  afterAll(async () => {
    await g?.stop();
  });

  async function answered(): Promise<void> {
    const id = g.fake.pushCommand({ command: 'echo', subcommand: 'public', userId: PEOPLE.alice.id });
    const rec = await g.fake.waitForAnswer(id, 1);
    expect(rec.messages[0]?.content).toBe('Hello everyone, from Alice.');
  }

  it('GIVEN op 7 RECONNECT WHEN received THEN the client reconnects on the resume URL and resumes the session', async () => {
    const resumes = g.fake.resumes;
    g.fake.requestReconnect();
    await g.fake.waitFor(() => g.fake.resumes === resumes + 1 && g.fake.connected, STATE_WAIT_MS, 'a resume after op 7');
    expect(g.fake.connectionPaths.at(-1)).toBe('/resume');
    expect(g.fake.resumesOnWrongUrl).toBe(0);
    expect(g.fake.identifies).toBe(1);
    await answered();
  }, 300_000);

  it('GIVEN heartbeats no longer acknowledged (a zombie connection) THEN the client drops it and resumes', async () => {
    const resumes = g.fake.resumes;
    g.fake.stopAcks();
    await g.fake.waitFor(() => g.fake.resumes > resumes, STATE_WAIT_MS, 'a resume after missing ACKs').finally(() => g.fake.stopAcks(false));
    await g.fake.waitFor(() => g.fake.connected, 60_000, 'connected again');
    expect(g.fake.identifies).toBe(1);
    await answered();
  }, 300_000);

  it('GIVEN a server close 4000 (unknown error) THEN the client resumes', async () => {
    const resumes = g.fake.resumes;
    g.fake.closeGateway(4000, 'Unknown error.');
    await g.fake.waitFor(() => g.fake.resumes === resumes + 1 && g.fake.connected, STATE_WAIT_MS, 'a resume after 4000');
    expect(fatal).toEqual([]);
    await answered();
  }, 300_000);

  it('GIVEN the token revoked (close 4004) THEN the bot reports a fatal state once, with the startup sentence\'s reason', async () => {
    g.fake.revokeToken();
    await g.fake.waitFor(() => fatal.length > 0, 60_000, 'the fatal report');
    expect(fatal.map((e) => [e.message, (e as { code?: string }).code])).toEqual([['An invalid token was provided', 'TokenInvalid']]);
    g.fake.restoreToken();
  }, 300_000);
});

describe('a token refused over REST while running', () => {
  it('GIVEN Discord answers 401 to a bot request THEN the bot reports the invalid token as fatal', async () => {
    const fatal: Error[] = [];
    const r = await startHarness({ commands: testCommands, bot: { onFatal: (e) => void fatal.push(e) } });
    try {
      r.fake.failRequests('GET', '/users/@me', 401, 1, { message: '401: Unauthorized', code: 0 });
      await expect(r.bot.client.rest.get('/users/@me')).rejects.toThrow(/Unauthorized/);
      expect(fatal.map((e) => [e.message, (e as { code?: string }).code])).toEqual([['An invalid token was provided', 'TokenInvalid']]);
    } finally {
      await r.stop();
    }
  });
});
