import { readFileSync } from 'node:fs';
import { DiscordAPIError, HTTPError, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { fitChoices } from '../../src/discord/interactionRouter.js';
import { classifySendError, loggableError, redactUrl } from '../../src/discord/discordErrors.js';
import { splitContent, toDiscordPayloads } from '../../src/discord/payloads.js';
import { BOT_PERMISSION_BITS, inviteUrl } from '../../src/discord/registration.js';

function apiError(status: number, code: number, message: string): DiscordAPIError {
  return new DiscordAPIError({ code, message }, code, status, 'POST', 'https://discord.com/api/v10/webhooks/1/secret-token/messages/@original', { body: { content: 'secret estimate' }, files: undefined });
}

describe('splitting long content', () => {
  it('GIVEN text under 2,000 characters THEN it stays one part', () => {
    expect(splitContent('short')).toEqual(['short']);
    expect(splitContent('')).toEqual(['']);
  });

  it('GIVEN long text THEN every part fits and the lines are kept whole and in order', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}`);
    const parts = splitContent(lines.join('\n'));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.length <= 2000)).toBe(true);
    expect(parts.join('\n')).toBe(lines.join('\n'));
  });

  it('GIVEN one 5,000-character word THEN it is cut hard', () => {
    const parts = splitContent('y'.repeat(5000));
    expect(parts.map((p) => p.length)).toEqual([2000, 2000, 1000]);
  });

  it('GIVEN a long run of emoji without spaces THEN no part starts or ends with half an emoji', () => {
    const text = `a${'😀'.repeat(1500)}`;
    const parts = splitContent(text);
    expect(parts.join('')).toBe(text);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(2000);
      expect(p).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });
});

describe('Discord payloads of a message', () => {
  it('GIVEN files and buttons on a long message THEN they ride on the last part, five buttons a row', () => {
    const buttons = Array.from({ length: 7 }, (_, i) => ({ id: `contact:c1:${i}`, label: i === 0 ? 'L'.repeat(90) : `B${i}`, style: 'success' as const }));
    const payloads = toDiscordPayloads({ content: 'z '.repeat(1500), files: [{ name: 'a.png', data: new Uint8Array([1, 2]) }], buttons });
    expect(payloads).toHaveLength(2);
    expect(payloads[0]!.files).toBeUndefined();
    expect(payloads[0]!.components).toBeUndefined();
    expect(payloads[1]!.files).toHaveLength(1);
    const rows = payloads[1]!.components!.map((r) => r.toJSON());
    expect(rows.map((r) => r.components.length)).toEqual([5, 2]);
    expect((rows[0]!.components[0] as { label: string }).label).toHaveLength(80);
    expect(payloads.every((p) => p.allowedMentions.parse.length === 0 && p.allowedMentions.users === undefined)).toBe(true);
  });

  it('GIVEN a message meant to ping one user THEN only the part that names that user lists them, and nothing is parsed from the text', () => {
    const content = `<@111111111111111111>, your DMs are closed. ${'x '.repeat(1100)}<@222222222222222222> @everyone`;
    const payloads = toDiscordPayloads({ content, mentions: ['111111111111111111'] });
    expect(payloads.map((p) => p.allowedMentions)).toEqual([{ parse: [], users: ['111111111111111111'] }, { parse: [] }]);
  });

  it('GIVEN the same button id twice THEN building fails (Discord refuses duplicated custom ids)', () => {
    expect(() => toDiscordPayloads({ content: 'x', buttons: [{ id: 'a:1', label: 'A' }, { id: 'a:1', label: 'B' }] })).toThrow(/used twice/);
  });

  it('GIVEN an empty message THEN Discord still gets something to show', () => {
    expect(toDiscordPayloads({ content: '' })[0]!.content).toBe('(no content)');
    expect(toDiscordPayloads({ content: '', files: [{ name: 'm.png', data: new Uint8Array([1]) }] })[0]!.content).toBeUndefined();
  });

  it('GIVEN more than 25 buttons (an army prompted in several contacts) THEN every button is sent, 25 a message', () => {
    const buttons = Array.from({ length: 27 }, (_, i) => ({ id: `contact:c:${i}`, label: `B${i}` }));
    const payloads = toDiscordPayloads({ content: 'Three contacts at once.', buttons });
    expect(payloads).toHaveLength(2);
    expect(payloads[0]!.content).toBe('Three contacts at once.');
    const ids = payloads.flatMap((p) => (p.components ?? []).flatMap((r) => r.toJSON().components.map((c) => (c as { custom_id: string }).custom_id)));
    expect(ids).toEqual(buttons.map((b) => b.id));
    expect(payloads.every((p) => (p.components ?? []).length <= 5)).toBe(true);
  });

  it('GIVEN a button id over 100 characters THEN building fails (a bug, not a Discord outage)', () => {
    expect(() => toDiscordPayloads({ content: 'x', buttons: [{ id: 'c'.repeat(101), label: 'x' }] })).toThrow();
  });
});

describe('autocomplete choices', () => {
  it('GIVEN 40 choices with long names THEN 25 are offered with names cut to 100 characters and over-long values dropped', () => {
    const choices = [{ name: 'bad', value: 'v'.repeat(101) }, ...Array.from({ length: 40 }, (_, i) => ({ name: `n${i} ${'w'.repeat(150)}`, value: `v${i}` }))];
    const fitted = fitChoices(choices);
    expect(fitted).toHaveLength(25);
    expect(fitted[0]!.value).toBe('v0');
    expect(fitted.every((c) => c.name.length <= 100 && c.name.length >= 1)).toBe(true);
  });
});

describe('classifying Discord failures', () => {
  it('GIVEN closed DMs (50007) THEN dmClosed', () => {
    expect(classifySendError(apiError(403, 50007, 'Cannot send messages to this user'))).toBe('dmClosed');
  });
  it('GIVEN an unknown channel, missing access or a bad body THEN permanent', () => {
    expect(classifySendError(apiError(404, 10003, 'Unknown Channel'))).toBe('permanent');
    expect(classifySendError(apiError(403, 50001, 'Missing Access'))).toBe('permanent');
    expect(classifySendError(apiError(400, 50035, 'Invalid Form Body'))).toBe('permanent');
  });
  it('GIVEN 429, 5xx, a refused token or a network error THEN retry', () => {
    expect(classifySendError(apiError(429, 0, 'rate limited'))).toBe('retry');
    expect(classifySendError(apiError(401, 0, 'Unauthorized'))).toBe('retry');
    expect(classifySendError(new HTTPError(502, 'Bad Gateway', 'POST', 'https://x/api', { body: undefined, files: undefined }))).toBe('retry');
    expect(classifySendError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('retry');
  });
  it('GIVEN a Discord error THEN the loggable form has neither the interaction token nor the message body', () => {
    const text = JSON.stringify(loggableError(apiError(400, 50035, 'Invalid Form Body')));
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('secret estimate');
    expect(text).toContain('50035');
    expect(redactUrl('https://x/api/v10/interactions/123/tok3n/callback')).toBe('https://x/api/v10/interactions/123/:token/callback');
  });
});

describe('the invite', () => {
  it('GIVEN the bot permissions THEN the integer matches discord.js flags and the setup doc', () => {
    const expected = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.AttachFiles | PermissionFlagsBits.UseApplicationCommands;
    expect(BOT_PERMISSION_BITS).toBe(expected);
    const doc = readFileSync(new URL('../../docs/discord-setup.md', import.meta.url), 'utf8');
    expect(doc).toContain(`permissions=${BOT_PERMISSION_BITS}`);
    expect(inviteUrl('123')).toBe(`https://discord.com/oauth2/authorize?client_id=123&scope=bot%20applications.commands&permissions=${BOT_PERMISSION_BITS}`);
  });
});
