import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { deployScouts } from '../src/app/contact/scouts.js';
import { SCOUT_LIMIT } from '../src/engine/contact/index.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('scouts')
    .setDescription('Send scouts ahead of your force (0 recalls them); they report at the next contact.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    // The range is the bot's bound on scouts (SCOUT_LIMIT, docs/rulings.md), the one /scouts itself checks and /army status states.
    .addIntegerOption((o) => o.setName('count').setDescription('Scouts to deploy').setRequired(true).setMinValue(0).setMaxValue(SCOUT_LIMIT))
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true)),
  defer: 'ephemeral',
  async execute(ctx) {
    return deployScouts(ctx.app, actorOf(ctx), { army: ctx.string('army'), count: ctx.integer('count') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
