import { SlashCommandBuilder } from '@discordjs/builders';
import { ephemeral } from '../src/app/messages.js';
import type { Command } from './types.js';

const REFEREE = new Set(['campaign', 'turn', 'weather', 'contact', 'battle']);

export default {
  data: new SlashCommandBuilder()
    .setName('help')
    .setDescription('What the bot can do, command by command.')
    .addStringOption((o) => o.setName('command').setDescription('One command, e.g. move')),
  async execute(ctx) {
    const { commands } = await import('./index.js');
    const wanted = ctx.string('command')?.replace(/^\//, '').toLowerCase();
    const json = commands.map((c) => c.data.toJSON() as { name: string; description: string; options?: { type: number; name: string; description: string; required?: boolean }[] });
    if (wanted) {
      const one = json.find((c) => c.name === wanted);
      if (!one) return [ephemeral(`There is no /${wanted}. Commands: ${json.map((c) => `/${c.name}`).join(', ')}.`, { error: 'help.unknown' })];
      const opts = (one.options ?? []).map((o) => (o.type === 1 ? `- \`/${one.name} ${o.name}\`: ${o.description}` : `- \`${o.name}:\`${o.required ? ' (required)' : ''} ${o.description}`));
      return [ephemeral(`**/${one.name}** — ${one.description}\n${opts.join('\n')}`, { command: one })];
    }
    const line = (c: { name: string; description: string }): string => `\`/${c.name}\` ${c.description}`;
    const text = [
      '**Valormr campaign bot** — orders and secrets stay private; the map and the chronicle are public.',
      '**Commanders**', ...json.filter((c) => !REFEREE.has(c.name)).map(line),
      '**Referee**', ...json.filter((c) => REFEREE.has(c.name)).map(line),
      'Details: `/help command:move`.',
    ].join('\n');
    return [ephemeral(text, { commands: json.map((c) => c.name) })];
  },
} satisfies Command;
