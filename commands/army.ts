import { SlashCommandBuilder } from './_slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyStatus } from '../src/app/army/armyStatus.js';
import { editArmy } from '../src/app/army/editArmy.js';
import { setRoles } from '../src/app/movement/setRoles.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('army')
    .setDescription('Your army: status, regiment roles; referee corrections.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('status').setDescription('Position, points, rest, fatigue and regiments (private).')
      .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true)))
    .addSubcommand((s) => s.setName('roles').setDescription('Choose the assault and support regiments (the rest are reserve).')
      .addStringOption((o) => o.setName('assault').setDescription('Regiment that leads and fights').setRequired(true))
      .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true))
      .addStringOption((o) => o.setName('support').setDescription('Regiment that follows in support')))
    .addSubcommand((s) => s.setName('edit').setDescription('Referee: set an army\'s hex, figures, fatigue or formation by hand.')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('hex').setDescription('New hex, e.g. 0712'))
      .addStringOption((o) => o.setName('figures').setDescription('regiment=figures, e.g. r1=14'))
      .addBooleanOption((o) => o.setName('fatigued').setDescription('Mark fatigued or rested'))
      .addStringOption((o) => o.setName('formation').setDescription('Formed or unformed').addChoices({ name: 'formed', value: 'formed' }, { name: 'unformed', value: 'unformed' }))),
  defer: 'ephemeral',
  async execute(ctx) {
    const actor = actorOf(ctx);
    switch (ctx.subcommand) {
      case 'roles':
        return setRoles(ctx.app, actor, { army: ctx.string('army'), assault: ctx.string('assault'), support: ctx.string('support') });
      case 'edit':
        return editArmy(ctx.app, actor, { army: ctx.string('army'), hex: ctx.string('hex'), figures: ctx.string('figures'), fatigued: ctx.boolean('fatigued'), formation: ctx.string('formation') });
      default:
        return armyStatus(ctx.app, actor, ctx.string('army'));
    }
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
