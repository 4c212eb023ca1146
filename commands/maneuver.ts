import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { maneuverCase } from '../src/app/contact/contactOperations.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('maneuver')
    .setDescription('Maneuver next to an enemy (+1 on deployment and disengagement dice), or force a second contact.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
    .addBooleanOption((o) => o.setName('second').setDescription('Force a second map contact this half period')),
  defer: 'ephemeral',
  async execute(ctx) {
    return maneuverCase(ctx.app, actorOf(ctx), { army: ctx.string('army'), second: ctx.boolean('second') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
