import { echo } from '../src/engine/events/index.js';
import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS_AND_BOT_DM, SERVER_INSTALL } from './_contexts.js';
import { ephemeral } from '../src/app/messages.js';
import type { Command } from '../src/app/commandContext.js';

/** How /help groups the commands; a registered command missing here shows under "More". */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['Your army', ['army', 'move', 'rest', 'hold', 'map', 'intel']],
  ['Contact', ['engage', 'evade', 'avoid', 'delay', 'withdraw', 'scouts', 'terrain']],
  ['Allies', ['support', 'reserve', 'relief', 'reinforce', 'exploit', 'maneuver']],
  ['Ships and couriers', ['embark', 'sail', 'debark', 'courier']],
  ['Referee', ['referee', 'campaign', 'turn', 'contact', 'battle', 'weather']],
  ['Dice', ['dice']],
  ['Reference', ['rules', 'help']],
];

type Option = { type: number; name: string; description: string; required?: boolean; options?: Option[] };
type Json = { name: string; description: string; options?: Option[] };

/** Discord's option type of a subcommand. */
const SUBCOMMAND = 1;

/** One option of a command as /help lists it. */
const optionLine = (o: Option): string => `- \`${o.name}:\`${o.required ? ' (required)' : ''} ${o.description}`;

/**
 * /help, over the registry's list of commands: commands/index.ts builds it with its own list, so
 * neither file imports the other back.
 */
export default function helpCommand(registered: () => readonly Command[]): Command {
  return {
    data: new SlashCommandBuilder()
      .setName('help')
      .setDescription('What the bot can do, command by command.')
      .setContexts(IN_SERVERS_AND_BOT_DM)
      .setIntegrationTypes(SERVER_INSTALL)
      .addStringOption((o) => o.setName('command').setDescription('One command, e.g. move')),
    async execute(ctx) {
      const json = registered().map((c) => c.data.toJSON() as Json);
      const wanted = ctx.string('command')?.replace(/^\//, '').trim().toLowerCase();
      if (wanted) {
        // A subcommand too ("campaign settings"): its own options.
        const [name = '', subName, ...rest] = wanted.split(/\s+/);
        const one = json.find((c) => c.name === name);
        if (!one) return [ephemeral(`There is no command ${echo(`/${wanted}`)}. Commands: ${json.map((c) => `/${c.name}`).join(', ')}.`, { error: 'help.unknown' })];
        const subs = (one.options ?? []).filter((o) => o.type === SUBCOMMAND);
        if (subName !== undefined) {
          const sub = rest.length === 0 ? subs.find((o) => o.name === subName) : undefined;
          if (!sub) {
            const text = subs.length > 0
              ? `/${one.name} has no subcommand ${echo(wanted.slice(name.length).trim())}. Its subcommands: ${subs.map((o) => `\`/${one.name} ${o.name}\``).join(', ')}.`
              : `/${one.name} has no subcommands: \`/help command:${one.name}\` lists its options.`;
            return [ephemeral(text, { error: 'help.unknown' })];
          }
          const lines = (sub.options ?? []).map(optionLine);
          return [ephemeral([`**/${one.name} ${sub.name}** — ${sub.description}`, ...(lines.length > 0 ? lines : ['No options.'])].join('\n'), { command: one, subcommand: sub.name })];
        }
        const lines = (one.options ?? []).map((o) => (o.type === SUBCOMMAND ? `- \`/${one.name} ${o.name}\`: ${o.description}` : optionLine(o)));
        const more = subs.length > 0 ? [`The options of one: \`/help command:"${one.name} ${subs[0]!.name}"\`.`] : [];
        return [ephemeral([`**/${one.name}** — ${one.description}`, ...lines, ...more].join('\n'), { command: one })];
      }
      const names = new Set(json.map((c) => c.name));
      const grouped = new Set(GROUPS.flatMap(([, list]) => list));
      const lines = GROUPS.map(([title, list]) => `**${title}**: ${list.filter((n) => names.has(n)).map((n) => `\`/${n}\``).join(' ')}`);
      const more = json.filter((c) => !grouped.has(c.name)).map((c) => `\`/${c.name}\``);
      const text = [
        'Orders and secrets stay private; positions, the chronicle and the map after each tick are public.',
        ...lines,
        ...(more.length > 0 ? [`**More**: ${more.join(' ')}`] : []),
        'Details of one command: `/help command:move`. Full guide: docs/commands.md.',
      ].join('\n');
      return [ephemeral(text, { commands: json.map((c) => ({ name: c.name, description: c.description })) })];
    },
  } satisfies Command;
}
