import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { reserveCase } from '../src/app/contact/contactOperations.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('reserve')
    .setDescription('Stand in reserve for an allied force in contact (next to its supporter).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
    .addStringOption((o) => o.setName('of').setDescription('The allied army in contact').setAutocomplete(false)),
  defer: 'ephemeral',
  async execute(ctx) {
    return reserveCase(ctx.app, actorOf(ctx), { army: ctx.string('army'), of: ctx.string('of') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
