import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { withdraw } from '../src/app/contact/battle.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('withdraw')
    .setDescription('During a tabletop battle: withdraw your force (the referee applies it with the result).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('condition').setDescription('How the force left the table').setRequired(true)
      .addChoices({ name: 'formed in good order', value: 'formed' }, { name: 'in retreat', value: 'retreat' }, { name: 'in rout', value: 'rout' }))
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
    .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3 (if you are in several)')),
  defer: 'ephemeral',
  async execute(ctx) {
    return withdraw(ctx.app, actorOf(ctx), { army: ctx.string('army'), contact: ctx.string('contact'), condition: ctx.string('condition') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
