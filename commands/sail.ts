import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyOrPlaceChoices } from './_choices.js';
import { orderSail } from '../src/app/water/orderSail.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('sail')
    .setDescription('Sail your fleet (previews the voyage), or stop it where it lies.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your embarked army').setAutocomplete(true))
    .addStringOption((o) => o.setName('to').setDescription('Destination: a hex (0506) or a place (Skullhaven); the bot finds the water route').setAutocomplete(true))
    .addStringOption((o) => o.setName('path').setDescription('Hexes in order, e.g. "2303 2202 2102"'))
    .addBooleanOption((o) => o.setName('stop').setDescription('Stop the fleet where it lies; the army stays aboard')),
  defer: 'ephemeral',
  async execute(ctx) {
    return orderSail(ctx.app, actorOf(ctx), { army: ctx.string('army'), path: ctx.string('path'), to: ctx.string('to'), stop: ctx.boolean('stop') });
  },
  async autocomplete(ctx) {
    return armyOrPlaceChoices(ctx);
  },
} satisfies Command;
