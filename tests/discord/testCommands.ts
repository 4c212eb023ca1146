/**
 * Small commands and button handlers that exercise the transport on their own, independent of the
 * game's commands: an echo of the context, a refusal, a bug, a deferred image, long output, an
 * upload and buttons.
 */
import { SlashCommandBuilder } from '../../src/app/slash.js';
import { UserError } from '../../src/app/errors.js';
import { ephemeral, reply, type Reply } from '../../src/app/messages.js';
import type { ButtonHandler, Command } from '../../src/app/commandContext.js';
import { TINY_PNG } from './harness.js';

export const echo = {
  data: new SlashCommandBuilder()
    .setName('echo')
    .setDescription('Echo what the bot understood.')
    .addSubcommand((s) => s
      .setName('options')
      .setDescription('Echo the options.')
      .addStringOption((o) => o.setName('army').setDescription('An army').setRequired(true).setAutocomplete(true))
      .addIntegerOption((o) => o.setName('count').setDescription('A count').setMinValue(1).setMaxValue(9))
      .addBooleanOption((o) => o.setName('flag').setDescription('A flag'))
      .addUserOption((o) => o.setName('who').setDescription('A user'))
      .addNumberOption((o) => o.setName('ratio').setDescription('A ratio')))
    .addSubcommand((s) => s.setName('public').setDescription('Answer in public.')),
  async execute(ctx) {
    if (ctx.subcommand === 'public') return [reply(`Hello everyone, from ${ctx.userName}.`)];
    const seen = {
      user: ctx.userId, name: ctx.userName, guild: ctx.guildId, channel: ctx.channelId, roles: ctx.roleIds, sub: ctx.subcommand,
      army: ctx.string('army'), count: ctx.integer('count'), flag: ctx.boolean('flag'), who: ctx.user('who'), ratio: ctx.number('ratio'),
    };
    return [ephemeral(`seen ${JSON.stringify(seen)}`, seen)];
  },
  async autocomplete(ctx) {
    const armies = Array.from({ length: 40 }, (_, i) => ({ name: `Army ${i} ${'of the long road '.repeat(i === 3 ? 10 : 0)}for ${ctx.userId}`, value: `a${i}` }));
    return armies.filter((a) => a.value.startsWith(ctx.focused.value) || ctx.focused.value === '');
  },
} satisfies Command;

export const refuse = {
  data: new SlashCommandBuilder().setName('refuse').setDescription('Always refused.'),
  async execute() {
    throw new UserError('army.notYours', 'That army is not yours; you command: Red Host.');
  },
} satisfies Command;

export const boom = {
  data: new SlashCommandBuilder().setName('boom').setDescription('Always fails.'),
  async execute(): Promise<Reply[]> {
    throw new Error('kaboom: the database is on fire');
  },
} satisfies Command;

/** Deferred in public, slower than Discord's 3 seconds would allow without deferring. */
export const picture = {
  data: new SlashCommandBuilder().setName('picture').setDescription('A deferred map-like image.'),
  defer: 'public',
  async execute() {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return [reply('The map, day 1 morning.', undefined, [{ name: 'map-day1-morning.png', data: TINY_PNG }])];
  },
} satisfies Command;

/** Deferred in public, but refuses: the refusal must still be private. */
export const publicRefusal = {
  data: new SlashCommandBuilder().setName('public-refusal').setDescription('Deferred in public, then refused.'),
  defer: 'public',
  async execute() {
    throw new UserError('campaign.refereeOnly', 'Only the referee can advance the turn.');
  },
} satisfies Command;

/** No defer declared, but slower than the safety deferral (1 s in tests, 2 s by default). */
export const sluggish = {
  data: new SlashCommandBuilder().setName('sluggish').setDescription('Slow without deferring.'),
  async execute() {
    await new Promise((resolve) => setTimeout(resolve, 1300));
    return [reply('Finally, in public.')];
  },
} satisfies Command;

export const long = {
  data: new SlashCommandBuilder().setName('long').setDescription('A long report.'),
  async execute() {
    const lines = Array.from({ length: 120 }, (_, i) => `Line ${i}: the Red Host marched through the forest of Valormr.`);
    return [ephemeral(lines.join('\n'))];
  },
} satisfies Command;

export const upload = {
  data: new SlashCommandBuilder()
    .setName('upload')
    .setDescription('Read an uploaded file.')
    .addAttachmentOption((o) => o.setName('file').setDescription('A scenario file').setRequired(true)),
  defer: 'ephemeral',
  async execute(ctx) {
    const file = ctx.attachment('file');
    if (!file) throw new UserError('scenario.invalid', 'Attach a file.');
    const text = await file.text();
    return [ephemeral(`read ${file.name}: ${text}`)];
  },
} satisfies Command;

export const testCommands: readonly Command[] = [echo, refuse, boom, picture, publicRefusal, sluggish, long, upload];

export const pressed: { userId: string; customId: string }[] = [];

export const decideButtons: ButtonHandler = {
  prefix: 'decide',
  async execute({ userId, customId }) {
    pressed.push({ userId, customId });
    if (customId.endsWith(':late')) throw new UserError('contact.buttonStale', 'This contact was already decided.');
    return [reply(`Decision recorded: ${customId.split(':')[2] ?? '?'}.`)];
  },
};
