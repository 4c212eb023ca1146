import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { deployCommands, readDeployEnv } from '../../src/discord/deployCommands.js';
import { CommandLimitError, checkCommandLimits, commandLimitViolations, commandPayloads, type CommandPayload } from '../../src/discord/registration.js';
import { FakeDiscord } from './fakeDiscord.js';
import { testCommands } from './testCommands.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Opt { type: number; name: string; description: string; options?: Opt[]; choices?: { name: string; value: unknown }[] }

function walk(options: readonly Opt[], visit: (o: Opt, depth: number) => void, depth = 0): void {
  for (const o of options) {
    visit(o, depth);
    walk(o.options ?? [], visit, depth + 1);
  }
}

describe('command registration payloads', () => {
  const payloads = commandPayloads(commands);

  it('GIVEN every command of commands/index.ts THEN the payloads fit Discord\'s limits', () => {
    expect(payloads.length).toBeGreaterThan(0);
    expect(commandLimitViolations(payloads)).toEqual([]);
    for (const p of payloads) {
      expect(p.name).toMatch(/^[-_a-z0-9]{1,32}$/);
      expect(p.description.length).toBeGreaterThanOrEqual(1);
      expect(p.description.length).toBeLessThanOrEqual(100);
      expect((p.options ?? []).length).toBeLessThanOrEqual(25);
      walk((p.options ?? []) as Opt[], (o) => {
        expect(o.name, `/${p.name} ${o.name}`).toMatch(/^[-_a-z0-9]{1,32}$/);
        expect(o.description.length, `/${p.name} ${o.name}`).toBeGreaterThanOrEqual(1);
        expect(o.description.length, `/${p.name} ${o.name}`).toBeLessThanOrEqual(100);
        expect((o.options ?? []).length).toBeLessThanOrEqual(25);
        expect((o.choices ?? []).length).toBeLessThanOrEqual(25);
      });
    }
    expect(new Set(payloads.map((p) => p.name)).size).toBe(payloads.length);
  });

  it('GIVEN commands that break several limits THEN the error lists every violation', () => {
    const bad = [
      { name: 'Move', description: '', type: 1, options: [] },
      {
        name: 'rules', description: 'x'.repeat(101), type: 1,
        options: [
          { type: 3, name: 'topic', description: 'Topic', required: false, choices: Array.from({ length: 26 }, (_, i) => ({ name: `t${i}`, value: `t${i}` })) },
          { type: 3, name: 'page', description: 'Page', required: true, autocomplete: true, choices: [{ name: 'one', value: '1' }] },
        ],
      },
      { name: 'wide', description: 'Too many options', type: 1, options: Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'd' })) },
      { name: 'wide', description: 'Twice', type: 1 },
    ] as unknown as CommandPayload[];
    const violations = commandLimitViolations(bad);
    expect(violations).toEqual(expect.arrayContaining([
      expect.stringContaining('/Move: name "Move" must be 1-32 lowercase'),
      expect.stringContaining('/Move: description is 0 characters'),
      expect.stringContaining('/rules: description is 101 characters'),
      expect.stringContaining('/rules topic: 26 choices (at most 25)'),
      expect.stringContaining('/rules page: required options must come before optional ones'),
      expect.stringContaining('/rules page: autocomplete and fixed choices exclude each other'),
      expect.stringContaining('/wide: 26 options (at most 25)'),
      expect.stringContaining('/wide: the name is used by more than one command'),
    ]));
    expect(() => checkCommandLimits(bad)).toThrow(CommandLimitError);
    try {
      checkCommandLimits(bad);
    } catch (error) {
      expect((error as Error).message.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(violations.length);
    }
  });
});

describe('every command is registered and documented', () => {
  const files = readdirSync(join(ROOT, 'commands'))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && f !== 'index.ts')
    .map((f) => f.replace(/\.ts$/, ''));

  it('GIVEN the files in commands/ THEN each is in commands/index.ts under its own name', () => {
    const registered = commands.map((c) => c.data.name).sort();
    expect(registered).toEqual([...files].sort());
  });

  it('GIVEN docs/commands.md THEN it documents every registered command', () => {
    const path = join(ROOT, 'docs/commands.md');
    expect(existsSync(path), 'docs/commands.md is missing: it documents every slash command').toBe(true);
    const doc = readFileSync(path, 'utf8');
    const missing = commands.map((c) => c.data.name).filter((name) => !new RegExp(`/${name}\\b`).test(doc));
    expect(missing, `commands not documented in docs/commands.md: ${missing.join(', ')}`).toEqual([]);
  });
});

describe('npm run deploy-commands', () => {
  // The transport's own test commands: the deploy path is tested apart from the game's commands.
  const commands = testCommands;
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await FakeDiscord.start();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('GIVEN DISCORD_GUILD_ID WHEN deploying THEN the payloads are PUT to that guild with the bot token', async () => {
    const env = readDeployEnv({ DISCORD_TOKEN: fake.token, DISCORD_CLIENT_ID: fake.appId, DISCORD_GUILD_ID: fake.guildId });
    const result = await deployCommands(env, commands, fake.restApi);
    expect(result.scope).toBe('guild');
    const put = fake.calls.find((c) => c.method === 'PUT' && c.path === `/applications/${fake.appId}/guilds/${fake.guildId}/commands`);
    expect(put?.auth).toBe(`Bot ${fake.token}`);
    expect(put?.body).toEqual(JSON.parse(JSON.stringify(commandPayloads(commands))));
    expect(result.names).toEqual(commands.map((c) => c.data.name));
  });

  it('GIVEN no DISCORD_GUILD_ID WHEN deploying THEN the payloads are PUT globally', async () => {
    const result = await deployCommands(readDeployEnv({ DISCORD_TOKEN: fake.token, DISCORD_CLIENT_ID: fake.appId }), commands, fake.restApi);
    expect(result.scope).toBe('global');
    expect(fake.calls.some((c) => c.method === 'PUT' && c.path === `/applications/${fake.appId}/commands`)).toBe(true);
  });

  it('GIVEN missing or malformed variables THEN the message names each one and never shows the token', () => {
    expect(() => readDeployEnv({})).toThrow(/DISCORD_TOKEN is not set[\s\S]*DISCORD_CLIENT_ID is not set/);
    let message = '';
    try {
      readDeployEnv({ DISCORD_TOKEN: 'super.secret.token', DISCORD_CLIENT_ID: 'my-app', DISCORD_GUILD_ID: 'guild' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('DISCORD_CLIENT_ID must be the numeric Application ID');
    expect(message).toContain('DISCORD_GUILD_ID must be a numeric server id');
    expect(message).not.toContain('super.secret.token');
  });

  it('GIVEN a wrong token WHEN deploying THEN the error says so without the token', async () => {
    const env = readDeployEnv({ DISCORD_TOKEN: 'wrong.token.value', DISCORD_CLIENT_ID: fake.appId });
    await expect(deployCommands(env, commands, fake.restApi)).rejects.toThrow(/refused DISCORD_TOKEN \(401/);
    await expect(deployCommands(env, commands, fake.restApi)).rejects.not.toThrow(/wrong\.token\.value/);
  });
});
