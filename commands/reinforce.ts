import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { reinforceCase } from '../src/app/contact/contactOperations.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('reinforce')
    .setDescription('Supporting force: reinforce the supported force if a disengagement would displace it.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
    .addBooleanOption((o) => o.setName('on').setDescription('Reinforce (default) or not')),
  defer: 'ephemeral',
  async execute(ctx) {
    return reinforceCase(ctx.app, actorOf(ctx), { army: ctx.string('army'), on: ctx.boolean('on') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
