import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { reliefCase } from '../src/app/contact/contactOperations.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('relief')
    .setDescription('Supporting force: switch hexes and roles with the force you support.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true)),
  defer: 'ephemeral',
  async execute(ctx) {
    return reliefCase(ctx.app, actorOf(ctx), { army: ctx.string('army') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
