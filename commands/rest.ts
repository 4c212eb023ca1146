import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { orderRest } from '../src/app/movement/orderRest.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('rest')
    .setDescription('Order one of your armies to rest where it stands (recovers points and fatigue).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true)),
  defer: 'ephemeral',
  async execute(ctx) {
    return orderRest(ctx.app, actorOf(ctx), ctx.string('army'));
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
